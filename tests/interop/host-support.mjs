// Helpers for the host tests: start `mcpkit host` against a fake LLM and real MCP servers, and
// drive it as a page would, over its WebSocket (Node 22's built-in WebSocket client).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eventually, freePort, listening, mcpkit, sleep, startProcess } from './support.mjs';

/** A temporary folder, removed by the returned function. */
export function workFolder(prefix = 'mcpkit-host-') {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/** Writes mcp.json into `folder`; returns its path. */
export function writeConfig(folder, config, name = 'mcp.json') {
  const file = path.join(folder, name);
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * The `everything` server of this build, as an mcp.json entry. It is ours, so its annotations are
 * believed (trustAnnotations), as scripts/host-mcp.json does for mcpkit's servers.
 */
export function everythingServer(extra = {}) {
  return { command: mcpkit, args: ['everything'], trustAnnotations: true, ...extra };
}

/** The token every test host is started with (MCPKIT_HOST_TOKEN), unless a test gives its own. */
export const HOST_TOKEN = 'test-host-token-5f0c2a9e';

/**
 * Starts `mcpkit host`. `llm`: a fake from fake-llm.mjs (or null for none) with `provider`
 * 'openai' | 'gemini' | 'anthropic' and `model`. Resolves to { child, port, url, stop() }.
 */
export async function startHost({ config, llm = null, provider = 'openai', model = 'fake-model', args = [], env = {},
  store = 'memory', port } = {}) {
  port ??= await freePort();
  const environment = { ...process.env, MCPKIT_HOST_TOKEN: HOST_TOKEN, ...env };
  delete environment.GEMINI_API_KEY;
  delete environment.OPENAI_API_KEY;
  delete environment.OPENAI_BASE_URL;
  delete environment.ANTHROPIC_API_KEY;
  delete environment.ANTHROPIC_BASE_URL;
  if (llm) {
    if (provider === 'anthropic') {
      environment.ANTHROPIC_API_KEY = llm.apiKey ?? 'test-key';
      environment.ANTHROPIC_BASE_URL = llm.url;
      environment.ANTHROPIC_MODEL = model;
    } else if (provider === 'gemini') {
      environment.GEMINI_API_KEY = llm.apiKey ?? 'test-key';
      environment.GEMINI_BASE_URL = llm.url;
      environment.GEMINI_MODEL = model;
    } else {
      environment.OPENAI_API_KEY = llm.apiKey ?? 'test-key';
      environment.OPENAI_BASE_URL = `${llm.url}/v1`;
      environment.OPENAI_MODEL = model;
    }
  }
  const argv = ['host', ...(args.includes('--http') ? [] : ['--http', `127.0.0.1:${port}`]), '--store', store, ...args];
  if (config) argv.push('--config', config);
  const child = startProcess(mcpkit, argv, { env: environment });
  await listening(child, port, 'mcpkit host');
  const token = environment.MCPKIT_HOST_TOKEN;
  return {
    child, port, token, url: `http://127.0.0.1:${port}`, pageUrl: `http://127.0.0.1:${port}/?token=${token}`,
    /** Headers that carry the token, for fetch. */
    auth: { Authorization: `Bearer ${token}` },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const result = await Promise.race([child.exited, sleep(10000).then(() => null)]);
      if (!result) child.kill('SIGKILL');
      return result;
    },
  };
}

/**
 * A page's WebSocket (with the test token unless `token` says otherwise): every frame kept in `frames`; `next(type, predicate)` waits for the next
 * matching frame not yet taken (failing after `ms` with the frames seen).
 */
export async function connectPage(port, { sessionId, origin, token = HOST_TOKEN } = {}) {
  const parameters = new URLSearchParams();
  if (token) parameters.set('token', token);
  if (sessionId) parameters.set('sessionId', sessionId);
  const query = parameters.size ? `?${parameters}` : '';
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`, origin ? { headers: { Origin: origin } } : undefined);
  const page = {
    socket, frames: [], taken: new Set(), closed: null,
    send(type, payload = {}) { socket.send(JSON.stringify({ type, payload })); },
    sendRaw(text) { socket.send(text); },
    /** `from`: only frames that arrived after that many frames. */
    async next(type, predicate = () => true, ms = 15000, from = 0) {
      let found;
      const ok = await eventually(() => {
        found = page.frames.findIndex((frame, i) => i >= from && !page.taken.has(i) && frame.type === type &&
          predicate(frame.payload));
        return found >= 0;
      }, ms);
      if (!ok) {
        throw new Error(`no ${type} frame within ${ms} ms; frames: ${JSON.stringify(page.frames).slice(-3000)}`);
      }
      page.taken.add(found);
      return page.frames[found].payload;
    },
    /** The streamed text of one assistant message. */
    textOf(messageId) {
      return page.frames.filter((f) => f.type === 'text' && f.payload.messageId === messageId)
        .map((f) => f.payload.content).join('');
    },
    /** Everything streamed during one turn. */
    textOfTurn(turnId) {
      return page.frames.filter((f) => f.type === 'text' && f.payload.turnId === turnId).map((f) => f.payload.content).join('');
    },
    close() { socket.close(); },
  };
  socket.addEventListener('message', (event) => page.frames.push(JSON.parse(event.data)));
  page.closed = new Promise((resolve) => socket.addEventListener('close', (event) => resolve(event)));
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error('the WebSocket did not open')), { once: true });
  });
  page.connection = await page.next('connection');
  return page;
}

/** Sends a message and waits for its turn to end; returns { turnId, state, message, details, notice, text, reasoning, frames }. */
export async function chat(page, text, { ms = 20000, extra = {} } = {}) {
  const from = page.frames.length;
  page.send('message', { text, ...extra });
  const started = await page.next('turn', (p) => p.state === 'started', ms, from);
  const ended = await page.next('turn', (p) => p.turnId === started.turnId && p.state !== 'started', ms);
  const frames = page.frames.slice(from).filter((f) => f.payload?.turnId === started.turnId);
  return {
    turnId: started.turnId, state: ended.state, message: ended.message, details: ended.details, notice: ended.notice,
    text: page.textOfTurn(started.turnId),
    reasoning: frames.filter((f) => f.type === 'reasoning').map((f) => f.payload.content).join(''),
    frames,
  };
}
