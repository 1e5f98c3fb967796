// MCP Apps (SEP-1865): a tool's view, shown in a sandboxed frame with the tool's result, and the
// host side of the view's JSON-RPC over postMessage (docs/host-websocket.md, "MCP Apps").
//
// The frame is sandbox="allow-scripts" and never allow-same-origin: although /apps/<id> comes
// from this host, the view's document gets an opaque origin, so it cannot touch this page (DOM,
// storage, cookies, the WebSocket). All it can do is post messages, answered here; whatever
// reaches a server goes through the host as an `app_request`, where the host applies its rules.

import { el, freshId } from './host-dom.js';

const PROTOCOL_VERSION = '2026-01-26';
const HOST_INFO = { name: 'mcpkit-host', version: '0.1.0' };
const HOST_CAPABILITIES = {
  openLinks: {}, serverTools: {}, serverResources: {}, logging: {},
  message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} },
};
const MIN_HEIGHT = 50;
/** How long a view's proposed message is shown before it can be sent. */
const READ_DELAY_MS = 700;
const MAX_HEIGHT = 1200;

const dark = window.matchMedia('(prefers-color-scheme: dark)');
const theme = () => (dark.matches ? 'dark' : 'light');

function rpcError(code, message) {
  return Object.assign(new Error(message), { code });
}

/** The text of a `ui/message`: its content is one block in the spec, a list in the SDK. */
function messageText(params) {
  const blocks = Array.isArray(params.content) ? params.content : [params.content];
  return blocks.filter((block) => block?.type === 'text' && typeof block.text === 'string').map((block) => block.text).join('\n').trim();
}

/** Whether `url` points at this host, under any name of this machine (same port). */
function isThisHost(url) {
  if (url.origin === location.origin) return true;
  const port = (u) => u.port || (u.protocol === 'https:' ? '443' : '80');
  if (port(url) !== port(location)) return false;
  const name = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return name === location.hostname.toLowerCase().replace(/^\[|\]$/g, '') || name === 'localhost' ||
    name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name) || name === '0.0.0.0' || name === '::1' ||
    name === '::' || /^::ffff:(127\.|7f)/.test(name) || name === '0:0:0:0:0:0:0:1';
}

/**
 * `request(type, payload, {onAnswer, onError})` sends a request to the host (host.js);
 * `sendMessage(text)` sends a user message, or returns why it cannot (a turn is running…).
 */
