// The message box: Enter sends, Shift+Enter breaks the line; "/" at the start opens the prompt
// menu (server/name); a chosen prompt's arguments are asked in a small form above the box and go
// out with the next message. Attached resources show as chips. A message sent while an answer is
// still running (or while the connection is down) waits in a queue, shown above the box, and goes
// out when the host can take it.

import { el, freshId } from './host-dom.js';
import { schemaFields } from './host-forms.js';

export function createComposer({ form, input, sendButton, stopButton, menu, promptArea, attachmentArea, queueArea,
  prompts, canSend, send, onStop, onDetach, onEditLast = () => false, files = null }) {
  const queue = [];
  let chosen = null;           // { server, prompt, fields }
  let matches = [];
  let active = -1;
  let attachments = [];

  // ------------------------------------------------------------------------------- the prompt menu

  function commandToken() {
    const value = input.value;
    if (!value.startsWith('/')) return null;
    const end = value.search(/\s/);
    const token = end < 0 ? value : value.slice(0, end);
    if (input.selectionStart > token.length) return null;
    return token.slice(1);
  }

  function closeMenu() {
    menu.hidden = true;
    matches = [];
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  function highlightOption(index) {
    active = index;
    const options = menu.querySelectorAll('[role="option"]');
    options.forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    if (options[index]) {
      input.setAttribute('aria-activedescendant', options[index].id);
      options[index].scrollIntoView({ block: 'nearest' });
    }
  }

  function openMenu() {
    const token = commandToken();
    if (token === null || chosen) { closeMenu(); return; }
    const query = token.toLowerCase();
    const all = prompts();
    matches = all
      .map((entry) => ({ ...entry, command: `${entry.server}/${entry.prompt.name}` }))
      .filter((entry) => entry.command.toLowerCase().includes(query) || entry.prompt.name.toLowerCase().includes(query))
      .sort((a, b) => Number(!a.command.toLowerCase().startsWith(query) && !a.prompt.name.toLowerCase().startsWith(query)) -
        Number(!b.command.toLowerCase().startsWith(query) && !b.prompt.name.toLowerCase().startsWith(query)));
    menu.replaceChildren(...(matches.length
      ? matches.map((entry, i) => el('li', {
        role: 'option', id: `prompt-option-${i}`, class: 'prompt-option', 'aria-selected': 'false', dataset: { prompt: entry.command },
        onmousedown: (event) => event.preventDefault(),
        onclick: () => choose(entry.server, entry.prompt),
      }, el('code', { text: `/${entry.command}` }), entry.prompt.description ? el('span', { class: 'muted', text: entry.prompt.description }) : null))
      : [el('li', { class: 'prompt-empty muted', role: 'presentation', text: all.length ? 'No prompt matches.' : 'The servers offer no prompts.' })]));
    menu.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    highlightOption(matches.length ? 0 : -1);
  }

  // ---------------------------------------------------------------------------- the chosen prompt

  /** Takes a prompt for the next message; the text after "/server/name" stays in the box. */
  function choose(server, prompt) {
    const value = input.value;
    const rest = value.startsWith('/') ? value.replace(/^\/\S*\s?/, '') : value;
    closeMenu();
    const args = Array.isArray(prompt.arguments) ? prompt.arguments : [];
    const schema = {
      type: 'object',
      properties: Object.fromEntries(args.map((arg) => [arg.name, { type: 'string', title: arg.title || arg.name, description: arg.description }])),
      required: args.filter((arg) => arg.required).map((arg) => arg.name),
    };
    const fields = schemaFields(schema, { idPrefix: freshId('prompt') });
    chosen = { server, prompt, fields };
    input.value = rest;
    promptArea.replaceChildren(
      el('div', { class: 'prompt-head' },
        el('span', { class: 'badge badge-prompt', text: 'prompt' }),
        el('code', { text: `/${server}/${prompt.name}` }),
        prompt.description ? el('span', { class: 'muted prompt-description', text: prompt.description }) : null,
        el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Remove the prompt', text: '×', onclick: () => { dropPrompt(); input.focus(); } })),
      fields.empty ? null : fields.node);
    promptArea.hidden = false;
    promptArea.dataset.prompt = `${server}/${prompt.name}`;
    if (fields.empty) input.focus();
    else fields.focus();
    autosize();
  }

  function dropPrompt() {
    chosen = null;
    promptArea.hidden = true;
    promptArea.replaceChildren();
    delete promptArea.dataset.prompt;
  }

  // ------------------------------------------------------------------------------------- sending

  function renderQueue() {
    queueArea.replaceChildren(...queue.map((payload, i) => el('div', { class: 'queued', testid: 'queued-message' },
      el('span', { class: 'badge', text: 'queued' }),
      el('span', { class: 'queued-text', text: payload.prompt ? `/${payload.prompt.server}/${payload.prompt.name} ${payload.text}` : payload.text }),
      el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Remove from the queue', text: '×', onclick: () => { queue.splice(i, 1); renderQueue(); } }))));
    queueArea.hidden = queue.length === 0;
  }

  function submit() {
    let text = input.value;
    let prompt = null;
    if (chosen) {
      const answer = chosen.fields.collect();
      if (!answer.ok) return;
      const args = Object.fromEntries(Object.entries(answer.value).filter(([, value]) => value !== ''));
      prompt = { server: chosen.server, name: chosen.prompt.name, arguments: args };
    } else if (text.startsWith('/')) {
      // A command typed out in full: "/server/name rest of the text".
      const command = text.match(/^\/(\S+)/)[1];
      const entry = prompts().find(({ server, prompt: p }) => `${server}/${p.name}` === command);
      if (entry) {
        const needs = (entry.prompt.arguments || []).some((arg) => arg.required);
        if (needs) { choose(entry.server, entry.prompt); return; }
        prompt = { server: entry.server, name: entry.prompt.name, arguments: {} };
        text = text.replace(/^\/\S+\s?/, '');
      }
    }
    if (!text.trim() && !prompt && !files?.count()) return;
    const payload = { text: text.trim() };
    if (files?.count()) {
      const { taken, shown } = files.take();
      payload.files = taken;
      Object.defineProperty(payload, 'shownFiles', { value: shown, enumerable: false });  // the bubble's, not sent
    }
    if (attachments.length) payload.attachments = attachments.map(({ server, uri }) => ({ server, uri }));
    if (prompt) payload.prompt = prompt;
    input.value = '';
    dropPrompt();
    closeMenu();
    autosize();
    if (canSend() && !queue.length) send(payload);
    else { queue.push(payload); renderQueue(); }
    input.focus();
  }

  function autosize() {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight + 2, Math.round(window.innerHeight * 0.4))}px`;
  }

  // ------------------------------------------------------------------------------------- events

  input.addEventListener('input', () => { autosize(); openMenu(); });
  input.addEventListener('click', openMenu);
  input.addEventListener('blur', () => setTimeout(() => { if (document.activeElement !== input) closeMenu(); }, 100));
  input.addEventListener('keydown', (event) => {
    if (!menu.hidden && matches.length) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        highlightOption((active + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        const entry = matches[Math.max(active, 0)];
        choose(entry.server, entry.prompt);
        return;
      }
    }
    if (event.key === 'Escape' && !menu.hidden) { event.preventDefault(); closeMenu(); return; }
    // Up in an empty box edits the last message sent, as in Slack and ChatGPT.
    if (event.key === 'ArrowUp' && !input.value && !chosen && !event.shiftKey && onEditLast()) { event.preventDefault(); return; }
    if (event.key === 'Backspace' && chosen && input.selectionStart === 0 && input.selectionEnd === 0) { dropPrompt(); return; }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  form.addEventListener('submit', (event) => { event.preventDefault(); submit(); });
  // Files pasted into the box or dropped on it are attached, not typed.
  input.addEventListener('paste', (event) => {
    const pasted = [...(event.clipboardData?.files || [])];
    if (!files || !pasted.length) return;
    event.preventDefault();
    files.add(pasted);
  });
  form.addEventListener('dragover', (event) => { if (files && event.dataTransfer?.types.includes('Files')) event.preventDefault(); });
  form.addEventListener('drop', (event) => {
    const dropped = [...(event.dataTransfer?.files || [])];
    if (!files || !dropped.length) return;
    event.preventDefault();
    files.add(dropped);
  });
  promptArea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && event.target.matches('input, select')) { event.preventDefault(); submit(); }
    if (event.key === 'Escape') { dropPrompt(); input.focus(); }
  });
  stopButton.addEventListener('click', () => onStop());

  return {
    choose(server, prompt) { choose(server, prompt); },
    focus: () => input.focus(),
    /** Sends the first queued message if the host can take it now. */
    flush() {
      if (queue.length && canSend()) {
        send(queue.shift());
        renderQueue();
      }
    },
    setRunning(running) {
      stopButton.hidden = !running;
      sendButton.title = running ? 'Queued until the current answer finishes' : '';
      sendButton.textContent = running ? 'Queue' : 'Send';
      form.classList.toggle('running', running);
    },
    setAttachments(list) {
      attachments = list;
      attachmentArea.replaceChildren(...list.map((item) => el('span', { class: 'chip', testid: 'attachment-chip', dataset: { uri: item.uri } },
        el('span', { text: `${item.server}: ${item.name || item.uri}`, title: item.uri }),
        el('button', { type: 'button', class: 'icon-button', 'aria-label': `Detach ${item.name || item.uri}`, text: '×', onclick: () => onDetach(item.server, item.uri) }))));
      attachmentArea.hidden = list.length === 0;
    },
    clearQueue() { queue.length = 0; renderQueue(); },
    /** Puts text back into an empty box (a message the host refused). */
    restore(text) {
      if (input.value || !text) return;
      input.value = text;
      autosize();
    },
    autosize,
  };
}
