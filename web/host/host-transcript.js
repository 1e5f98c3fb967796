// The transcript: user bubbles, the assistant's streamed markdown, tool cards (arguments, approval,
// progress, result, and the tool's MCP App view) and the servers' requests (elicitation, sampling,
// sign-in), in arrival order.

import { createAnswers, modelLabel } from './host-answers.js';
import { createCards } from './host-cards.js';
import { editInPlace, versionSwitch } from './host-versions.js';
import { copyText, el, formatTime, prettyJson, toolParts } from './host-dom.js';
import { samplingMessages, textOf } from './host-content.js';
import { schemaFields } from './host-forms.js';
import { renderMarkdown } from './host-markdown.js';

const SAFE_URL = /^https?:\/\//i;

export function createTranscript({ root, jump, empty, announce, findTool, viewResource, send, focusComposer, apps, onApproved = () => {} }) {
  const messages = new Map();   // messageId → { node, body, raw }
  let stick = true;
  let autoTop = 0;              // where the page last scrolled itself to
  let liveModel = '';           // the model answering now, when the picker chose one

  // ------------------------------------------------------------------------------ scrolling
  // The transcript follows new content only while the user is at the bottom. Growth alone (text
  // streaming in, an image loading) never unsticks it: only the user scrolling up does.

  const atBottom = () => root.scrollHeight - root.scrollTop - root.clientHeight < 48;
  root.addEventListener('scroll', () => {
    if (atBottom()) stick = true;
    else if (root.scrollTop < autoTop - 4) stick = false;
    if (stick) jump.hidden = true;
  }, { passive: true });
  // Images change the height after they load.
  root.addEventListener('load', () => { if (stick) scrollDown(); }, true);
  jump.addEventListener('click', () => { stick = true; scrollDown(); });

  function scrollDown() {
    root.scrollTop = root.scrollHeight;
    autoTop = root.scrollTop;
    jump.hidden = true;
  }

  function changed() {
    empty.hidden = root.childElementCount > 0;
    if (stick) scrollDown();
    else jump.hidden = false;
  }

  function add(node) {
    root.append(node);
    changed();
    return node;
  }
  const answers = createAnswers({ add, announce });

  // ------------------------------------------------------------------------------ streaming

  const dirty = new Set();
  let scheduled = false;
  function flush() {
    scheduled = false;
    for (const message of dirty) {
      message.body.innerHTML = renderMarkdown(message.raw);
      message.node.classList.toggle('has-text', Boolean(message.raw.trim()));
    }
    dirty.clear();
    changed();
  }
  function schedule(message) {
    dirty.add(message);
    if (scheduled) return;
    scheduled = true;
    // requestAnimationFrame stalls in a hidden tab; a timer keeps the text current there.
    if (document.hidden) setTimeout(flush, 120);
    else requestAnimationFrame(flush);
  }

  function assistantMessage(id, raw = '', createdAt, model = '', versions = null) {
    const body = el('div', { class: 'markdown', 'aria-live': 'polite', 'aria-busy': 'false' });
    const copy = el('button', { type: 'button', class: 'small-button copy-message', testid: 'copy-answer', text: 'Copy', 'aria-label': 'Copy the answer as markdown' });
    const again = el('button', { type: 'button', class: 'small-button', testid: 'regenerate', text: 'Regenerate',
      title: 'Ask for this answer again; this one is kept as an earlier version', onclick: () => send('regenerate', { messageId: node.dataset.messageId }) });
    const node = el('article', { class: 'msg assistant', testid: 'assistant-message', dataset: { messageId: id }, 'aria-label': 'Assistant', title: formatTime(createdAt) || null },
      body, modelLabel(model), el('div', { class: 'msg-actions' }, copy, again, versionSwitch(versions, send)));
    const message = { node, body, raw };
    copy.addEventListener('click', async () => {
      await copyText(message.raw);
      copy.textContent = 'Copied';
      setTimeout(() => { copy.textContent = 'Copy'; }, 1500);
    });
    body.innerHTML = renderMarkdown(raw);
    node.classList.toggle('has-text', Boolean(raw.trim()));
    messages.set(id, message);
    add(node);
    return message;
  }

  /** The answer a streamed piece belongs to; the next piece of the turn ends any retry notice. */
  function streaming(messageId, turnId) {
    const id = messageId || `turn-${turnId || 'unknown'}`;
    const message = messages.get(id) || assistantMessage(id, '', undefined, liveModel);
    message.turnId = turnId;
    if (!message.node.dataset.streaming) {
      message.node.dataset.streaming = 'true';
      message.body.setAttribute('aria-busy', 'true');
    }
    answers.clearRetry();
    return message;
  }

  function appendText({ content, messageId, turnId }) {
    const message = streaming(messageId, turnId);
    answers.settleReasoning(message);
    message.raw += textOf(content);
    schedule(message);
  }

  function appendReasoning({ content, messageId, turnId }) {
    answers.addReasoning(streaming(messageId, turnId), textOf(content));
    changed();
  }

  const settleReasoning = () => { for (const message of messages.values()) answers.settleReasoning(message); };
  const cards = createCards({ add, changed, settleReasoning, findTool, viewResource, apps });
  const { card, nameCard, setState, setArguments, setResult, status, progress, task } = cards;

  function endStreams() {
    settleReasoning();
    for (const message of messages.values()) {
      if (!message.node.dataset.streaming) continue;
      delete message.node.dataset.streaming;
      message.body.setAttribute('aria-busy', 'false');
      dirty.add(message);
    }
    flush();
  }

  /** What views asked the model to know, sent with a message: shown folded under its text. */
  function contextNote(context) {
    return el('details', { class: 'bubble-context', testid: 'user-context' },
      el('summary', { text: 'Sent with context from an app view' }), el('pre', { text: context }));
  }

  /** A bubble shown before the host recorded its message learns its context. */
  function showContext(bubble, context) {
    if (!context || !bubble || bubble.querySelector('[data-testid="user-context"]')) return;
    bubble.querySelector('.bubble')?.append(contextNote(context));
  }

  /** Opens the editor on the user's message `node` (its id known once the host recorded it). */
  function edit(node) {
    const text = node?.querySelector('.bubble-text')?.textContent ?? '';
    if (!node?.dataset.messageId || !text) return false;
    editInPlace(node, text, (value) => send('edit_message', { messageId: node.dataset.messageId, text: value }));
    return true;
  }

  /** The pictures and files a message carried: thumbnails, and a chip per text file. */
  function filesOf({ images, shownFiles, files }) {
    const pictures = (images || []).map((image) => ({ name: image.name || 'picture', url: `data:${image.mimeType};base64,${image.data}` }));
    const shown = shownFiles || pictures.concat((files || []).filter((file) => file.text !== undefined).map(({ name }) => ({ name })));
    if (!shown.length) return null;
    return el('div', { class: 'bubble-files', testid: 'message-files' }, shown.map((file) => (file.url
      ? el('img', { class: 'bubble-image', src: file.url, alt: file.name, title: file.name })
      : el('span', { class: 'chip', title: file.name, text: file.name }))));
  }

  function addUser({ text, attachments, prompt, context, createdAt, id, versions = null, images, shownFiles, files }) {
    const actions = el('div', { class: 'msg-actions' },
      text ? el('button', { type: 'button', class: 'small-button', testid: 'edit-message', text: 'Edit',
        title: 'Change this message; what followed it is kept as an earlier version', onclick: (event) => edit(event.target.closest('.msg')) }) : null,
      versionSwitch(versions, send));
    return add(el('article', { class: 'msg user', testid: 'user-message', dataset: { messageId: id || '' }, 'aria-label': 'You', title: formatTime(createdAt) || null },
      el('div', { class: 'bubble' },
        prompt ? el('div', { class: 'bubble-meta' }, el('span', { class: 'badge badge-prompt', text: 'prompt' }),
          el('code', { text: `/${prompt.server}/${prompt.name}` }),
          Object.keys(prompt.arguments || {}).length ? el('span', { class: 'muted', text: ` ${prettyJson(prompt.arguments).replace(/\s+/g, ' ')}` }) : null) : null,
        text ? el('div', { class: 'bubble-text', text }) : null,
        attachments?.length ? el('div', { class: 'bubble-meta' }, attachments.map((item) =>
          el('span', { class: 'chip', title: item.uri }, `${item.server}: ${item.uri}`))) : null,
        filesOf({ images, shownFiles, files }),
        context ? contextNote(context) : null), actions));
  }

  /** A recorded user message (from the history, or another tab's turn), shown once. */
  function userMessage(message) {
    if (!message) return null;
    const shown = message.id && [...root.querySelectorAll('[data-testid="user-message"]')].some((node) => node.dataset.messageId === message.id);
    return shown ? null : addUser({
      text: textOf(message.content), context: typeof message.context === 'string' ? message.context : '', createdAt: message.createdAt, id: message.id,
      versions: message, images: Array.isArray(message.images) ? message.images : [],
    });
  }

  // -------------------------------------------------------------------- focus for inline dialogs

  function takeFocus(target) {
    const current = document.activeElement;
    const typing = current && current.matches?.('textarea, input[type="text"], input:not([type])') && current.value && !current.closest('.request-card, .approval');
    if (typing) return;
    target.focus({ preventScroll: !stick });
  }
  function answered(node) {
    if (node.contains(document.activeElement) || document.activeElement === document.body) focusComposer();
  }

  function approvalRequest(payload) {
    const entry = card(payload.callId, payload.tool);
    if (payload.tool || payload.server) nameCard(entry, payload.tool || entry.tool, payload.server);
    setArguments(entry, payload.arguments, true);
    setState(entry, 'approval');
    const titleId = `approval-title-${payload.callId}`;
    const buttons = [
      el('button', { type: 'button', class: 'primary', testid: 'approval-once', text: 'Allow once' }),
      el('button', { type: 'button', testid: 'approval-conversation', text: 'Allow in this chat', title: 'Until this chat ends; other chats still ask' }),
      el('button', { type: 'button', testid: 'approval-always', text: 'Always allow', title: 'In every chat, after a restart too; revoke it in the server panel' }),
      el('button', { type: 'button', class: 'danger', testid: 'approval-deny', text: 'Deny' }),
    ];
    // The arguments, editable before allowing (as VS Code does): the call runs with the edited
    // ones, and the model is told they changed.
    const editor = el('textarea', { class: 'approval-arguments', testid: 'approval-arguments', rows: 4, spellcheck: 'false',
      'aria-label': 'Arguments to run the tool with (JSON)', value: JSON.stringify(payload.arguments ?? {}, null, 2) });
    const editorError = el('p', { class: 'error-text small', testid: 'approval-arguments-error', role: 'alert', hidden: true });
    const edit = el('details', { class: 'approval-edit', testid: 'approval-edit' },
      el('summary', { text: 'Edit the arguments' }), editor, editorError);
    const edited = () => {
      if (!edit.open) return { ok: true };
      try {
        const value = JSON.parse(editor.value);
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the arguments must be a JSON object');
        return { ok: true, value };
      } catch (error) {
        return { ok: false, message: error.message };
      }
    };
    editor.addEventListener('input', () => {
      const check = edited();
      editorError.hidden = check.ok;
      editorError.textContent = check.ok ? '' : `Not valid: ${check.message}`;
      for (const button of buttons.slice(0, 3)) button.disabled = !check.ok;
    });
    const dialog = el('div', { class: 'approval', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': titleId, tabindex: '-1' },
      el('p', { id: titleId, class: 'approval-title' }, 'Allow ', el('strong', { text: entry.server || payload.server || 'the server' }),
        ' to run ', el('code', { text: findTool(entry.tool)?.tool.name || toolParts(entry.tool).tool }), '?'),
      Array.isArray(payload.changed) && payload.changed.length
        ? el('p', { class: 'approval-changed', testid: 'approval-changed',
          text: `You allowed this tool without asking, but its server has changed it since (${payload.changed.join(', ')}). Check it again.` })
        : null,
      Array.isArray(payload.changed) && payload.changed.includes('description') && typeof payload.previousDescription === 'string'
        ? el('p', { class: 'muted approval-previous' }, 'It used to say: ', el('q', { text: payload.previousDescription })) : null,
      payload.description ? el('p', { class: 'muted approval-description', text: payload.description }) : null,
      edit,
      el('div', { class: 'buttons' }, buttons));
    const decisions = ['once', 'conversation', 'always', 'deny'];
    buttons.forEach((button, i) => button.addEventListener('click', () => {
      const check = edited();
      if (!check.ok) return;
      const answer = { callId: payload.callId, decision: decisions[i] };
      if (check.value && decisions[i] !== 'deny') answer.arguments = check.value;
      send('approval', answer);
      if (answer.arguments) setArguments(entry, answer.arguments);  // what runs, on the card too
      const text = { once: 'Allowed once', conversation: 'Allowed in this chat', always: 'Always allowed', deny: 'Denied' }[decisions[i]];
      answered(dialog);
      dialog.replaceWith(el('p', { class: `approval-answer decision-${decisions[i]}`, text: answer.arguments ? `${text}, with the arguments edited` : text }));
      entry.approval = null;
      if (entry.node.dataset.state === 'approval') setState(entry, 'processing');
      onApproved(decisions[i]);
    }));
    entry.approval?.remove();
    entry.approval = dialog;
    entry.refs.approval.replaceChildren(dialog);
    changed();
    announce(`Approval needed: ${entry.tool}`);
    takeFocus(dialog);
  }

  // -------------------------------------------------------------------- elicitation and sampling

  function requestCard(kind, testid, payload, ...children) {
    return el('article', { class: `request-card ${kind}`, testid, dataset: { requestId: payload.requestId, state: 'pending' }, 'aria-label': `${kind} request from ${payload.server}` },
      el('header', { class: 'request-head' }, el('span', { class: 'badge' , text: kind }), el('span', {}, 'from ', el('strong', { text: payload.server || 'a server' }))),
      children);
  }

  function settle(node, state, text) {
    node.dataset.state = state;
    answered(node);
    node.querySelector('.request-body')?.replaceWith(el('p', { class: `request-answer answer-${state}`, text }));
  }

  /** A question this page still shows was answered in another tab, expired, or its turn stopped. */
  function questionClosed({ id, reason }) {
    const text = { answered: 'Answered in another tab', expired: 'Not answered in time', stopped: 'The turn was stopped' }[reason] ?? 'Closed';
    const entry = cards.entries.get(id);
    if (entry?.approval) {
      answered(entry.approval);
      entry.approval.replaceWith(el('p', { class: `approval-answer closed-${reason}`, testid: 'question-closed', text }));
      entry.approval = null;
    }
    for (const node of root.querySelectorAll('.request-card[data-state="pending"]'))
      if (node.dataset.requestId === id) settle(node, reason === 'answered' ? 'answered' : 'expired', text);
    changed();
  }

  function elicitation(payload) {
    const url = payload.mode === 'url';
    const fields = url ? null : schemaFields(payload.requestedSchema || {});
    const accept = el('button', { type: 'submit', class: 'primary', testid: 'elicitation-accept', text: 'Accept' });
    const decline = el('button', { type: 'button', testid: 'elicitation-decline', text: 'Decline' });
    const cancel = el('button', { type: 'button', testid: 'elicitation-cancel', text: 'Cancel' });
    const safe = url && SAFE_URL.test(payload.url || '');
    const form = el('form', { class: 'request-body', testid: 'elicitation-form', novalidate: true, dataset: { mode: url ? 'url' : 'form' }, 'aria-label': 'Answer the request' },
      url ? el('p', { class: 'elicitation-url' }, safe
        ? el('a', { href: payload.url, target: '_blank', rel: 'noopener noreferrer', text: payload.url })
        : el('code', { text: payload.url || '(no URL)' })) : fields.node,
      el('div', { class: 'buttons' }, accept, decline, cancel));
    const node = add(requestCard('elicitation', 'elicitation', payload,
      el('div', { class: 'markdown request-message', html: renderMarkdown(payload.message || '') }), form));
    const answer = (action, content) => {
      send('elicitation', content === undefined ? { requestId: payload.requestId, action } : { requestId: payload.requestId, action, content });
      settle(node, action, { accept: url ? 'Accepted: opened the page.' : 'Sent.', decline: 'Declined.', cancel: 'Cancelled.' }[action]);
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (url) {
        if (safe) window.open(payload.url, '_blank', 'noopener,noreferrer');
        answer('accept');
        return;
      }
      const collected = fields.collect();
      if (collected.ok) answer('accept', collected.value);
    });
    decline.addEventListener('click', () => answer('decline'));
    cancel.addEventListener('click', () => answer('cancel'));
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { event.preventDefault(); answer('cancel'); }
    });
    announce(`${payload.server || 'A server'} asks: ${payload.message || ''}`);
    takeFocus((!url && fields.node.querySelector('input, select, textarea')) || accept);
  }

  function sampling(payload) {
    const approve = el('button', { type: 'button', class: 'primary', testid: 'sampling-approve', text: 'Approve' });
    const deny = el('button', { type: 'button', class: 'danger', testid: 'sampling-deny', text: 'Deny' });
    const node = add(requestCard('sampling', 'sampling-request', payload,
      el('p', { class: 'muted' }, 'The server asks the model to answer these messages',
        payload.maxTokens ? ` (at most ${payload.maxTokens} tokens)` : '', '.'),
      el('div', { class: 'request-body' }, el('div', { class: 'sample-messages' }, samplingMessages(payload)), el('div', { class: 'buttons' }, approve, deny))));
    const answer = (decision) => {
      send('sampling', { requestId: payload.requestId, decision });
      settle(node, decision, decision === 'approve' ? 'Approved.' : 'Denied.');
    };
    approve.addEventListener('click', () => answer('approve'));
    deny.addEventListener('click', () => answer('deny'));
    announce(`${payload.server || 'A server'} asks to use the model`);
    takeFocus(approve);
  }

  function auth(payload) {
    const key = `${payload.server}\u0000${payload.url}`;
    if ([...root.querySelectorAll('[data-testid="auth-notice"]')].some((node) => node.dataset.key === key)) return;
    const safe = SAFE_URL.test(payload.url || '');
    add(el('div', { class: 'notice notice-auth', testid: 'auth-notice', role: 'status', dataset: { key, server: payload.server || '' } },
      el('span', {}, el('strong', { text: payload.server || 'A server' }), ' needs you to sign in. '),
      safe ? el('a', { class: 'button-link primary', href: payload.url, target: '_blank', rel: 'noopener noreferrer', text: 'Sign in' })
        : el('code', { text: payload.url || '' })));
    announce(`${payload.server} needs you to sign in`);
  }

  function notice(text, kind = 'info', testid = 'notice') {
    return add(el('div', { class: `notice notice-${kind}`, testid, role: kind === 'error' ? 'alert' : 'status', text }));
  }

  // ------------------------------------------------------------------------------ history

  function reset() {
    apps.teardownWithin(root, 'The conversation was cleared.');
    answers.clearRetry();
    dirty.clear();
    messages.clear();
    cards.entries.clear();
    root.replaceChildren();
    stick = true;
    changed();
  }

  function showHistory(list) {
    reset();
    for (const message of Array.isArray(list) ? list : []) {
      if (message.role === 'user') {
        userMessage(message);
      } else if (message.role === 'assistant') {
        const text = textOf(message.content);
        const reasoning = typeof message.reasoning === 'string' ? message.reasoning : '';
        // A failure record has neither: its error box alone shows, no empty bubble.
        if (text.trim() || reasoning.trim()) {
          const shown = assistantMessage(message.id || `history-${messages.size}`, text, message.createdAt, message.model, message);
          if (reasoning.trim()) answers.addReasoning(shown, reasoning, true);
        }
        for (const call of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
          const entry = card(call.id, call.name);
          let args = call.arguments;
          if (typeof args === 'string') { try { args = JSON.parse(args); } catch { /* shown as the string */ } }
          setArguments(entry, args);
          entry.fromHistory = true;
        }
        if (message.isError) answers.failure(message.ending, message.endingDetails);
        else if (message.ending) answers.ending(message.ending);
      } else if (message.role === 'tool') {
        const entry = card(message.toolCallId || message.id, message.toolName);
        const data = message.data !== undefined ? message.data : message.content;
        setResult(entry, data, message.isError, undefined, message.app, message.refused === true);
        // The call's view, while the host still serves it (it leaves `app` out otherwise).
        if (message.app) apps.mount(entry.refs.result, { app: message.app, args: entry.args, result: data, onResize: changed });
      }
    }
    // A call the history holds no result for was cut short (or is still running: a later frame updates it).
    for (const entry of cards.entries.values()) {
      if (entry.fromHistory && entry.node.dataset.state !== 'complete') {
        setState(entry, 'complete');
        entry.refs.state.textContent = 'no result';
      }
    }
    stick = true;
    changed();
  }

  function turnEnded(state, payload) {
    answers.clearRetry();
    endStreams();
    for (const entry of cards.entries.values()) {
      if (entry.node.dataset.state === 'complete') continue;
      if (state !== 'finished') {
        entry.approval?.remove();
        entry.approval = null;
        setState(entry, 'complete', true);
        entry.refs.state.textContent = state === 'stopped' ? 'stopped' : 'failed';
      }
    }
    for (const node of root.querySelectorAll('.request-card[data-state="pending"]')) {
      if (state !== 'finished') settle(node, 'expired', 'No longer needed: the answer ended.');
    }
    if (state === 'stopped') notice('Stopped.', 'muted', 'turn-stopped');
    if (state === 'failed') answers.failure(payload.message, payload.details);
    if (state === 'finished' && payload.notice) answers.ending(payload.notice);
  }

  return {
    /** Up in an empty box: the last message the user sent, to edit. */
    editLast: () => edit([...root.querySelectorAll('[data-testid="user-message"]')].at(-1)),
    reset, showHistory, appendText, appendReasoning, endStreams, addUser, userMessage, showContext, status, progress, task, approvalRequest, questionClosed,
    elicitation, sampling, auth, notice, turnEnded,
    retrying: (payload) => { answers.retrying(payload, messages); changed(); },
    /** Live answers name the model the picker chose (empty: the host's default). */
    setModel(model) { liveModel = model || ''; },
    /** Names cards drawn before the server list came (the history precedes it). */
    resolveNames() { for (const entry of cards.entries.values()) if (entry.tool && !entry.server) nameCard(entry, entry.tool); },
    scrollDown: () => { stick = true; scrollDown(); },
    isEmpty: () => root.childElementCount === 0,
  };
}
