// The server panel: each MCP server with its state, and its tools (callable by hand through a
// form generated from the input schema, with the tool's MCP App view under its result), prompts
// (inserted as slash commands) and resources (attached to the next message, or viewed).
//
// A `servers` frame rebuilds the panel; what the user is doing in it survives: open tool forms
// (with their values and last result), collapsed groups, attached resources, the focused field.

import { el, formatDuration } from './host-dom.js';
import { resourceContents, toolResult } from './host-content.js';
import { schemaFields } from './host-forms.js';

const STATE_TONE = {
  ready: 'ok', connected: 'ok', running: 'ok',
  starting: 'busy', connecting: 'busy', initializing: 'busy', restarting: 'busy', reconnecting: 'busy',
  failed: 'bad', error: 'bad', 'open-circuit': 'bad', crashed: 'bad',
  disabled: 'off', stopped: 'off', closed: 'off',
};

export function stateTone(state) {
  return STATE_TONE[String(state || '').toLowerCase()] || 'busy';
}

function approvalBadge(approval) {
  if (approval === true || approval === 'ask' || approval === 'required') return el('span', { class: 'badge badge-ask', text: 'asks first', title: 'Calls wait for your approval' });
  if (approval === 'always' || approval === 'allowed' || approval === 'allow') return el('span', { class: 'badge badge-allowed', text: 'always allowed', title: 'You allowed this tool for the session' });
  if (approval === 'auto' || approval === 'automatic') return el('span', { class: 'badge badge-auto', text: 'auto', title: 'Runs without asking' });
  if (typeof approval === 'string' && approval && approval !== 'never' && approval !== 'none') return el('span', { class: 'badge', text: approval });
  return null;
}

/**
 * `request(type, payload, {onAnswer, onError})` sends a request with a fresh requestId.
 * `onPrompt({server, prompt})` starts a prompt in the composer; `onAttachments(list)` follows the
 * attached resources; `apps` shows MCP App views (host-apps.js).
 */
