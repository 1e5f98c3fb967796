// Shared by the review tests: the two editor-side implementations of the review IPC, started
// the same way, and a client for the protocol's raw lines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mcpkit, repo } from './support.mjs';

export const extensionDir = path.join(repo, 'extensions/vscode');
export const extensionStandalone = path.join(extensionDir, 'out/src/standalone.js');

export function temporaryDirectory(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function waitForLine(stream, pattern, ms = 10000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${ms} ms: ${seen}`)), ms);
    stream.setEncoding('utf8');
    stream.on('data', function listen(chunk) {
      seen += chunk;
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        stream.off('data', listen);
        resolve(match);
      }
    });
  });
}

/** `mcpkit review-panel` on `socket`; `current()` reads the review through the page's API. */
export async function startCppPanel(socket, { editor = 'true', discovery = '-', env = {} } = {}) {
  const child = spawn(mcpkit, ['review-panel', '--socket', socket, '--http', '127.0.0.1:0', '--discovery-file', discovery,
    '--editor', editor], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const [, url] = await waitForLine(child.stdout, /# review panel: (\S+)\n/);
  const page = new URL(url);
  return {
    name: 'mcpkit review-panel',
    child,
    url,
    stderr: () => stderr,
    async current() {
      const response = await fetch(new URL('/api/review?token=' + page.searchParams.get('token'), page));
      return (await response.json()).markdown;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** The VS Code extension's IPC core under Node; `current()` reads the state it writes before each reply. */
export async function startExtensionCore(socket) {
  const state = socket + '.state.json';
  const child = spawn(process.execPath, [extensionStandalone, socket, state], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForLine(child.stderr, /listening on /);
  return {
    name: 'VS Code extension core',
    child,
    async current() { return fs.existsSync(state) ? JSON.parse(fs.readFileSync(state, 'utf8')).markdown : ''; },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** A raw protocol connection: write bytes, collect reply lines. */
export class IpcConnection {
  static open(socket) {
    return new Promise((resolve, reject) => {
      const connection = new IpcConnection(net.connect(socket));
      connection.socket.once('connect', () => resolve(connection));
      connection.socket.once('error', reject);
    });
  }
  constructor(socket) {
    this.socket = socket;
    this.replies = [];
    this.waiters = [];
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        this.replies.push(JSON.parse(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
      }
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }
  write(text) { return new Promise((resolve) => this.socket.write(text, resolve)); }
  /** Waits for `count` replies in all. */
  async replies_(count, ms = 10000) {
    const end = Date.now() + ms;
    while (this.replies.length < count) {
      if (Date.now() > end) throw new Error(`only ${this.replies.length} of ${count} replies within ${ms} ms`);
      await new Promise((resolve) => { this.waiters.push(resolve); setTimeout(resolve, 50); });
    }
    return this.replies.slice(0, count);
  }
  close() { this.socket.destroy(); }
}

export function request(id, payload, type = 'present-review') {
  return JSON.stringify({ type, payload, id }) + '\n';
}
