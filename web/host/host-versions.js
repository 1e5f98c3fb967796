// Edits and answers asked again, on the page: the user's message edited in place (Enter sends,
// Esc gives up), an answer regenerated, and "‹ 2 / 3 ›" on a message whose stretch has earlier
// versions, which the host keeps and brings back (`edit_message`, `regenerate`, `show_version`).

import { el } from './host-dom.js';

/** "‹ 2 / 3 ›" for a message with versions (`versions` > 1), or null. */
export function versionSwitch(message, send) {
  const count = Number(message?.versions) || 0;
  if (count < 2 || !message.id) return null;
  const at = Math.min(Number(message.version) || 0, count - 1);
  const go = (version) => send('show_version', { messageId: message.id, version });
  return el('span', { class: 'versions', testid: 'versions', role: 'group', 'aria-label': 'Versions' },
    el('button', { type: 'button', class: 'icon-button', testid: 'version-previous', text: '‹', disabled: at === 0,
      'aria-label': 'The earlier version', onclick: () => go(at - 1) }),
    el('span', { class: 'version-count', testid: 'version-count', text: `${at + 1} / ${count}` }),
    el('button', { type: 'button', class: 'icon-button', testid: 'version-next', text: '›', disabled: at === count - 1,
      'aria-label': 'The later version', onclick: () => go(at + 1) }));
}

/**
 * Turns the user's bubble `node` into an editor of `text`; `onSave(text)` sends it, and the
 * bubble comes back as it was when the user gives up.
 */
export function editInPlace(node, text, onSave) {
  const bubble = node.querySelector('.bubble');
  if (!bubble || node.querySelector('.edit-box')) return;
  const box = el('textarea', { class: 'edit-box', testid: 'edit-box', rows: Math.min(8, text.split('\n').length + 1),
    'aria-label': 'Edit your message', value: text });
  const restore = () => { editor.replaceWith(bubble); };
  const save = () => {
    const value = box.value.trim();
    if (!value) return;
    onSave(value);
    restore();
  };
  const editor = el('div', { class: 'edit-message' }, box,
    el('div', { class: 'buttons' },
      el('button', { type: 'button', class: 'primary', testid: 'edit-send', text: 'Send', onclick: save }),
      el('button', { type: 'button', testid: 'edit-cancel', text: 'Cancel', onclick: restore })),
    el('p', { class: 'muted small', text: 'What followed this message is kept as an earlier version.' }));
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); save(); }
    if (event.key === 'Escape') { event.preventDefault(); event.stopPropagation(); restore(); }
  });
  bubble.replaceWith(editor);
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}