export function createServerPanel({ root, list, filter, count, request, onPrompt, onAttachments, apps }) {
  let servers = [];
  const openGroups = new Map();          // "server\u0000group" → open?
  const toolForms = new Map();           // qualifiedName → { node, schemaKey }
  const attached = new Map();            // "server\u0000uri" → { server, uri, name }
  const views = new Map();               // "server\u0000uri" → the viewer node

  const notifyAttachments = () => onAttachments([...attached.values()]);

  function group(server, key, title, items, build, closedByDefault = false) {
    const id = `${server.name}\u0000${key}`;
    const details = el('details', { class: `group group-${key}`, open: openGroups.get(id) ?? !closedByDefault },
      el('summary', {}, el('span', { text: title }), el('span', { class: 'count', text: String(items.length) })),
      el('ul', { class: `entries ${key}` }, items.map(build)));
    details.addEventListener('toggle', () => openGroups.set(id, details.open));
    return details;
  }

  function toolForm(server, tool) {
    const fields = schemaFields(tool.inputSchema || {}, { idPrefix: `tool-${tool.qualifiedName.replace(/[^\w-]/g, '_')}` });
    const json = el('textarea', { class: 'json-input', rows: 6, spellcheck: 'false', hidden: true, 'aria-label': `Arguments for ${tool.name} as JSON` });
    const asJson = el('input', { type: 'checkbox' });
    const submit = el('button', { type: 'submit', class: 'primary', testid: 'tool-form-submit', text: 'Call tool' });
    const output = el('div', { class: 'tool-output', 'aria-live': 'polite' });
    asJson.addEventListener('change', () => {
      if (asJson.checked) json.value = JSON.stringify(fields.collect({ quiet: true }).value, null, 2);
      json.hidden = !asJson.checked;
      fields.node.hidden = asJson.checked;
    });
    const form = el('form', { class: 'tool-form', testid: 'tool-form', dataset: { tool: tool.qualifiedName }, novalidate: true, 'aria-label': `Call ${tool.name}` },
      fields.empty ? el('p', { class: 'muted small', text: 'This tool takes no arguments.' }) : null,
      fields.node, json,
      el('div', { class: 'form-actions' },
        fields.empty ? null : el('label', { class: 'check-label small' }, asJson, el('span', { text: 'Edit as JSON' })),
        submit));
    let confirmed = false;
    function confirmCall(args) {
      const run = el('button', { type: 'button', class: 'primary', testid: 'tool-form-confirm', text: `Run ${tool.name}` });
      const cancel = el('button', { type: 'button', testid: 'tool-form-cancel', text: 'Cancel' });
      const question = el('div', { class: 'approval', role: 'group', testid: 'tool-form-question', 'aria-label': `Confirm ${tool.name}` },
        el('p', {}, el('strong', { text: server.name }), ' asks before ', el('code', { text: tool.name }), ' runs. Run it with these arguments?'),
        el('pre', { class: 'json-preview', text: JSON.stringify(args, null, 2) }),
        el('div', { class: 'buttons' }, run, cancel));
      run.addEventListener('click', () => { confirmed = true; question.remove(); form.requestSubmit(); });
      cancel.addEventListener('click', () => question.remove());
      output.replaceChildren(question);
      run.focus();
    }
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      let args;
      if (asJson.checked) {
        try {
          args = json.value.trim() ? JSON.parse(json.value) : {};
          if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('the arguments must be a JSON object');
          json.setCustomValidity('');
        } catch (error) {
          json.setCustomValidity(`Not valid: ${error.message}`);
          json.reportValidity();
          json.addEventListener('input', () => json.setCustomValidity(''), { once: true });
          return;
        }
      } else {
        const answer = fields.collect();
        if (!answer.ok) return;
        args = answer.value;
      }
      // A tool that would ask before the model runs it asks here too, with a second, separate
      // click: the one that opened the form is not taken as consent to run it.
      if (tool.approval === 'ask' && !confirmed) {
        confirmCall(args);
        return;
      }
      confirmed = false;
      submit.disabled = true;
      submit.textContent = 'Calling…';
      apps.teardownWithin(output);
      output.replaceChildren(el('p', { class: 'muted small pending' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), ` Calling ${tool.name}…`));
      const done = () => { submit.disabled = false; submit.textContent = 'Call tool'; };
      request('call_tool', { tool: tool.qualifiedName, arguments: args }, {
        onAnswer(payload) {
          done();
          output.replaceChildren(el('div', {
            class: `tool-result${payload.isError ? ' is-error' : ''}`, testid: 'tool-result',
            dataset: { requestId: payload.requestId, error: String(Boolean(payload.isError)) },
          },
          el('div', { class: 'result-head' }, el('strong', { text: payload.isError ? 'Error' : 'Result' }),
            el('span', { class: 'muted', text: formatDuration(payload.durationMs) })),
          toolResult(payload.result, (uri) => viewResource(server.name, uri, output))));
          if (payload.app) apps.mount(output, { app: payload.app, args, result: payload.result });
        },
        onError(message) {
          done();
          output.replaceChildren(el('div', { class: 'tool-result is-error', testid: 'tool-result', dataset: { error: 'true' } },
            el('div', { class: 'result-head' }, el('strong', { text: 'Failed' })), el('p', { text: message })));
        },
      });
    });
    // The entry shows two lines of the description; a longer one is shown whole here.
    const long = (tool.description || '').length > 110;
    return { node: el('div', { class: 'tool-panel' }, long ? el('p', { class: 'tool-description', text: tool.description }) : null, form, output), focus: () => fields.focus() };
  }

  function toolEntry(server, tool) {
    const schemaKey = JSON.stringify(tool.inputSchema || {});
    let open = toolForms.get(tool.qualifiedName);
    if (open && open.schemaKey !== schemaKey) { toolForms.delete(tool.qualifiedName); open = null; }
    const item = el('li', { class: 'tool', dataset: { search: `${tool.qualifiedName} ${tool.name} ${tool.description || ''}`.toLowerCase() } });
    const button = el('button', {
      type: 'button', class: 'entry-button', testid: 'tool-entry', dataset: { tool: tool.qualifiedName },
      'aria-expanded': String(Boolean(open)), title: tool.description || tool.name,
    },
    el('span', { class: 'entry-title' }, el('code', { class: 'entry-name', text: tool.name }),
      tool.readOnly ? el('span', { class: 'badge badge-readonly', text: 'read-only' }) : null, approvalBadge(tool.approval)),
    tool.description ? el('span', { class: 'entry-description', text: tool.description }) : null);
    button.addEventListener('click', () => {
      const current = toolForms.get(tool.qualifiedName);
      if (current) {
        apps.teardownWithin(current.node);
        current.node.remove();
        toolForms.delete(tool.qualifiedName);
        button.setAttribute('aria-expanded', 'false');
        return;
      }
      const made = toolForm(server, tool);
      toolForms.set(tool.qualifiedName, { node: made.node, schemaKey });
      item.append(made.node);
      button.setAttribute('aria-expanded', 'true');
      made.focus();
    });
    item.append(button);
    if (open) item.append(open.node);
    return item;
  }

  function promptEntry(server, prompt) {
    const args = Array.isArray(prompt.arguments) ? prompt.arguments : [];
    return el('li', { class: 'prompt', dataset: { search: `${server.name}/${prompt.name} ${prompt.description || ''}`.toLowerCase() } },
      el('button', {
        type: 'button', class: 'entry-button', testid: 'prompt-entry', dataset: { prompt: `${server.name}/${prompt.name}` },
        title: 'Use in the message box', onclick: () => onPrompt({ server: server.name, prompt }),
      },
      el('span', { class: 'entry-title' }, el('code', { class: 'entry-name', text: `/${server.name}/${prompt.name}` }),
        args.length ? el('span', { class: 'badge', text: `${args.length} arg${args.length === 1 ? '' : 's'}` }) : null),
      prompt.description ? el('span', { class: 'entry-description', text: prompt.description }) : null));
  }

  function resourceEntry(server, resource) {
    const key = `${server.name}\u0000${resource.uri}`;
    const id = `attach-${server.name}-${resource.uri}`.replace(/[^\w-]/g, '_');
    const box = el('input', {
      type: 'checkbox', id, testid: 'resource-attach', dataset: { uri: resource.uri, server: server.name }, checked: attached.has(key),
    });
    box.addEventListener('change', () => {
      if (box.checked) attached.set(key, { server: server.name, uri: resource.uri, name: resource.name || resource.uri });
      else attached.delete(key);
      notifyAttachments();
    });
    const item = el('li', { class: 'resource', dataset: { search: `${resource.name || ''} ${resource.uri}`.toLowerCase() } },
      el('div', { class: 'resource-row' },
        el('label', { class: 'check-label', for: id, title: 'Attach to the next message' }, box,
          el('span', { class: 'resource-name' }, el('span', { text: resource.name || resource.uri }),
            resource.name && resource.name !== resource.uri ? el('small', { class: 'muted', text: resource.uri }) : null)),
        el('button', { type: 'button', class: 'small-button', testid: 'resource-view', text: 'view', 'aria-label': `View ${resource.name || resource.uri}`, onclick: () => viewResource(server.name, resource.uri) })));
    const view = views.get(key);
    if (view) item.append(view);
    return item;
  }

  /** Reads a resource and shows it under its entry (or in `container`, under a tool's result). */
  function viewResource(server, uri, container) {
    const key = `${server}\u0000${uri}`;
    const close = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close', text: '×' });
    const body = el('div', { class: 'resource-body' }, el('p', { class: 'muted small' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Reading…'));
    const node = el('div', { class: 'resource-view', testid: 'resource-content', dataset: { uri } },
      el('div', { class: 'result-head' }, el('strong', { text: 'Contents' }), close), body);
    close.addEventListener('click', () => { node.remove(); views.delete(key); });
    if (container) container.append(node);
    else {
      views.get(key)?.remove();
      views.set(key, node);
      const entry = list.querySelector(`[data-testid="resource-attach"][data-uri="${CSS.escape(uri)}"][data-server="${CSS.escape(server)}"]`);
      entry?.closest('li')?.append(node);
    }
    request('read_resource', { server, uri }, {
      onAnswer(payload) {
        const contents = Array.isArray(payload.contents) ? payload.contents : [];
        body.replaceChildren(...(contents.length ? contents.map(resourceContents) : [el('p', { class: 'muted', text: 'Empty.' })]));
      },
      onError(message) {
        body.replaceChildren(el('p', { class: 'error-text', text: message }));
      },
    });
  }

  function serverSection(server) {
    const tools = Array.isArray(server.tools) ? server.tools : [];
    const prompts = Array.isArray(server.prompts) ? server.prompts : [];
    const resources = Array.isArray(server.resources) ? server.resources : [];
    const tone = stateTone(server.state);
    const stderr = Array.isArray(server.stderr) ? server.stderr : server.stderr ? [String(server.stderr)] : [];
    return el('section', { class: `server tone-${tone}`, testid: 'server', dataset: { name: server.name, state: server.state || 'unknown' }, 'aria-label': `${server.name}: ${server.state}` },
      el('header', { class: 'server-head' },
        el('span', { class: `dot tone-${tone}`, 'aria-hidden': 'true' }),
        el('h3', { text: server.name }),
        server.transport ? el('span', { class: 'badge badge-transport', text: server.transport }) : null,
        el('span', { class: `badge state tone-${tone}`, testid: 'server-state', text: server.state || 'unknown' })),
      server.error ? el('p', { class: 'server-error', text: server.error }) : null,
      ...(Array.isArray(server.warnings) ? server.warnings : [])
        .map((warning) => el('p', { class: 'server-error', testid: 'server-warning', text: String(warning) })),
      // Only http(s) links: the URL comes from the server's authorization server.
      typeof server.signIn === 'string' && /^https?:\/\//.test(server.signIn)
        ? el('p', { class: 'server-sign-in' }, el('a', { href: server.signIn, target: '_blank', rel: 'noopener noreferrer',
          testid: 'server-sign-in', text: `Sign in to ${server.name}` }), ' — it needs your authorization before its tools work.')
        : null,
      stderr.length ? el('details', { class: 'stderr', open: tone === 'bad' },
        el('summary', { text: `stderr (last ${stderr.length} line${stderr.length === 1 ? '' : 's'})` }),
        el('pre', { text: stderr.join('\n') })) : null,
      tools.length ? group(server, 'tools', 'Tools', tools, (tool) => toolEntry(server, tool)) : null,
      prompts.length ? group(server, 'prompts', 'Prompts', prompts, (prompt) => promptEntry(server, prompt)) : null,
      resources.length ? group(server, 'resources', 'Resources', resources, (resource) => resourceEntry(server, resource)) : null,
      !tools.length && !prompts.length && !resources.length && tone === 'ok'
        ? el('p', { class: 'muted small', text: 'No tools, prompts or resources.' }) : null);
  }

  function applyFilter() {
    const query = filter.value.trim().toLowerCase();
    for (const item of list.querySelectorAll('li[data-search]')) item.hidden = Boolean(query) && !item.dataset.search.includes(query);
    for (const details of list.querySelectorAll('details.group')) {
      const any = details.querySelector('li:not([hidden])');
      details.classList.toggle('filtered-out', Boolean(query) && !any);
      if (query && any) details.open = true;
    }
  }
  filter.addEventListener('input', applyFilter);

  function update(next) {
    servers = Array.isArray(next) ? next : [];
    // Forget what belongs to tools and resources that are gone.
    const names = new Set(servers.flatMap((server) => (server.tools || []).map((tool) => tool.qualifiedName)));
    for (const name of toolForms.keys()) if (!names.has(name)) toolForms.delete(name);
    const uris = new Set(servers.flatMap((server) => (server.resources || []).map((resource) => `${server.name}\u0000${resource.uri}`)));
    let dropped = false;
    for (const key of attached.keys()) if (!uris.has(key)) { attached.delete(key); dropped = true; }
    for (const key of views.keys()) if (!uris.has(key)) views.delete(key);
    // Rebuild, keeping the focus and the scroll position.
    const active = root.contains(document.activeElement) ? document.activeElement : null;
    const selection = active && 'selectionStart' in active ? [active.selectionStart, active.selectionEnd] : null;
    const scroll = list.scrollTop;
    list.replaceChildren(...(servers.length ? servers.map(serverSection)
      : [el('p', { class: 'muted empty-servers', text: 'No MCP servers are configured. Add them to mcp.json.' })]));
    list.scrollTop = scroll;
    if (active && active.isConnected && document.activeElement !== active) {
      active.focus({ preventScroll: true });
      try { if (selection) active.setSelectionRange(...selection); } catch { /* not a text field */ }
    }
    const ready = servers.filter((server) => stateTone(server.state) === 'ok').length;
    count.textContent = servers.length ? `${ready}/${servers.length} ready` : '';
    applyFilter();
    if (dropped) notifyAttachments();
  }

  return {
    update,
    viewResource,
    servers: () => servers,
    /** The tool and its server for a qualified (or plain) tool name. */
    findTool(name) {
      for (const server of servers) {
        for (const tool of server.tools || []) if (tool.qualifiedName === name) return { server: server.name, tool };
      }
      for (const server of servers) {
        for (const tool of server.tools || []) if (tool.name === name) return { server: server.name, tool };
      }
      return null;
    },
    prompts: () => servers.flatMap((server) => (server.prompts || []).map((prompt) => ({ server: server.name, prompt }))),
    detach(server, uri) {
      attached.delete(`${server}\u0000${uri}`);
      const box = list.querySelector(`[data-testid="resource-attach"][data-uri="${CSS.escape(uri)}"][data-server="${CSS.escape(server)}"]`);
      if (box) box.checked = false;
      notifyAttachments();
    },
    clearAttachments() {
      attached.clear();
      for (const box of list.querySelectorAll('[data-testid="resource-attach"]')) box.checked = false;
      notifyAttachments();
    },
  };
}
