// The standing approvals, at the top of the server panel: every tool that runs without asking in
// this chat ("this chat") or in every chat ("always", kept by the host across restarts), each with
// a Revoke button. The host keeps them (`list_approvals`, `revoke_approval`); the list is asked
// for when a chat opens and after each decision.

import { el } from './host-dom.js';

export function createApprovalList({ root, request, toast }) {
  let asked = 0;

  function show(items) {
    const rows = items.map((item) => el('li', { class: 'approval-row', testid: 'standing-approval', dataset: { tool: item.tool, scope: item.scope } },
      el('span', { class: 'approval-row-name' }, el('span', { class: 'muted', text: `${item.server} › ` }), el('code', { text: item.name })),
      el('span', { class: `badge scope-${item.scope}`, text: item.scope === 'always' ? 'always' : 'this chat',
        title: item.scope === 'always' ? 'In every chat, kept across restarts' : 'In this chat only' }),
      el('button', { type: 'button', class: 'small-button', testid: 'revoke-approval', text: 'Revoke',
        'aria-label': `Revoke: ${item.server} › ${item.name} (${item.scope === 'always' ? 'always' : 'this chat'})`,
        onclick: () => revoke(item) })));
    root.replaceChildren(
      el('details', { class: 'approvals-box', open: true },
        el('summary', {}, 'Allowed without asking ', el('span', { class: 'count', text: String(items.length) })),
        el('ul', { class: 'approval-list' }, rows)));
    root.hidden = items.length === 0;
  }

  function answered(id) {
    return {
      onAnswer(payload) { if (id === asked) show(Array.isArray(payload.items) ? payload.items : []); },
      onError(message) { if (id === asked) toast(message); },
    };
  }

  function revoke(item) {
    request('revoke_approval', { tool: item.tool, scope: item.scope }, answered(++asked));
  }

  return {
    refresh: () => request('list_approvals', {}, answered(++asked)),
  };
}
