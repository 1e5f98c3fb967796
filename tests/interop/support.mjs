// Shared helpers for the interop tests: where mcpkit is, and how to start its servers.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
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
export function startProcess(command, args, { env = process.env } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
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

/** A redis-server that keeps nothing on disk; resolves to { port, url, stop() }. */
export async function startRedis() {
  const port = await freePort();
  const child = startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await listening(child, port, 'redis-server');
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await child.exited;
    },
  };
}

/**
 * Makes, in `work`, a test CA (ca.pem) and certificates it signs: good.pem (127.0.0.1, localhost),
 * otherhost.pem (other.example) and expired.pem (2020), each with its .key.
 */
export function makeTestCertificates(work) {
  const file = (name) => path.join(work, name);
  const openssl = (...args) => execFileSync('openssl', args, { cwd: work, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2',
    '-subj', '/CN=mcpkit test CA');
  const sign = (name, names, dates) => {
    fs.writeFileSync(file(`${name}.ext`), `subjectAltName=${names}\n`);
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    if (!dates) {
      openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
        '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`);
      return;
    }
    // `openssl ca` is the tool that sets any validity period, past ones included.
    fs.writeFileSync(file('index.txt'), '');
    fs.writeFileSync(file('serial'), '1000\n');
    fs.writeFileSync(file('ca.cnf'), [
      '[ca]', 'default_ca = test', '[test]', `dir = ${work}`, `database = ${work}/index.txt`,
      `new_certs_dir = ${work}`, `serial = ${work}/serial`, 'default_md = sha256', 'policy = any',
      '[any]', 'commonName = supplied', ''].join('\n'));
    openssl('ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', `${name}.csr`,
      '-out', `${name}.pem`, '-startdate', dates[0], '-enddate', dates[1], '-extfile', `${name}.ext`, '-notext');
  };
  sign('good', 'IP:127.0.0.1,DNS:localhost');
  sign('otherhost', 'DNS:other.example');
  sign('expired', 'IP:127.0.0.1,DNS:localhost', ['20200101000000Z', '20200102000000Z']);
}

/** Runs a command to its end without blocking this process (which may host the servers it talks to). */
export function runProcess(command, args, { env = process.env, timeout = 30000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill(), timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