export function createApps({ request, sendMessage }) {
  const views = new Set();

  /**
   * Shows `app` (the `app` of a status or tool_result frame) at the end of `container` and speaks
   * with it: `args` were the call's arguments, `result` its CallToolResult; `cancelled` (a reason)
   * when the call never ran to its end. `onResize` follows the view's height.
   */
  function mount(container, { app, args, result, cancelled = null, onResize = () => {} }) {
    sweep();
    const name = app.tool?.title || app.tool?.name || 'tool';
    const iframe = el('iframe', {
      sandbox: 'allow-scripts', src: app.url, testid: 'app-frame', title: `${name} (a view from ${app.server})`,
      class: app.prefersBorder === false ? 'app-frame borderless' : 'app-frame',
    });
    let initialized = false;
    // Names this view's model context on the host: its url, the same in every tab and after a
    // reload, so that a newer update replaces this view's, however many frames show it.
    const viewId = app.url;

    // The sandbox's origin is opaque ("null"): no targetOrigin names it, so '*' it is. That is
    // safe because the message goes to this one frame's window, not to whoever asks.
    const post = (message) => iframe.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, '*');

    const proxy = (method, extra = {}) => (params) => new Promise((resolve, reject) => {
      request('app_request', { server: app.server, method, params, ...extra }, {
        onAnswer: (payload) => (payload.error
          ? reject(rpcError(payload.error.code ?? -32603, payload.error.message || 'The request failed.'))
          : resolve(payload.result ?? {})),
        onError: (message) => reject(rpcError(-32603, message)),
      });
    });

    const METHODS = {
      'ui/initialize'() {
        // A new document in the frame (the frame was moved, or the view reloaded) starts over.
        initialized = false;
        return {
          protocolVersion: PROTOCOL_VERSION, hostInfo: HOST_INFO, hostCapabilities: HOST_CAPABILITIES,
          hostContext: {
            theme: theme(), displayMode: 'inline', availableDisplayModes: ['inline'], toolInfo: { tool: app.tool },
            platform: 'web', locale: navigator.language,
          },
        };
      },
      'ui/notifications/initialized'() {
        // The spec forbids sending anything to the view before this.
        if (initialized) return;
        initialized = true;
        post({ method: 'ui/notifications/tool-input', params: { arguments: args && typeof args === 'object' ? args : {} } });
        if (cancelled) post({ method: 'ui/notifications/tool-cancelled', params: { reason: cancelled } });
        else post({ method: 'ui/notifications/tool-result', params: result && typeof result === 'object' ? result : { content: [] } });
      },
      'ui/notifications/size-changed'(params) {
        if (typeof params.height !== 'number' || !Number.isFinite(params.height)) return;
        if (proposal) return;  // the question below the view stays where the user saw it
        iframe.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(params.height)))}px`;
        onResize();
      },
      'ui/open-link'(params) {
        let url;
        try { url = new URL(params.url); } catch { throw rpcError(-32000, 'Invalid URL'); }
        // Only web pages: no javascript:, data:, file: or custom schemes from a server's page.
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw rpcError(-32000, 'Only http and https links are opened');
        // Never this host itself, by any of its names: a view must not reach the chat (its own
        // /apps/ URL, the page), and localhost, 127.0.0.2 or [::1] lead to the same place.
        if (isThisHost(url)) throw rpcError(-32000, 'Links to the host itself are not opened');
        window.open(url.href, '_blank', 'noopener,noreferrer');
        return {};
      },
      'ui/message'(params) {
        if (params.role !== undefined && params.role !== 'user') throw rpcError(-32602, 'ui/message takes role "user"');
        const text = messageText(params);
        if (!text) throw rpcError(-32602, 'ui/message needs text content');
        // A view speaks for its server, not for the user: its message is shown, attributed, and
        // sent only when the user accepts it. A newer one replaces the one waiting (one question
        // however many the view sends).
        return proposeMessage(text);
      },
      'ui/request-display-mode': () => ({ mode: 'inline' }),
      ping: () => ({}),
      'notifications/message'() { /* the view's log: not kept */ },
      'tools/call': proxy('tools/call'),
      'resources/read': proxy('resources/read'),
      // Kept by the host and given to the model with the next user message.
      'ui/update-model-context': proxy('ui/update-model-context', { viewId }),
    };

    function onMessage(event) {
      // Only this frame's window: other frames (and other views) post to this page too.
      if (!iframe.contentWindow || event.source !== iframe.contentWindow) return;
      const message = event.data;
      if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return;
      const hasId = message.id !== undefined && message.id !== null;
      const handler = Object.hasOwn(METHODS, message.method) ? METHODS[message.method] : null;
      if (!handler) {
        if (hasId) post({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
        return;
      }
      const params = message.params && typeof message.params === 'object' ? message.params : {};
      Promise.resolve().then(() => handler(params)).then(
        (answer) => { if (hasId) post({ id: message.id, result: answer ?? {} }); },
        (error) => { if (hasId) post({ id: message.id, error: { code: error.code ?? -32603, message: error.message } }); });
    }

    let proposal = null;  // { node, text, resolve, reject }
    function proposeMessage(text) {
      return new Promise((resolve, reject) => {
        if (proposal) {
          proposal.reject(rpcError(-32000, 'Replaced by a newer message from the view before the user answered'));
          proposal.node.remove();
        }
        // Enabled after a moment: a view may replace its message, or resize to move the button,
        // just before a click it asked for ("click twice to win") — a click must meet a question
        // the user had time to read.
        const send = el('button', { type: 'button', class: 'primary', testid: 'app-message-send', text: 'Send it', disabled: true });
        const dismiss = el('button', { type: 'button', testid: 'app-message-dismiss', text: 'Dismiss' });
        setTimeout(() => { send.disabled = false; }, READ_DELAY_MS);
        const node = el('div', { class: 'app-message', role: 'group', testid: 'app-message', 'aria-label': `A message from ${app.server}'s view` },
          el('p', {}, 'The view of ', el('strong', { text: app.server }), ' wants to send this message as you:'),
          el('blockquote', { class: 'app-message-text', text }),
          el('div', { class: 'buttons' }, send, dismiss));
        const current = { node, text, resolve, reject };
        proposal = current;
        const settle = () => { if (proposal === current) proposal = null; node.remove(); onResize(); };
        send.addEventListener('click', () => {
          const problem = sendMessage(text);
          if (problem) {
            node.querySelector('.app-message-problem')?.remove();
            node.append(el('p', { class: 'app-message-problem error-text', text: problem }));
            return;
          }
          settle();
          resolve({});
        });
        dismiss.addEventListener('click', () => {
          settle();
          reject(rpcError(-32000, 'The user declined to send the message'));
        });
        iframe.after(node);
        onResize();
      });
    }

    const onTheme = () => {
      if (initialized) post({ method: 'ui/notifications/host-context-changed', params: { theme: theme() } });
    };

    const view = {
      iframe,
      teardown(reason = 'The view was closed.') {
        if (!views.delete(view)) return;
        if (proposal) {
          proposal.reject(rpcError(-32000, 'The view was closed'));
          proposal.node.remove();
          proposal = null;
        }
        // Best effort: the frame goes right after this, so its answer is not awaited.
        if (initialized) post({ id: freshId('teardown'), method: 'ui/resource-teardown', params: { reason } });
        window.removeEventListener('message', onMessage);
        dark.removeEventListener('change', onTheme);
      },
    };
    views.add(view);
    // Listening before the frame is in the document, so its first message is not missed.
    window.addEventListener('message', onMessage);
    dark.addEventListener('change', onTheme);
    container.append(iframe);
    return view;
  }

  /** Forgets views whose frame left the page without a teardown (a rebuilt panel dropped it). */
  function sweep() {
    for (const view of [...views]) if (!view.iframe.isConnected) view.teardown();
  }

  return {
    mount,
    /** Tears down every view inside `node`, before `node` (or its content) is removed. */
    teardownWithin(node, reason) {
      for (const view of [...views]) if (node.contains(view.iframe)) view.teardown(reason);
    },
  };
}
