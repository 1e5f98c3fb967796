// The list of conversations, in a drawer at the left: the host keeps it (`list_conversations`,
// newest first, 50 at a time, searched on the host), and every tab hears of a rename or a delete
// (`conversation`). Opening one moves this tab's WebSocket to it (`open_conversation`); New chat
// opens a fresh one and keeps the others. Each row renames, exports (the host's
// /conversations/<id>/export, Markdown or JSON) and deletes, the delete asked twice.

import { el } from './host-dom.js';

/** "14:05" today, "26 Nov" this year, "26 Nov 2025" before. */
function when(ms) {
  if (typeof ms !== 'number' || !ms) return '';
  const date = new Date(ms);
  const now = new Date();
  if (date.toDateString() === now.toDateString()) return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const options = { day: 'numeric', month: 'short' };
  if (date.getFullYear() !== now.getFullYear()) options.year = 'numeric';
  return date.toLocaleDateString([], options);
}

/**
 * `root`: the drawer; `request`/`send` as in host.js; `currentId()` the conversation shown;
 * `onOpen(sessionId)` opens one ('' for a new chat).
 */
export function createConversationList({ root, request, currentId, onOpen, onRename, onDelete }) {
  const search = root.querySelector('[data-testid="conversation-search"]');
  const list = root.querySelector('[data-testid="conversation-list"]');
  const more = root.querySelector('[data-testid="conversation-more"]');
  const status = root.querySelector('[data-testid="conversation-status"]');
  let next = '';
  let asked = 0;                // the latest request: an older answer (typed past) is dropped
  let searchTimer = null;
  const rows = new Map();       // sessionId → <li>
  const items = new Map();      // sessionId → { sessionId, title, updatedAt }

  function row(item) {
    const open = el('button', { type: 'button', class: 'conversation-open', testid: 'conversation-open',
      title: item.title || 'Untitled chat', onclick: () => onOpen(item.sessionId) },
    el('span', { class: 'conversation-title', text: item.title || 'Untitled chat' }),
    el('span', { class: 'conversation-time muted', text: when(item.updatedAt) }));
    const menu = el('details', { class: 'conversation-menu' },
      el('summary', { 'aria-label': `Actions for ${item.title || 'this chat'}`, title: 'Rename, export, delete', text: '⋯' }),
      el('div', { class: 'conversation-actions', role: 'menu' },
        el('button', { type: 'button', role: 'menuitem', testid: 'conversation-rename', text: 'Rename', onclick: () => rename(node, item) }),
        el('a', { role: 'menuitem', testid: 'conversation-export-md', href: exportUrl(item.sessionId, 'md'), download: '', text: 'Export as Markdown' }),
        el('a', { role: 'menuitem', testid: 'conversation-export-json', href: exportUrl(item.sessionId, 'json'), download: '', text: 'Export as JSON' }),
        el('button', { type: 'button', role: 'menuitem', class: 'danger-text', testid: 'conversation-delete', text: 'Delete…', onclick: () => confirmDelete(node, item) })));
    // A pick closes the menu, as menus do.
    menu.querySelector('.conversation-actions').addEventListener('click', () => { menu.open = false; });
    const node = el('li', { class: 'conversation', testid: 'conversation', dataset: { sessionId: item.sessionId } }, open, menu);
    node.classList.toggle('current', item.sessionId === currentId());
    if (item.sessionId === currentId()) open.setAttribute('aria-current', 'page');
    return node;
  }

  /** A row shown anew; `node` is the one it replaces, if still there. */
  function replace(node, item) {
    const fresh = row(item);
    rows.set(item.sessionId, fresh);  // first: a blur that the replacing fires finds it done
    if (node.isConnected) node.replaceWith(fresh);
  }

  function exportUrl(id, format) {
    return `/conversations/${encodeURIComponent(id)}/export?format=${format}`;
  }

  function rename(node, item) {
    const input = el('input', { class: 'conversation-rename', testid: 'conversation-title-input', value: item.title,
      'aria-label': 'New name for this chat', maxlength: 200 });
    // Unless the list changed meanwhile (the host's answer to the rename, another tab's).
    const restore = () => { if (rows.get(item.sessionId) === node) replace(node, item); };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        const title = input.value.trim();
        if (title && title !== item.title) onRename(item.sessionId, title);
        else restore();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        restore();
      }
    });
    input.addEventListener('blur', () => { if (input.isConnected) restore(); });
    node.replaceChildren(input);
    input.focus();
    input.select();
  }

  function confirmDelete(node, item) {
    const restore = () => { if (rows.get(item.sessionId) === node) replace(node, item); };
    node.replaceChildren(el('div', { class: 'conversation-confirm', role: 'alertdialog', 'aria-label': 'Delete this chat?' },
      el('span', { text: 'Delete this chat?' }),
      el('button', { type: 'button', class: 'danger', testid: 'conversation-delete-confirm', text: 'Delete',
        onclick: () => onDelete(item.sessionId) }),
      el('button', { type: 'button', text: 'Cancel', onclick: restore })));
    node.querySelector('.danger').focus();
  }

  /**
   * Shows a page of the list. A row whose chat did not change is kept as it is (an open menu, a
   * rename being typed): the list is asked again after every turn.
   */
  function show(found, append) {
    const fresh = found.filter((item, i) => item?.sessionId && found.findIndex((other) => other?.sessionId === item.sessionId) === i);
    if (!append) {
      const same = (item) => items.get(item.sessionId)?.title === item.title && items.get(item.sessionId)?.updatedAt === item.updatedAt;
      const order = [...rows.keys()];
      const unchanged = order.length === fresh.length && fresh.every((item, i) => order[i] === item.sessionId);
      if (!unchanged) {
        const keep = new Map(fresh.filter(same).map((item) => [item.sessionId, rows.get(item.sessionId)]));
        rows.clear();
        items.clear();
        list.replaceChildren(...fresh.map((item) => {
          const node = keep.get(item.sessionId) || row(item);
          rows.set(item.sessionId, node);
          items.set(item.sessionId, item);
          return node;
        }));
      } else {
        for (const item of fresh) {
          if (!same(item)) {
            items.set(item.sessionId, item);
            replace(rows.get(item.sessionId), item);
          }
        }
      }
    } else {
      for (const item of fresh) {
        if (rows.has(item.sessionId)) continue;
        const node = row(item);
        rows.set(item.sessionId, node);
        items.set(item.sessionId, item);
        list.append(node);
      }
    }
    more.hidden = !next;
    const query = search.value.trim();
    status.textContent = rows.size ? '' : query ? `No chat mentions “${query}”.` : 'No chats yet.';
  }

  function load(append = false) {
    const id = ++asked;
    const payload = { search: search.value.trim() };
    if (append && next) payload.after = next;
    status.textContent = append ? status.textContent : 'Loading…';
    request('list_conversations', payload, {
      onAnswer(answer) {
        if (id !== asked) return;
        next = typeof answer.next === 'string' ? answer.next : '';
        show(Array.isArray(answer.items) ? answer.items : [], append);
      },
      onError(message) {
        if (id === asked) status.textContent = message;
      },
    });
  }

  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => load(), 200);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      list.querySelector('.conversation-open')?.click();
    }
  });
  more.addEventListener('click', () => load(true));

  return {
    /** Asks the host for the first page again (the drawer opened, or the chat moved on). */
    refresh: () => load(),
    /** The host says a conversation was renamed or deleted. */
    changed(payload) {
      const node = rows.get(payload.sessionId);
      if (!node) return;
      if (payload.deleted) {
        rows.delete(payload.sessionId);
        items.delete(payload.sessionId);
        node.remove();
        if (!rows.size) show([], true);
      } else if (typeof payload.title === 'string') {
        const item = { ...items.get(payload.sessionId), title: payload.title };
        items.set(item.sessionId, item);
        replace(node, item);
      }
    },
    /** The conversation shown changed: its row is marked. */
    markCurrent() {
      for (const [id, node] of rows) {
        node.classList.toggle('current', id === currentId());
        const open = node.querySelector('.conversation-open');
        if (id === currentId()) open?.setAttribute('aria-current', 'page');
        else open?.removeAttribute('aria-current');
      }
    },
    focusSearch() {
      search.focus();
      search.select();
    },
  };
}
