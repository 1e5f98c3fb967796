// Shared helpers for the interop tests: where mcpkit is, and how to start its servers.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const mcpkit = process.env.MCPKIT ?? path.join(repo, 'build/release/mcpkit');

/** Waits `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds or `ms` passes; returns whether it held. */
export async function eventually(condition, ms = 5000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return true;
    await sleep(20);
  }
  return condition();
}

/**
 * A raw stdio session with a server: send lines, await parsed JSON lines.
 * Used where the exact bytes on the wire are the point of the test.
 */
export class RawSession {
  constructor(command, args = []) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.buffer = '';
    this.messages = [];
    this.lines = [];  // every line as it came, for tests about the exact bytes
    this.waiters = [];
    this.stderr = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      this.buffer += chunk;
      let newline;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() === '') continue;
        this.lines.push(line);
        this.messages.push(JSON.parse(line)); // stdout must carry only protocol: JSON.parse throws otherwise
        this.wake();
      }
    });
    this.child.stderr.on('data', (chunk) => { this.stderr += chunk; });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }
  wake() {
    for (const waiter of [...this.waiters]) waiter();
  }
  write(text) { this.child.stdin.write(text); }
  send(message) { this.write(JSON.stringify(message) + '\n'); }
  /** The first message (ever received, not yet taken) matching `predicate`. */
  async take(predicate, ms = 5000) {
    const end = Date.now() + ms;
    for (;;) {
      const index = this.messages.findIndex(predicate);
      if (index >= 0) return this.messages.splice(index, 1)[0];
      if (Date.now() > end) throw new Error(`no matching message within ${ms} ms; stderr: ${this.stderr}`);
      await new Promise((resolve) => {
        const done = () => { this.waiters = this.waiters.filter((w) => w !== done); resolve(); };
        this.waiters.push(done);
        setTimeout(done, 50);
      });
    }
  }
  response(id, ms) { return this.take((m) => m.id === id && !('method' in m), ms); }
  async request(id, method, params, ms) {
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.response(id, ms);
  }
  async initialize(version = '2025-11-25', capabilities = {}) {
    const answer = await this.request(0, 'initialize', {
      protocolVersion: version, capabilities, clientInfo: { name: 'raw-test', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answer;
  }
  close() { this.child.stdin.end(); return this.exited; }
}

/** A TCP port on loopback that nothing listens on just now. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on `port`. */
export async function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** A child process whose stderr is kept for failure messages. */
export function startProcess(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.output = '';
  child.stderr.on('data', (chunk) => { child.output += chunk; });
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

/** Waits until `child` listens on `port`, or fails with what it printed. */
export async function listening(child, port, what) {
  if (!(await eventually(() => accepts(port), 10000)))
    throw new Error(`${what} did not listen on ${port}: ${child.output}`);
}
