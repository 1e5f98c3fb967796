// mcpkit host: the chat page. One WebSocket at /ws carries everything (docs/host-websocket.md):
// this module connects and reconnects, dispatches the host's frames to the transcript, the server
// panel and the header, and sends the user's messages and answers.

import { createApprovalList } from './host-approvals.js';
import { createApps } from './host-apps.js';
import { copyText, el, formatCount, freshId } from './host-dom.js';
import { createComposer } from './host-composer.js';
import { createConversationList } from './host-conversations.js';
import { createFileAttachments } from './host-files.js';
import { renderMarkdown } from './host-markdown.js';
import { createModelPicker } from './host-models.js';
import { createServerPanel } from './host-servers.js';
import { createTranscript } from './host-transcript.js';

// Served beyond loopback, the page was opened with ?token=; the host answered with an HttpOnly
// cookie that its scripts and WebSocket carry from now on, so the token leaves the address bar
// (and the history, and anything that could read the address).
if (new URL(location.href).searchParams.has('token')) {
  const clean = new URL(location.href);
  clean.searchParams.delete('token');
  history.replaceState(history.state, '', clean.pathname + clean.search + clean.hash);
}

const SESSION_KEY = 'mcpkit.host.sessionId';
const CHATS_KEY = 'mcpkit.host.chatsOpen';
const $ = (id) => document.getElementById(id);
const view = {
  banner: $('connection-banner'), bannerText: $('connection-text'), retry: $('retry'),
  llm: $('llm'), modelPicker: $('model-picker'), usage: $('usage'), newChat: $('new-chat'), toggleServers: $('toggle-servers'), toggleChats: $('toggle-chats'),
  llmNotice: $('llm-notice'), toasts: $('toasts'), announcer: $('announcer'), backdrop: $('backdrop'),
};

// ----------------------------------------------------------------------------------- feedback

function toast(message, kind = 'error') {
  const close = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss', text: '×' });
  const node = el('div', { class: `toast toast-${kind}`, testid: 'toast', role: kind === 'error' ? 'alert' : 'status' },
    el('span', { class: 'toast-text', text: message }), close);
  close.addEventListener('click', () => node.remove());
  view.toasts.append(node);
  while (view.toasts.childElementCount > 4) view.toasts.firstElementChild.remove();
  if (kind !== 'error') setTimeout(() => node.remove(), 6000);
}

function announce(text) {
  view.announcer.textContent = '';
  setTimeout(() => { view.announcer.textContent = text; }, 50);
}

// ----------------------------------------------------------------------------------- the socket

let socket = null;
let connected = false;
let everConnected = false;
let backoff = 500;
let retryTimer = null;
let sessionId = localStorage.getItem(SESSION_KEY) || '';
let runningTurn = null;               // the turnId of the answer under way, or null
const endedTurns = new Set();
const pending = new Map();            // requestId → { onAnswer, onError }
let lastSent = null;                  // the bubble of the message waiting for its turn to start
let ownTurn = null;                   // { turnId, bubble } of the turn this tab's message started
let approvalsStale = false;           // a standing approval was given: the list is asked for again

function send(type, payload = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast('Not connected to the host; try again when the connection is back.');
    return false;
  }
  socket.send(JSON.stringify({ type, payload }));
  return true;
}

/** Sends a request with a fresh requestId; its answer (or error) goes to the handlers. */
function request(type, payload, handlers) {
  const requestId = freshId('req');
  pending.set(requestId, handlers);
  if (!send(type, { requestId, ...payload })) {
    pending.delete(requestId);
    handlers.onError('Not connected to the host.');
  }
  return requestId;
}

function answer(payload) {
  const handlers = pending.get(payload?.requestId);
  if (!handlers) return;
  pending.delete(payload.requestId);
  handlers.onAnswer(payload);
}

