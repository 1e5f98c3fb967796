// An MCP server (official TypeScript SDK, stdio) with an MCP App (SEP-1865), for the host's tests:
// `show_counter` shows the view ui://counter/view with its result; the view's button calls
// `increment`, a tool only apps may call. The view is plain HTML with an inline script speaking
// the view's JSON-RPC over postMessage itself (no SDK), and it reports what its sandbox allows:
// whether the page around it is reachable, and whether the network is.
//   node host-app-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const VIEW_URI = 'ui://counter/view';
const MIME_TYPE = 'text/html;profile=mcp-app';

const VIEW = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Counter</title>
<style>
  body { margin: 0; padding: 12px 14px; font: 15px/1.5 system-ui, sans-serif; }
  #count { font-size: 22px; font-weight: 600; margin: 0 0 8px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 10px 0 0; font-size: 13px; }
  dt { color: #666; }
  dd { margin: 0; }
</style>
</head>
<body>
<p id="count">Count: …</p>
<button id="increment" type="button" disabled>Increment</button>
<dl>
  <dt>Page around</dt><dd id="isolation">…</dd>
  <dt>Network</dt><dd id="network">…</dd>
  <dt>CSP</dt><dd id="violation">no violation</dd>
</dl>
<script>
  const $ = (id) => document.getElementById(id);
  const waiting = new Map();
  let nextId = 1;
  let count = null;

  function request(method, params) {
    const id = nextId++;
    window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  }
  function notify(method, params) {
    window.parent.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }
  function show(value) {
    count = value;
    $('count').textContent = 'Count: ' + value;
    $('increment').disabled = false;
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      if (message.error) pending.reject(new Error(message.error.message));
      else pending.resolve(message.result);
    } else if (message.method === 'ui/notifications/tool-result') {
      const value = message.params && message.params.structuredContent && message.params.structuredContent.count;
      if (typeof value === 'number') show(value);
    } else if (message.id !== undefined) {
      // Requests from the host: ui/resource-teardown is answered, anything else is not known here.
      window.parent.postMessage(message.method === 'ui/resource-teardown'
        ? { jsonrpc: '2.0', id: message.id, result: {} }
        : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }, '*');
    }
  });

  $('increment').addEventListener('click', async () => {
    $('increment').disabled = true;
    try {
      const result = await request('tools/call', { name: 'increment', arguments: { count } });
      show(result.structuredContent.count);
    } catch (error) {
      $('count').textContent = 'Failed: ' + error.message;
    }
  });

  // What the sandbox allows: the page around (opaque origin) and the network (the CSP).
  try {
    void window.parent.document.title;
    $('isolation').textContent = 'reachable';
  } catch {
    $('isolation').textContent = 'isolated';
  }
  document.addEventListener('securitypolicyviolation', (event) => { $('violation').textContent = event.effectiveDirective; });
  fetch('https://example.com/').then(() => { $('network').textContent = 'reachable'; },
    () => { $('network').textContent = 'blocked'; });

  new ResizeObserver(() => {
    notify('ui/notifications/size-changed', {
      width: Math.ceil(document.documentElement.scrollWidth),
      height: Math.ceil(document.documentElement.getBoundingClientRect().height),
    });
  }).observe(document.documentElement);

  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'counter-view', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  }).then((result) => {
    document.documentElement.dataset.theme = result.hostContext && result.hostContext.theme || '';
    notify('ui/notifications/initialized', {});
  });
</script>
</body>
</html>
`;

const server = new McpServer({ name: 'host-app-server', version: '1.0.0' });
const readOnly = { readOnlyHint: true };

// The content's _meta.ui has no csp: the host must apply the spec's restrictive default.
server.registerResource('counter-view', VIEW_URI, { title: 'Counter view', mimeType: MIME_TYPE },
  (uri) => ({ contents: [{ uri: uri.href, mimeType: MIME_TYPE, text: VIEW, _meta: { ui: { prefersBorder: true } } }] }));

server.registerTool('show_counter', {
  description: 'Shows a counter starting at `start`',
  inputSchema: { start: z.number() },
  annotations: readOnly,
  _meta: { ui: { resourceUri: VIEW_URI } },
}, ({ start }) => ({ content: [{ type: 'text', text: `The counter is at ${start}.` }], structuredContent: { count: start } }));

server.registerTool('increment', {
  description: 'Adds one to the counter (for the view only)',
  inputSchema: { count: z.number() },
  annotations: readOnly,
  _meta: { ui: { resourceUri: VIEW_URI, visibility: ['app'] } },
}, ({ count }) => ({ content: [{ type: 'text', text: String(count + 1) }], structuredContent: { count: count + 1 } }));

console.error('host-app-server: ready');
await server.connect(new StdioServerTransport());
