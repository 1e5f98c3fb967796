// Tool cards: one per call (by the model, or a view's the user was asked about), with its name as
// "tool on server", arguments, the approval slot, progress, its task's status when the server runs
// it as an MCP task, and its result or the reason it did not run.

import { el, formatDuration, toolParts } from './host-dom.js';
import { jsonBlock, textOf, toolResult } from './host-content.js';

/** Why a completed call did not run to its end (the host marks refused or cancelled calls), or null. */
function cancelReason(payload) {
  if (payload.cancelled !== true && payload.refused !== true) return null;
  return textOf(payload.data?.content).trim() || (payload.refused ? 'The call was refused.' : 'The call was cancelled.');
}

const TASK_TEXT = { working: 'working', input_required: 'waiting for an answer', completed: 'done', failed: 'failed', cancelled: 'cancelled' };

/**
 * `add(node)` puts a card in the transcript, `changed()` says it grew, `settleReasoning()` folds
 * the reasoning above it; `findTool`, `viewResource` and `apps` as the transcript has them.
 */
export function createCards({ add, changed, settleReasoning, findTool, viewResource, apps }) {
  const cards = new Map();      // callId → card

  function card(callId, toolName) {
    let entry = cards.get(callId);
    if (entry) {
      if (toolName && !entry.tool) nameCard(entry, toolName);
      return entry;
    }
    const refs = {
      icon: el('span', { class: 'tool-icon', 'aria-hidden': 'true' }),
      name: el('code', { class: 'tool-name' }),
      server: el('span', { class: 'tool-server' }),
      state: el('span', { class: 'tool-state' }),
      duration: el('span', { class: 'tool-duration' }),
      message: el('p', { class: 'tool-message', hidden: true }),
      progress: el('div', { class: 'tool-progress', hidden: true }),
      task: el('p', { class: 'tool-task muted small', testid: 'tool-task', hidden: true }),
      args: el('details', { class: 'tool-args', hidden: true }, el('summary', { text: 'Arguments' })),
      approval: el('div', { class: 'approval-slot' }),
      result: el('div', { class: 'tool-result-slot' }),
    };
    const node = el('article', { class: 'tool-card', testid: 'tool-card', dataset: { callId, state: 'processing' }, 'aria-label': 'Tool call' },
      el('header', { class: 'tool-head' }, refs.icon, refs.name, refs.server, el('span', { class: 'spacer' }), refs.state, refs.duration),
      refs.message, refs.task, refs.progress, refs.args, refs.approval, refs.result);
    entry = { callId, node, refs, tool: '', server: '' };
    cards.set(callId, entry);
    settleReasoning();
    if (toolName) nameCard(entry, toolName);
    setState(entry, 'processing');
    add(node);
    return entry;
  }

  function nameCard(entry, toolName, serverName) {
    const found = findTool(toolName);
    // A tool no server lists (gone, or a name the model made up) is read from its qualified name.
    const parts = toolParts(toolName);
    entry.tool = toolName;
    entry.server = serverName || found?.server || entry.server || parts.server;
    entry.refs.name.textContent = found?.tool.name || parts.tool;
    entry.refs.name.title = toolName;
    entry.refs.server.textContent = entry.server ? `on ${entry.server}` : '';
    entry.node.setAttribute('aria-label', `Tool call ${entry.server ? `${entry.server} › ` : ''}${found?.tool.name || parts.tool}`);
  }

  const STATE_TEXT = { processing: 'running', approval: 'waiting for you', complete: 'done' };
  /** `refused`: the call never ran (declined, or refused by the host): denied, not failed. */
  function setState(entry, state, isError, refused = false) {
    const failed = Boolean(isError) && !refused;
    entry.node.dataset.state = state;
    entry.node.dataset.error = String(failed);
    entry.node.dataset.refused = String(Boolean(refused));
    entry.node.classList.toggle('is-error', failed);
    entry.node.classList.toggle('is-refused', Boolean(refused));
    entry.refs.state.textContent = refused ? 'not run' : failed ? 'error' : STATE_TEXT[state] || state;
    entry.refs.icon.replaceChildren(state === 'complete' ? (refused ? '⊘' : failed ? '!' : '✓') : state === 'approval' ? '?' : el('span', { class: 'spinner' }));
  }

  function setArguments(entry, args, open) {
    if (args === undefined) return;
    entry.args = args;
    entry.refs.args.hidden = false;
    entry.refs.args.querySelector('pre')?.remove();
    entry.refs.args.append(jsonBlock(args, { label: 'Arguments' }));
    if (open) entry.refs.args.open = true;
  }

  function setResult(entry, data, isError, durationMs, app, refused = false) {
    setState(entry, 'complete', isError, refused);
    entry.refs.progress.hidden = true;
    if (entry.node.dataset.task) entry.refs.task.textContent = `Ran as a task on ${entry.server || 'its server'}`;
    entry.refs.duration.textContent = formatDuration(durationMs);
    if (entry.approval) { entry.approval.remove(); entry.approval = null; }
    apps.teardownWithin(entry.refs.result);
    // With a view, the view shows the result: the raw result stays a click away.
    entry.refs.result.replaceChildren(el('details', { class: 'tool-result', open: !app },
      el('summary', { text: refused ? 'Why' : isError ? 'Error' : 'Result' }),
      el('div', { class: 'result-body' }, toolResult(data, (uri) => viewResource(entry.server, uri, entry.refs.result)))));
  }

  function status(payload) {
    const entry = card(payload.callId, payload.tool);
    if (payload.message) {
      entry.refs.message.textContent = payload.message;
      entry.refs.message.hidden = false;
    }
    setArguments(entry, payload.arguments);
    if (payload.state === 'complete') {
      setResult(entry, payload.data, payload.isError, payload.durationMs, payload.app, payload.refused === true);
      if (payload.app) {
        apps.mount(entry.refs.result, {
          app: payload.app, args: entry.args, result: payload.data, cancelled: cancelReason(payload), onResize: changed,
        });
      }
    } else if (!entry.approval) setState(entry, 'processing');
    changed();
  }

  /** The call runs as an MCP task on its server: its status (working, input_required, …) shows on the card. */
  function task(payload) {
    const entry = cards.get(payload.callId);
    if (!entry || entry.node.dataset.state === 'complete') return;
    entry.node.dataset.task = payload.status || '';
    entry.refs.task.textContent = ['Task', TASK_TEXT[payload.status] || payload.status, payload.message].filter(Boolean).join(' · ');
    entry.refs.task.title = payload.taskId ? `Task ${payload.taskId} on the server` : '';
    entry.refs.task.hidden = false;
    changed();
  }

  function progress(payload) {
    const entry = cards.get(payload.callId);
    if (!entry) return;
    const { progress: done, total } = payload;
    const bar = el('progress', { max: typeof total === 'number' && total > 0 ? total : null, value: typeof total === 'number' && total > 0 ? done : null, 'aria-label': 'Progress' });
    const label = typeof total === 'number' && total > 0 ? `${Math.round((done / total) * 100)}%` : String(done ?? '');
    entry.refs.progress.replaceChildren(bar, el('span', { class: 'muted', text: [label, payload.message].filter(Boolean).join(' · ') }));
    entry.refs.progress.hidden = false;
    changed();
  }

  return { entries: cards, card, nameCard, setState, setArguments, setResult, status, progress, task };
}