function showBanner(text) {
  view.bannerText.textContent = text;
  view.banner.hidden = false;
  document.body.classList.add('offline');
}

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (sessionId) url.searchParams.set('sessionId', sessionId);
  showBanner(everConnected ? 'Reconnecting…' : 'Connecting…');
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (error) {
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.addEventListener('message', (event) => {
    if (ws !== socket) return;
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    const handler = frame && HANDLERS[frame.type];
    if (handler) handler(frame.payload || {});
  });
  ws.addEventListener('close', () => {
    if (ws !== socket) return;
    socket = null;
    connected = false;
    setRunning(null, { flush: false });
    for (const [id, handlers] of pending) {
      pending.delete(id);
      handlers.onError('The connection closed before the answer came.');
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  const delay = backoff;
  backoff = Math.min(backoff * 2, 10000);
  showBanner(everConnected ? `Reconnecting… (next try in ${(delay / 1000).toFixed(1)} s)` : 'Connecting…');
  retryTimer = setTimeout(connect, delay);
}

view.retry.addEventListener('click', () => { if (!connected) connect(); });
window.addEventListener('online', () => { if (!connected && retryTimer) connect(); });

// ----------------------------------------------------------------------------------- the page

/** Sends a user message: shown at once, then nothing else goes out until its turn starts. */
function sendUserMessage(payload) {
  if (!send('message', payload)) { composer.restore(payload.text); return; }
  lastSent = transcript.addUser(payload);
  transcript.scrollDown();
  if (payload.attachments) panel.clearAttachments();
  // The host answers with `turn` started; until then nothing else may go out.
  setRunning('pending');
}

const apps = createApps({
  request,
  // A view's ui/message is the user's message, but it is not queued: the view is told to wait.
  sendMessage(text) {
    if (!connected) return 'not connected to the host';
    if (runningTurn) return 'a turn is running';
    sendUserMessage({ text });
    return null;
  },
});

const transcript = createTranscript({
  root: $('transcript'), jump: $('jump'), empty: $('empty'), announce,
  findTool: (name) => panel.findTool(name),
  viewResource: (server, uri, container) => panel.viewResource(server, uri, container),
  send,
  focusComposer: () => composer.focus(),
  apps,
  // The host records a standing approval as the call goes on, not when the answer arrives: the
  // list is asked for once the call ends (its `status` complete).
  onApproved: (decision) => { if (decision === 'conversation' || decision === 'always') approvalsStale = true; },
});

const panel = createServerPanel({
  root: $('servers'), list: $('server-list'), filter: $('server-filter'), count: $('server-count'), request,
  onPrompt: ({ server, prompt }) => { closeDrawer(); composer.choose(server, prompt); },
  onAttachments: (list) => composer.setAttachments(list),
  apps,
});

const composer = createComposer({
  form: $('composer'), input: $('message'), sendButton: $('send'), stopButton: $('stop'), menu: $('prompt-menu'),
  promptArea: $('prompt-args'), attachmentArea: $('attachments'), queueArea: $('queue'),
  prompts: () => panel.prompts(),
  canSend: () => connected && !runningTurn,
  send: sendUserMessage,
  onStop: () => send('stop', {}),
  onDetach: (server, uri) => panel.detach(server, uri),
  onEditLast: () => !runningTurn && transcript.editLast(),
  files: createFileAttachments({ area: $('files'), picker: $('file-picker'), onError: (text) => toast(text) }),
});

const picker = createModelPicker({
  select: view.modelPicker, request, send,
  onModel: (model, isDefault) => transcript.setModel(isDefault ? '' : model),
});

function setRunning(turnId, { flush = true } = {}) {
  runningTurn = turnId;
  composer.setRunning(Boolean(turnId));
  document.body.classList.toggle('turn-running', Boolean(turnId));
  if (!turnId && flush) composer.flush();
}

/** A frame of a turn this page did not see start (it reconnected in the middle): follow it. */
function followTurn(turnId) {
  if (turnId && !runningTurn && !endedTurns.has(turnId)) setRunning(turnId);
}

let llmNoticeFolded = false;
function showLlm(llm, help) {
  if (llm && (llm.provider || llm.model)) {
    // The model itself is the picker's: the badge names who serves it.
    picker.defaults(llm.model);
    view.llm.textContent = llm.provider || llm.model;
    view.llm.title = [llm.provider, llm.model && `default model ${llm.model}`].filter(Boolean).join(' · ');
    view.llm.hidden = false;
    view.llmNotice.hidden = true;
    return;
  }
  view.llm.hidden = true;
  picker.hide();
  let text = help;
  if (Array.isArray(help)) text = help.join('\n');
  else if (help && typeof help === 'object') text = JSON.stringify(help, null, 2);
  if (!text) {
    text = 'Set `GEMINI_API_KEY` (Google Gemini), `ANTHROPIC_API_KEY` (Claude) or `OPENAI_API_KEY` (OpenAI or a compatible endpoint) in the ' +
      "environment `mcpkit host` runs in, then restart it.";
  }
  // Open until the user folds it to its one-line summary (it stays folded across updates).
  const details = el('details', { open: !llmNoticeFolded },
    el('summary', {}, el('strong', { text: 'No language model is configured' }),
      el('span', { class: 'muted', text: ' — chat is off; tools still work by hand' })),
    el('div', { class: 'markdown', html: renderMarkdown(text) }),
    el('p', { class: 'muted' }, 'The servers still work: open a tool in the ',
      el('button', { type: 'button', class: 'link-button', text: 'server panel', onclick: () => openDrawer(true) }),
      ' to call it by hand.'));
  details.addEventListener('toggle', () => { llmNoticeFolded = !details.open; });
  view.llmNotice.replaceChildren(details);
  view.llmNotice.hidden = false;
}

// ----------------------------------------------------------------------------------- frames

const HANDLERS = {
  connection(payload) {
    if (payload.sessionId) {
      sessionId = payload.sessionId;
      try { localStorage.setItem(SESSION_KEY, sessionId); } catch { /* private mode */ }
    }
    if (payload.state === 'error') {
      toast(payload.message || 'The host refused the connection.');
      return;
    }
    picker.reset();
    if (payload.state === 'opened') {
      // Another conversation on the same connection: what follows is its history.
      setRunning(null, { flush: false });
      composer.clearQueue();
      transcript.reset();
      chats.markCurrent();
      return;
    }
    const lost = payload.state === 'connected' && everConnected && !transcript.isEmpty();
    connected = true;
    everConnected = true;
    backoff = 500;
    view.banner.hidden = true;
    document.body.classList.remove('offline');
    // Queued messages wait for the history, which replaces the transcript.
    setRunning(null, { flush: false });
    if (lost) toast('The host no longer knew this chat, so a new one started.', 'info');
  },
  history(payload) {
    // Always the session's whole history: it replaces what is on screen, so nothing shows twice.
    transcript.showHistory(payload.messages);
    composer.flush();
    if (chatsShown()) chats.refresh();
    approvals.refresh();  // this chat's, and the host's
  },
  conversations: answer,
  approvals: answer,
  conversation(payload) {
    chats.changed(payload);
    if (payload.deleted && payload.sessionId === sessionId) {
      toast('This chat was deleted; a new one started.', 'info');
      openConversation('');
    }
  },
  servers(payload) {
    panel.update(payload.servers);
    transcript.resolveNames();
    showLlm(payload.llm, payload.llmHelp);
  },
  turn(payload) {
    if (payload.state === 'started') {
      endedTurns.delete(payload.turnId);
      // A turn that starts while this tab's message waits for one is that message's turn.
      ownTurn = runningTurn === 'pending' && lastSent ? { turnId: payload.turnId, bubble: lastSent } : null;
      lastSent = null;
      setRunning(payload.turnId || 'running');
      return;
    }
    if (payload.turnId) endedTurns.add(payload.turnId);
    transcript.turnEnded(payload.state, payload);
    setRunning(null);
    if (chatsShown()) chats.refresh();  // this chat moved to the top (or joined the list)
  },
  user_message(payload) {
    followTurn(payload.turnId);
    // This tab shows its own message already (unless a history replaced it): the bubble learns its id.
    if (ownTurn?.turnId === payload.turnId && ownTurn.bubble.isConnected) {
      ownTurn.bubble.dataset.messageId = payload.message?.id || '';
      transcript.showContext(ownTurn.bubble, payload.message?.context);
      return;
    }
    transcript.userMessage(payload.message);
  },
  text(payload) {
    followTurn(payload.turnId);
    transcript.appendText(payload);
  },
  reasoning(payload) {
    followTurn(payload.turnId);
    transcript.appendReasoning(payload);
  },
  retrying(payload) {
    followTurn(payload.turnId);
    transcript.retrying(payload);
  },
  model: (payload) => picker.show(payload),
  status(payload) {
    if (payload.state !== 'complete') followTurn(payload.turnId);
    transcript.status(payload);
    if (payload.state === 'complete' && approvalsStale) {
      approvalsStale = false;
      approvals.refresh();
    }
  },
  progress: (payload) => transcript.progress(payload),
  task: (payload) => transcript.task(payload),
  approval_request: (payload) => transcript.approvalRequest(payload),
  elicitation_request: (payload) => transcript.elicitation(payload),
  sampling_request: (payload) => transcript.sampling(payload),
  question_closed: (payload) => transcript.questionClosed(payload),
  auth_required: (payload) => transcript.auth(payload),
  usage(payload) {
    view.usage.textContent = `${formatCount(payload.totalTokens)} tokens`;
    view.usage.title = `Prompt ${formatCount(payload.promptTokens)} · completion ${formatCount(payload.completionTokens)} · total ${formatCount(payload.totalTokens)}`;
    view.usage.dataset.total = String(payload.totalTokens ?? 0);
    view.usage.classList.remove('zero');
  },
  tool_result: answer,
  prompt: answer,
  resource: answer,
  app_response: answer,
  models: answer,
  error(payload) {
    const handlers = payload.requestId && pending.get(payload.requestId);
    if (handlers) {
      pending.delete(payload.requestId);
      handlers.onError(payload.message || 'The request failed.');
    } else if (runningTurn === 'pending') {
      // The host refused the message just sent (no model, or busy with another tab's turn):
      // mark it, and give its text back to the box.
      setRunning(null, { flush: false });
      if (lastSent) {
        lastSent.classList.add('not-sent');
        lastSent.querySelector('.bubble')?.append(el('span', { class: 'not-sent-note', text: 'Not sent' }));
        composer.restore(lastSent.querySelector('.bubble-text')?.textContent || '');
        lastSent = null;
      }
    }
    toast(payload.message || 'The host reported an error.');
  },
};

// ----------------------------------------------------------------------------------- chrome

const approvals = createApprovalList({ root: $('approvals'), request, toast });

// ----------------------------------------------------------------------------------- chats

/** Moves this tab to the conversation `id` ('' for a new one); the one left keeps its answer going. */
function openConversation(id) {
  if (id && id === sessionId) {
    closeChats();
    return;
  }
  if (!send('open_conversation', id ? { sessionId: id } : {})) return;
  // The transcript changes when the host says the page shows the other chat (`connection`
  // opened, then its history), not before: it may refuse (a chat deleted meanwhile).
  closeChats();
  composer.focus();
}

const chats = createConversationList({
  root: $('conversations'),
  request,
  currentId: () => sessionId,
  onOpen: openConversation,
  onRename: (id, title) => send('rename_conversation', { sessionId: id, title }),
  onDelete: (id) => send('delete_conversation', { sessionId: id }),
});

const narrow = window.matchMedia('(max-width: 60rem)');
const chatsShown = () => document.body.classList.contains('chats-open');
function showChats(open, { focus = false } = {}) {
  document.body.classList.toggle('chats-open', open);
  view.toggleChats.setAttribute('aria-expanded', String(open));
  // A wide screen keeps the column open across reloads; a phone's drawer is for the moment.
  if (!narrow.matches) try { localStorage.setItem(CHATS_KEY, open ? '1' : ''); } catch { /* private mode */ }
  if (open) {
    if (narrow.matches) document.body.classList.remove('servers-open');
    if (connected) chats.refresh();  // else the history frame asks, once connected
    if (focus || narrow.matches) chats.focusSearch();
  }
}
function closeChats() {
  if (narrow.matches && chatsShown()) showChats(false);
}
view.toggleChats.addEventListener('click', () => showChats(!chatsShown()));
$('close-chats').addEventListener('click', () => {
  showChats(false);
  view.toggleChats.focus();
});
if (!narrow.matches && localStorage.getItem(CHATS_KEY)) showChats(true);

view.newChat.addEventListener('click', () => {
  // An empty chat is already new; otherwise this one stays in the list and a fresh one opens.
  if (transcript.isEmpty() && !runningTurn) {
    composer.focus();
    return;
  }
  openConversation('');
});

function openDrawer(open) {
  if (narrow.matches) document.body.classList.toggle('servers-open', open);
  else document.body.classList.toggle('servers-collapsed', !open);
  const shown = narrow.matches ? document.body.classList.contains('servers-open') : !document.body.classList.contains('servers-collapsed');
  view.toggleServers.setAttribute('aria-expanded', String(shown));
  if (open && narrow.matches) $('server-filter').focus();
}
function closeDrawer() {
  if (narrow.matches && document.body.classList.contains('servers-open')) {
    openDrawer(false);
    view.toggleServers.focus();
  }
}
view.toggleServers.addEventListener('click', () => openDrawer(view.toggleServers.getAttribute('aria-expanded') !== 'true'));
view.backdrop.addEventListener('click', () => {
  closeDrawer();
  closeChats();
});
$('close-servers').addEventListener('click', closeDrawer);
narrow.addEventListener('change', () => {
  document.body.classList.remove('servers-open');
  view.toggleServers.setAttribute('aria-expanded', String(!narrow.matches && !document.body.classList.contains('servers-collapsed')));
});
view.toggleServers.setAttribute('aria-expanded', String(!narrow.matches));
document.addEventListener('keydown', (event) => {
  // Ctrl+K (⌘K) searches the chats, as in other chat apps.
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
    event.preventDefault();
    showChats(true, { focus: true });
    return;
  }
  if (event.key !== 'Escape') return;
  if (narrow.matches && chatsShown()) {
    showChats(false);
    view.toggleChats.focus();
  } else if (document.body.classList.contains('servers-open')) closeDrawer();
  // Esc stops the answer being written, as in other chat apps, unless something nearer took it
  // (the prompt menu, a form, the drawer).
  else if (runningTurn && runningTurn !== 'pending' && !event.defaultPrevented) {
    event.preventDefault();
    send('stop', {});
  }
});

document.addEventListener('click', async (event) => {
  const button = event.target.closest('.copy-code');
  if (!button) return;
  await copyText(button.closest('.code-block')?.querySelector('code')?.textContent ?? '');
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = 'Copy'; }, 1500);
});

connect();
composer.focus();
