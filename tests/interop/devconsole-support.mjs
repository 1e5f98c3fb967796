// Helpers for the devconsole tests: start the daemon, speak the extension's wire protocol (as the
// original 0.7 extension does, see shared/reference/devconsole-wire-0.7.md), and drive the tools
// from the official TypeScript SDK client.
import { spawn } from 'node:child_process';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { mcpkit, sleep } from './support.mjs';

/** Headers the original extension sends on every data call. */
export const extensionHeaders = {
  'Content-Type': 'application/json',
  'X-Gasoline-Client': 'gasoline-extension/0.7.10',
  'X-Gasoline-Extension-Version': '0.7.10',
  Origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
};

/** The /mcp bearer secret the test daemons get (MCPKIT_DEVCONSOLE_TOKEN). */
export const DEVCONSOLE_TOKEN = 'test-devconsole-secret-7d41';

/** Starts `mcpkit devconsole` on a free port; resolves once it listens. */
export async function startDevConsole(args = [], { port: wanted = 0, env = {} } = {}) {
  const child = spawn(mcpkit, ['devconsole', '--port', String(wanted), ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MCPKIT_DEVCONSOLE_TOKEN: DEVCONSOLE_TOKEN, ...env } });
  child.output = '';
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`devconsole did not start: ${child.output}`)), 10000);
    child.stderr.on('data', (chunk) => {
      child.output += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(child.output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child, port, base,
    /** /mcp's secret as a header, which /health takes too to show all it knows. */
    auth: { Authorization: `Bearer ${env.MCPKIT_DEVCONSOLE_TOKEN ?? DEVCONSOLE_TOKEN}` },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await child.exited;
    },
  };
}

/** POSTs JSON (or raw text) to the daemon as the extension would; returns {status, body, text}. */
export async function post(base, path, body, headers = extensionHeaders) {
  const response = await fetch(base + path, {
    method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** The official TypeScript SDK client, connected to the daemon's /mcp. */
export async function connectClient(base) {
  const client = new Client({ name: 'devconsole-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(base + '/mcp'),
    { requestInit: { headers: { Authorization: `Bearer ${DEVCONSOLE_TOKEN}` } } }));
  return client;
}

/** A tool call's structured answer. */
export async function call(client, name, args, options) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  return { ...result.structuredContent, isError: result.isError === true, content: result.content };
}

/**
 * A scripted extension speaking the original 0.7 wire protocol: one /sync loop (or several, as the
 * original does after a tracking toggle), settings on every poll, commands run by `handlers[type]`
 * (async, may throw), results flushed at once, `last_command_ack` sticky.
 */
export class ScriptedExtension {
  constructor(base, { handlers = {}, tabId = 42, url = 'http://127.0.0.1/page.html', loops = 1, execute = true } = {}) {
    this.base = base;
    this.handlers = handlers;
    this.tabId = tabId;
    this.url = url;
    this.loops = loops;
    this.execute = execute;  // false: poll but never run or acknowledge anything (a stuck extension)
    this.sessionId = `ext_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    this.seen = new Set();
    this.results = [];
    this.running = new Map();
    this.lastAck = undefined;
    this.received = [];  // every command delivered, re-deliveries included
    this.syncs = 0;
    this.stopped = false;
    this.wakeLoop = () => {};
  }
  start() {
    this.done = Promise.all(Array.from({ length: this.loops }, () => this.loop()));
    return this;
  }
  async stop() {
    this.stopped = true;
    this.wakeLoop();
    await this.done;
  }
  async loop() {
    while (!this.stopped) {
      const results = this.results.splice(0);
      const request = {
        ext_session_id: this.sessionId,
        extension_version: '0.7.10',
        settings: {
          pilot_enabled: true, tracking_enabled: true, tracked_tab_id: this.tabId, tracked_tab_url: this.url,
          tracked_tab_title: 'scripted page', capture_logs: true, capture_network: true, capture_websocket: true,
          capture_actions: true, csp_restricted: false, csp_level: 'none',
        },
        in_progress: [...this.running.values()],
        ...(results.length ? { command_results: results } : {}),
        ...(this.lastAck ? { last_command_ack: this.lastAck } : {}),
      };
      let answer;
      try {
        answer = await post(this.base, '/sync', request);
        this.syncs++;
      } catch {
        this.results.unshift(...results);
        await sleep(200);
        continue;
      }
      if (answer.status !== 200) throw new Error(`/sync answered ${answer.status}: ${answer.text}`);
      for (const command of answer.body.commands) {
        this.received.push(command);
        if (!this.execute || this.seen.has(command.id)) continue;
        this.seen.add(command.id);
        this.run(command);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, answer.body.next_poll_ms);
        this.wakeLoop = () => { clearTimeout(timer); resolve(); };
      });
    }
  }
  async run(command) {
    const now = new Date().toISOString();
    this.running.set(command.id, {
      id: command.id, correlation_id: command.correlation_id, type: command.type, status: 'running',
      started_at: now, updated_at: now,
    });
    let result;
    try {
      const handler = this.handlers[command.type];
      if (!handler) throw new Error(`unknown command type ${command.type}`);
      result = { id: command.id, correlation_id: command.correlation_id, status: 'complete', result: await handler(command) };
    } catch (error) {
      result = { id: command.id, correlation_id: command.correlation_id, status: 'error', error: String(error.message ?? error) };
    }
    this.running.delete(command.id);
    if (this.stopped) return;
    this.results.push(result);
    this.lastAck = command.id;
    this.wakeLoop();  // the original flushes at once when a command finishes
  }
}
