// Tool cards: one per call (by the model, or a view's the user was asked about). Collapsed to one
// line — "server › tool", the key argument, status, duration — with the progress and a running
// task's status under it; a click shows the rest: arguments, the approval, the result or the reason
// it did not run. A card waiting for the user, or showing an MCP App's view, is open.

import { el, formatDuration, toolParts } from './host-dom.js';
import { jsonBlock, textOf, toolResult } from './host-content.js';

/** Why a completed call did not run to its end (the host marks refused or cancelled calls), or null. */
function cancelReason(payload) {
  if (payload.cancelled !== true && payload.refused !== true) return null;
  return textOf(payload.data?.content).trim() || (payload.refused ? 'The call was refused.' : 'The call was cancelled.');
}

/** The argument that says most about a call, for its one line: a path, a query, a URL, a name… */
const KEY_ARGUMENTS = ['path', 'file', 'filename', 'uri', 'url', 'query', 'command', 'name', 'city', 'text', 'message', 'label'];
function keyArgument(args) {
  if (!args || typeof args !== 'object') return '';
  const key = KEY_ARGUMENTS.find((name) => typeof args[name] === 'string' && args[name]) ??
    Object.keys(args).find((name) => typeof args[name] === 'string' && args[name]);
  if (!key) return '';
  const value = args[key].replace(/\s+/g, ' ').trim();
  return value.length > 48 ? `${value.slice(0, 47)}…` : value;
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
      server: el('span', { class: 'tool-server' }),
      separator: el('span', { class: 'tool-separator', 'aria-hidden': 'true', text: '›', hidden: true }),
      name: el('code', { class: 'tool-name' }),
      key: el('span', { class: 'tool-key', testid: 'tool-key' }),
      state: el('span', { class: 'tool-state' }),
      duration: el('span', { class: 'tool-duration' }),
      message: el('p', { class: 'tool-message', hidden: true }),
      progress: el('div', { class: 'tool-progress', hidden: true }),
      task: el('p', { class: 'tool-task muted small', testid: 'tool-task', hidden: true }),
      args: el('details', { class: 'tool-args', hidden: true }, el('summary', { text: 'Arguments' })),
      approval: el('div', { class: 'approval-slot' }),
      result: el('div', { class: 'tool-result-slot' }),
    };
    refs.body = el('div', { class: 'tool-body', hidden: true }, refs.message, refs.args, refs.approval, refs.result);
    refs.head = el('button', { type: 'button', class: 'tool-head', testid: 'tool-card-toggle', 'aria-expanded': 'false',
      title: 'Show or hide the details', onclick: () => expand(entry, refs.body.hidden, true) },
    refs.icon, refs.server, refs.separator, refs.name, refs.key, el('span', { class: 'spacer' }), refs.state, refs.duration);
    const node = el('article', { class: 'tool-card', testid: 'tool-card', dataset: { callId, state: 'processing', expanded: 'false' }, 'aria-label': 'Tool call' },
      el('header', {}, refs.head), refs.progress, refs.task, refs.body);
    entry = { callId, node, refs, tool: '', server: '', opened: null };
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
    entry.refs.server.textContent = entry.server || '';
    entry.refs.separator.hidden = !entry.server;
    entry.node.setAttribute('aria-label', `Tool call ${entry.server ? `${entry.server} › ` : ''}${found?.tool.name || parts.tool}`);
  }

  /** Opens or closes a card's details; the user's choice (`byUser`) holds from then on. */
  function expand(entry, open, byUser = false) {
    if (!byUser && entry.opened !== null) return;
    if (byUser) entry.opened = open;
    entry.refs.body.hidden = !open;
    entry.refs.head.setAttribute('aria-expanded', String(open));
    entry.node.dataset.expanded = String(open);
    changed();
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
    // A question for the user is answered inside the card.
    if (state === 'approval') expand(entry, true);
  }

  function setArguments(entry, args, open) {
    if (args === undefined) return;
    entry.args = args;
    entry.refs.key.textContent = keyArgument(args);
    entry.refs.key.title = entry.refs.key.textContent;
    entry.refs.args.hidden = false;
    entry.refs.args.querySelector('pre')?.remove();
    entry.refs.args.append(jsonBlock(args, { label: 'Arguments' }));
    if (open) entry.refs.args.open = true;
  }

  function setResult(entry, data, isError, durationMs, app, refused = false) {
    setState(entry, 'complete', isError, refused);
    entry.refs.progress.hidden = true;
    if (entry.node.dataset.task) {
      entry.refs.task.textContent = `Ran as a task on ${entry.server || 'its server'}`;
      entry.refs.body.prepend(entry.refs.task);  // the details, now it is over
    }
    entry.refs.duration.textContent = formatDuration(durationMs);
    if (entry.approval) { entry.approval.remove(); entry.approval = null; }
    apps.teardownWithin(entry.refs.result);
    // With a view, the view shows the result: the raw result stays a click away.
    entry.refs.result.replaceChildren(el('details', { class: 'tool-result', open: !app },
      el('summary', { text: refused ? 'Why' : isError ? 'Error' : 'Result' }),
      el('div', { class: 'result-body' }, toolResult(data, (uri) => viewResource(entry.server, uri, entry.refs.result)))));
    // Done, it folds to its line; a view stays in sight, since it is what the tool shows.
    expand(entry, Boolean(app));
  }

  function status(payload) {
    const entry = card(payload.callId, payload.tool);
    // The host's own tools (search_tools, read_tool_result) are no server's: the frame says whose.
    if (payload.server && !entry.server) nameCard(entry, payload.tool, payload.server);
    // "Calling …" and "Done" say what the card's line says already.
    if (payload.message && payload.state === 'complete' && payload.message !== 'Done') {
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
