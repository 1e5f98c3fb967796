// Chat host benchmark: `mcpkit host` against a host on the seed's own stack (bench/node-host:
// Fastify + @fastify/websocket + the official MCP TypeScript SDK client), in one run, both against
// the same fake streaming LLM and the same MCP server (`mcpkit everything` over stdio). Figures and
// ratios, not pass/fail, except that a wrong answer makes the run fail. Started by run-host.sh.
//
//   node host-bench.mjs MCPKIT [SECONDS] [IDLE_CONNECTIONS]
//     env HOST_LOAD (the host_load binary, bench/host-load/: the fake LLM and the turns driver in C++),
//         TTFT_SAMPLES (default 1000), TTFT_GAP_MS (default 3: the pause before each host's sample),
//         TTFT_DUMP (a file for the TTFT samples, in order), SESSIONS (default 100), WARMUP_SECONDS (default 6), ROUNDS (default 2),
//         FAKE_LLM=native|lean|tests (default native: host_load's; lean: bench/host-fake-llm.mjs, the same
//         events from Node; tests: tests/interop/fake-llm.mjs), DRIVER=native|node (default native: the
//         turns of b) driven by host_load; node: by this script), PARTS (default abc: which of the
//         measurements below to make), BASELINE_MCPKIT (another mcpkit binary to measure in the Node
//         host's place: an A/B of two builds in one run, see ab-host.sh; the targets then mean nothing)
//
// Each host runs pinned to CPU 0 (its MCP server, a child, inherits the pin); the fake LLM and this
// driver run on CPU 1 (run-host.sh pins the driver). Both hosts: the same mcp.json ("approval":
// "auto", so mcpkit runs the tool without asking, as the Node host does), the same LLM settings,
// log level warn (neither writes a line per turn), sessions in memory.
//
// a) Time to first token: a POST straight to the fake (stream: true, the very body mcpkit sent for
//    such a message, replayed, on a kept-alive connection as lean as the driver's WebSocket
//    client) until the first SSE event with content, against a WebSocket `message` (`echo …`)
//    until the first `text` frame, through each host; sequential, the three alternating sample by
//    sample so that a slow moment of the machine hits all alike, with TTFT_GAP_MS before each
//    host's sample: the hosts share CPU 0, and without a gap, work a host still does after its
//    answer lands in the next host's sample (mcpkit's samples, which follow Node's, had 5-8 ms
//    outliers 1 time in 150 that the direct ones, on the other core, did not); a person's messages
//    come seconds apart anyway. 3 ms, not more: after 10 ms the VM's cores idle deeper and every
//    p50 doubled, the direct one included. Each chat cleared first (`clear`, acknowledged by its
//    `history` frame). Every answer is checked whole. Added = a host's percentile minus the
//    direct one.
// b) Turns with one tool call (`call everything__echo {"text": UNIQUE}` → tool → the model's
//    `Tool everything__echo answered: "UNIQUE"`), SESSIONS WebSockets each running turns back to
//    back (each turn sent after a `clear`, so every turn makes the same two LLM requests instead of
//    a history growing into the context window). Each session first makes one turn, ten sessions
//    at a time (so each host has its LLM connections before the load: the fake, being Node, accepts
//    one new connection per event-loop iteration when busy), then WARMUP_SECONDS, then SECONDS
//    measured in ROUNDS windows alternating between the hosts (1 s of warm-up before each later
//    one): turns/s (turns that ended in a window), turn latency (turns that started in one),
//    CPU time of the host process and, apart, of its MCP server (/proc/PID/stat), and how busy the
//    load core was (fake LLM + driver), which says whether the host was the limit.
// c) IDLE_CONNECTIONS idle WebSockets on a fresh host, each open once its `connection` frame came:
//    the host's resident memory (VmRSS) before and after, and per connection.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const [mcpkitArgument, secondsArgument, idleArgument] = process.argv.slice(2);
if (!mcpkitArgument) throw new Error('usage: node host-bench.mjs MCPKIT [SECONDS] [IDLE_CONNECTIONS]');
const mcpkit = path.resolve(mcpkitArgument);
const seconds = Number(secondsArgument ?? 10);
const idleConnections = Number(idleArgument ?? 10000);
const ttftSamples = Number(process.env.TTFT_SAMPLES ?? 1000);
const ttftGapMs = Number(process.env.TTFT_GAP_MS ?? 3);
const sessionCount = Number(process.env.SESSIONS ?? 100);
const warmupSeconds = Number(process.env.WARMUP_SECONDS ?? 6);
const rounds = Math.max(1, Number(process.env.ROUNDS ?? 2));
const fakeKind = process.env.FAKE_LLM ?? 'native';
const driverKind = process.env.DRIVER ?? 'native';
const hostLoad = process.env.HOST_LOAD ? path.resolve(process.env.HOST_LOAD) : path.join(repo, 'build/release/bench/host_load');
if ((fakeKind === 'native' || driverKind === 'native') && !fs.existsSync(hostLoad)) {
  throw new Error(`no host_load binary at ${hostLoad} (set HOST_LOAD, or FAKE_LLM=lean DRIVER=node)`);
}
const fakeNames = { native: 'host_load fake-llm (C++)', lean: 'bench/host-fake-llm.mjs', tests: 'tests/interop/fake-llm.mjs' };
const parts = process.env.PARTS ?? 'abc'; // which measurements to make (for debugging the benchmark itself)
const cpus = os.cpus().length;
const ticks = 100; // clock ticks per second (getconf CLK_TCK on Linux)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'host-bench-'));
const baseline = process.env.BASELINE_MCPKIT ? path.resolve(process.env.BASELINE_MCPKIT) : null;
const names = baseline ? { mcpkit: 'mcpkit (candidate)', node: 'mcpkit (baseline)' } : { mcpkit: 'mcpkit', node: 'Node host' };
const kinds = ['mcpkit', 'node'];
let wrongAnswers = 0;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pinned = (cpu, command, args) => (cpus > 1 ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]);

function percentile(samples, p) {
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU seconds (user + system, all threads) and resident memory of a process. */
function processStat(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks, rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024 };
}

/** The processes whose parent is `pid` (the host's MCP server). */
function childrenOf(pid) {
  const children = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch { /* gone */ }
  }
  return children;
}

const cpuOf = (pids) => pids.reduce((sum, pid) => {
  try { return sum + processStat(pid).cpuSeconds; } catch { return sum; }
}, 0);

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, child, what) {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${child.output()}`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`${what} is not listening on ${port}: ${child.output()}`);
}

// Whatever this driver started goes when it goes, even when interrupted.
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function start(cpu, command, args, env, { stdin = 'ignore' } = {}) {
  const [file, argv] = pinned(cpu, command, args);
  const child = spawn(file, argv, { env, stdio: [stdin, 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const keep = (chunk) => { output = (output + chunk).slice(-20000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.output = () => output;
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  return child;
}

async function stop(child) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  if (!(await Promise.race([child.exited.then(() => true), sleep(5000).then(() => false)]))) {
    child.kill('SIGKILL');
    await child.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// The fake LLM and the hosts.

async function startFakeLlm() {
  const port = await freePort();
  const child = fakeKind === 'native'
    ? start(1, hostLoad, ['fake-llm', '--port', String(port), '--api-key', 'test-key'], process.env)
    : start(1, process.execPath, [fakeKind === 'tests' ? path.join(repo, 'tests/interop/fake-llm.mjs') : path.join(here, 'host-fake-llm.mjs'),
      '--port', String(port), '--api-key', 'test-key'], process.env);
  await waitForPort(port, child, 'the fake LLM');
  return { child, port, url: `http://127.0.0.1:${port}` };
}

// mcpkit's host needs a token on every request (the Node host ignores it); the C++ load driver
// reads it from the environment too.
process.env.MCPKIT_HOST_TOKEN ||= 'bench-token';
const wsPath = `/ws?token=${process.env.MCPKIT_HOST_TOKEN}`;

const configFile = path.join(work, 'mcp.json');
fs.writeFileSync(configFile, JSON.stringify({ mcpServers: { everything: { command: mcpkit, args: ['everything'], approval: 'auto' } } }, null, 2));

async function startHost(kind, llm) {
  const port = await freePort();
  const env = { ...process.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: 'fake-model' };
  delete env.GEMINI_API_KEY;
  const child = kind === 'mcpkit' || baseline
    ? start(0, kind === 'mcpkit' ? mcpkit : baseline,
      ['host', '--http', `127.0.0.1:${port}`, '--store', 'memory', '--config', configFile, '--log-level', 'warn'], env)
    : start(0, process.execPath, [path.join(here, 'node-host/src/server.mjs')],
      { ...env, PORT: String(port), MCP_JSON_PATH: configFile, LOG_LEVEL: 'warn', NODE_ENV: 'production' });
  await waitForPort(port, child, names[kind]);
  const host = { kind, child, port, pid: child.pid, mcpServers: [] };
  // Ready once a turn with a tool call answers right (mcpkit listens before its servers are up).
  const page = await openPage(port);
  for (let attempt = 0; ; attempt++) {
    const unique = `warm-${attempt}`;
    const turn = await page.turn(`call everything__echo {"text":"${unique}"}`, { clear: true });
    if (turn.text === `Tool everything__echo answered: "${unique}"`) break;
    if (attempt > 100) throw new Error(`${names[kind]} never answered a tool call right; last: ${JSON.stringify(turn)}\n${child.output()}`);
    await sleep(100);
  }
  page.close();
  host.mcpServers = childrenOf(host.pid);
  if (host.mcpServers.length !== 1) throw new Error(`${names[kind]}: expected one MCP server child, found ${host.mcpServers.length}`);
  return host;
}

// ---------------------------------------------------------------------------------------------
// A page: one WebSocket, frames handed to whoever waits for them. The client is a minimal RFC 6455
// one on a plain socket (masked text frames out; text, continuation, ping and close in) rather than
// Node's WebSocket, whose per-frame cost would make this driver, not the host, the limit.

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frameOf(opcode, payload) {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else if (length < 65536) { frame[1] = 0x80 | 126; frame.writeUInt16BE(length, 2); } else { frame[1] = 0x80 | 127; frame.writeBigUInt64BE(BigInt(length), 2); }
  const mask = (Math.random() * 0x100000000) >>> 0;
  frame.writeUInt32BE(mask, header);
  const key = [mask >>> 24, (mask >>> 16) & 0xff, (mask >>> 8) & 0xff, mask & 0xff];
  for (let i = 0; i < length; i++) frame[header + 4 + i] = payload[i] ^ key[i & 3];
  return frame;
}

/**
 * Connects to ws://127.0.0.1:PORT/ws; resolves once upgraded (`onOpen(ws)` is called then, before any
 * frame). `onMessage(bytes)` gets each data message (a Buffer, valid only during the call).
 */
function rawWebSocket(port, onMessage, onOpen) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const key = randomBytes(16).toString('base64');
    const ws = {
      open: false,
      send(text) { if (!socket.destroyed) socket.write(frameOf(1, Buffer.from(text))); },
      close() {
        if (socket.destroyed) return;
        socket.end(frameOf(8, Buffer.from([0x03, 0xe8])));
        ws.open = false;
      },
    };
    let upgraded = false;
    let buffer = Buffer.alloc(0);
    let fragments = [];
    socket.on('connect', () => socket.write(`GET ${wsPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`));
    socket.on('data', (chunk) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.toString('latin1', 0, end);
        const accept = createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64');
        const acceptHeader = head.split('\r\n').find((line) => /^sec-websocket-accept:/i.test(line));
        if (!/^HTTP\/1\.1 101 /.test(head) || acceptHeader?.slice(acceptHeader.indexOf(':') + 1).trim() !== accept) {
          socket.destroy();
          reject(new Error(`the WebSocket upgrade failed: ${head.slice(0, 300)}`));
          return;
        }
        upgraded = true;
        ws.open = true;
        buffer = buffer.subarray(end + 4);
        onOpen?.(ws);
        resolve(ws);
      }
      let offset = 0;
      while (buffer.length - offset >= 2) {
        const opcode = buffer[offset] & 0x0f;
        const fin = (buffer[offset] & 0x80) !== 0;
        const masked = (buffer[offset + 1] & 0x80) !== 0;
        let length = buffer[offset + 1] & 0x7f;
        let at = offset + 2;
        if (length === 126) {
          if (buffer.length - at < 2) break;
          length = buffer.readUInt16BE(at);
          at += 2;
        } else if (length === 127) {
          if (buffer.length - at < 8) break;
          length = Number(buffer.readBigUInt64BE(at));
          at += 8;
        }
        if (masked) at += 4; // a server never masks; skipped rather than trusted
        if (buffer.length - at < length) break;
        const payload = buffer.subarray(at, at + length);
        offset = at + length;
        if (opcode === 1 || opcode === 2 || opcode === 0) {
          if (fin && fragments.length === 0) onMessage(payload);
          else {
            fragments.push(Buffer.from(payload));
            if (fin) {
              onMessage(Buffer.concat(fragments));
              fragments = [];
            }
          }
        } else if (opcode === 9) {
          socket.write(frameOf(10, payload));
        } else if (opcode === 8) {
          ws.close();
        }
      }
      buffer = offset === buffer.length ? Buffer.alloc(0) : buffer.subarray(offset);
    });
    socket.on('error', (error) => { if (!upgraded) reject(error); });
    socket.on('close', () => {
      if (!upgraded) reject(new Error('the connection closed during the WebSocket upgrade'));
      ws.open = false;
    });
  });
}

function openPage(port) {
  return new Promise((resolve, reject) => {
    const page = {
      ws: null, sessionId: null, waiter: null,
      send(type, payload = {}) { page.ws.send(JSON.stringify({ type, payload })); },
      close() { page.ws?.close(); },
      /** Resolves with the next frame for which `handle(frame)` returns something other than undefined. */
      until(handle, ms = 30000) {
        return new Promise((done, fail) => {
          const timer = setTimeout(() => { page.waiter = null; fail(new Error(`no awaited frame within ${ms} ms`)); }, ms);
          page.waiter = (frame) => {
            const result = handle(frame);
            if (result === undefined) return;
            clearTimeout(timer);
            page.waiter = null;
            done(result);
          };
        });
      },
      /**
       * One turn: (clear, acknowledged, unless `pipelined`) message; resolves { state, text, firstTextMs, totalMs }
       * with times from the message's send.
       */
      async turn(text, { clear = false, pipelined = false } = {}) {
        if (clear) {
          const cleared = pipelined ? null : page.until((frame) => (frame.type === 'history' ? true : undefined));
          page.send('clear');
          if (cleared) await cleared;
        }
        let turnId = null;
        let streamed = '';
        let firstTextMs = null;
        let started = 0;
        const ended = page.until((frame) => {
          const { type, payload } = frame;
          if (type === 'turn' && payload.state === 'started' && turnId === null) turnId = payload.turnId;
          else if (type === 'text' && payload.turnId === turnId) {
            firstTextMs ??= performance.now() - started;
            streamed += payload.content;
          } else if (type === 'turn' && payload.turnId === turnId) {
            return { state: payload.state, message: payload.message, text: streamed, firstTextMs, totalMs: performance.now() - started };
          } else if (type === 'error') return { state: 'error', message: payload.message, text: streamed, firstTextMs, totalMs: 0 };
          return undefined;
        });
        started = performance.now();
        page.send('message', { text });
        return ended;
      },
    };
    let opened = false;
    const onMessage = (bytes) => {
      if (opened && !page.waiter) return; // nobody waits: not even decoded
      const text = bytes.toString('utf8');
      if (!opened) {
        let frame;
        try { frame = JSON.parse(text); } catch { frame = null; }
        if (frame?.type !== 'connection' || !frame.payload?.sessionId) {
          page.close();
          reject(new Error(`the first frame was not a connection frame: ${text.slice(0, 300)}`));
          return;
        }
        opened = true;
        page.sessionId = frame.payload.sessionId;
        resolve(page);
        return;
      }
      if (page.waiter) page.waiter(JSON.parse(text));
    };
    rawWebSocket(port, onMessage, (ws) => { page.ws = ws; }).catch(reject);
  });
}

// a) Time to first token.

/**
 * A keep-alive HTTP/1.1 connection to the fake, as lean as the driver's WebSocket client (so that
 * the direct path does not carry more client overhead than the path through a host).
 * `request(body)` streams one chat completion; resolves { firstContentMs, text, status }.
 */
function directConnection(port) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let current = null;
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    const r = current;
    if (!r) return;
    if (r.status === null) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      r.status = Number(buffer.toString('latin1', 9, 12));
      buffer = buffer.subarray(end + 4);
    }
    // Chunked body: size line, data, CRLF; the SSE events inside.
    for (;;) {
      const line = buffer.indexOf('\r\n');
      if (line < 0) return;
      const size = parseInt(buffer.toString('latin1', 0, line), 16);
      if (buffer.length < line + 2 + size + 2) return;
      r.sse += buffer.toString('utf8', line + 2, line + 2 + size);
      buffer = buffer.subarray(line + 2 + size + 2);
      let end;
      while ((end = r.sse.indexOf('\n\n')) >= 0) {
        const event = r.sse.slice(0, end);
        r.sse = r.sse.slice(end + 2);
        if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
        const content = JSON.parse(event.slice(6)).choices?.[0]?.delta?.content;
        if (typeof content === 'string' && content !== '') {
          r.firstContentMs ??= performance.now() - r.started;
          r.text += content;
        }
      }
      if (size === 0) {
        current = null;
        r.resolve({ firstContentMs: r.firstContentMs, text: r.text, status: r.status });
        return;
      }
    }
  });
  const ready = new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    async request(body) {
      await ready;
      const payload = Buffer.from(JSON.stringify(body));
      const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`
        + `Authorization: Bearer test-key\r\nAccept: text/event-stream\r\nContent-Length: ${payload.length}\r\n\r\n`;
      return new Promise((resolve) => {
        current = { resolve, status: null, sse: '', text: '', firstContentMs: null, started: performance.now() };
        socket.write(Buffer.concat([Buffer.from(head), payload]));
      });
    },
    close() { socket.destroy(); },
  };
}

async function timeToFirstToken(hosts, llm) {
  const pages = {};
  for (const kind of kinds) pages[kind] = await openPage(hosts[kind].port);
  await sleep(300); // the frames a host sends after `connection` (mcpkit: history, servers, usage) pass unread
  // The body mcpkit sends for an `echo` message, replayed straight to the fake.
  await pages.mcpkit.turn('echo template', { clear: true });
  const template = fakeKind === 'tests' ? (await (await fetch(`${llm.url}/_requests`)).json()).at(-1).body
    : await (await fetch(`${llm.url}/_last`)).json();
  const userIndex = template.messages.findLastIndex((message) => message.role === 'user');
  if (userIndex < 0 || template.messages[userIndex].content !== 'echo template') {
    throw new Error(`the replayed request is not the template: ${JSON.stringify(template).slice(0, 500)}`);
  }
  const direct = directConnection(llm.port);
  const samples = { direct: [], mcpkit: [], node: [] };
  const warmup = Math.min(50, ttftSamples);
  for (let i = 0; i < warmup + ttftSamples; i++) {
    const words = `alpha beta gamma t${i}-${Math.random().toString(36).slice(2, 10)}`;
    const expected = words;
    template.messages[userIndex].content = `echo ${words}`;
    const answer = await direct.request(template);
    if (answer.status !== 200 || answer.text !== expected || answer.firstContentMs === null) {
      wrongAnswers++;
      console.error(`direct: wrong answer ${JSON.stringify(answer)} for ${expected}`);
    }
    if (i >= warmup) samples.direct.push(answer.firstContentMs);
    for (const kind of kinds) {
      // Both hosts share CPU 0: what one does after its answer (Node's garbage collector) must be
      // over before the other is timed, as it would be between a person's messages.
      await sleep(ttftGapMs);
      const turn = await pages[kind].turn(`echo ${words}`, { clear: true });
      if (turn.state !== 'finished' || turn.text !== expected || turn.firstTextMs === null) {
        wrongAnswers++;
        console.error(`${names[kind]}: wrong answer ${JSON.stringify(turn)} for ${expected}`);
      }
      if (i >= warmup) samples[kind].push(turn.firstTextMs);
    }
  }
  direct.close();
  for (const kind of kinds) pages[kind].close();
  // The samples in order (direct, mcpkit and Node's i-th were taken one after the other), for a
  // look at the tail: TTFT_DUMP=FILE.
  if (process.env.TTFT_DUMP) fs.writeFileSync(process.env.TTFT_DUMP, JSON.stringify(samples));
  const summary = (list) => ({ p50: percentile(list, 50), p99: percentile(list, 99) });
  const result = { direct: summary(samples.direct) };
  for (const kind of kinds) {
    const via = summary(samples[kind]);
    // Added latency per sample pair would mix two distributions' noise; the added p50 (p99) is the
    // host's p50 (p99) minus the direct one.
    result[kind] = { ...via, addedP50: via.p50 - result.direct.p50, addedP99: via.p99 - result.direct.p99 };
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// b) Turns with a tool call, SESSIONS at once.

/** SESSIONS open pages on a host, each of which has made one turn (so the host has its LLM connections). */
async function loadPages(host) {
  const pages = [];
  for (let i = 0; i < sessionCount; i++) pages.push(await openPage(host.port));
  // Ten at a time: under load, Node (the fake LLM here) accepts one new connection per event-loop
  // iteration, which left the late sessions of a fast host waiting seconds for their first answer.
  for (let i = 0; i < pages.length; i += 10) {
    await Promise.all(pages.slice(i, i + 10).map((page, j) => page.turn(`echo warm ${i + j}`, { clear: true })));
  }
  return pages;
}

/**
 * Every page runs tool-call turns back to back: `warmup` seconds, then `window` seconds measured.
 * Throughput counts the turns that ended in the window; latency, those that started in it.
 */
async function loadWindow(host, pages, llm, warmup, window) {
  let measuring = false;
  let running = true;
  const result = { completed: 0, wrong: 0, latencies: [] };
  let serial = 0;
  async function loop(page, index) {
    while (running) {
      const unique = `s${index}-${++serial}-${Math.random().toString(36).slice(2, 10)}`;
      const startedInWindow = measuring;
      const turn = await page.turn(`call everything__echo {"text":"${unique}"}`, { clear: true, pipelined: true });
      if (turn.state !== 'finished' || turn.text !== `Tool everything__echo answered: "${unique}"`) {
        result.wrong++;
        if (result.wrong <= 5) console.error(`${names[host.kind]}: wrong answer ${JSON.stringify(turn)} for ${unique}`);
      }
      if (measuring) result.completed++;
      if (startedInWindow) result.latencies.push(turn.totalMs);
    }
  }
  const loops = pages.map((page, i) => loop(page, i));
  await sleep(warmup * 1000);
  const selfBefore = process.cpuUsage();
  const before = { host: cpuOf([host.pid]), mcp: cpuOf(host.mcpServers), fake: cpuOf([llm.child.pid]) };
  const startedAt = performance.now();
  measuring = true;
  await sleep(window * 1000);
  measuring = false;
  result.elapsed = (performance.now() - startedAt) / 1000;
  const after = { host: cpuOf([host.pid]), mcp: cpuOf(host.mcpServers), fake: cpuOf([llm.child.pid]) };
  const self = process.cpuUsage(selfBefore);
  running = false;
  await Promise.all(loops);
  result.hostCpu = after.host - before.host;
  result.mcpCpu = after.mcp - before.mcp;
  result.fakeCpu = after.fake - before.fake;
  result.driverCpu = (self.user + self.system) / 1e6;
  return result;
}

/**
 * The same, driven by `host_load turns` (pinned to the load core with the fake): SESSIONS pages
 * open and each makes one turn, then each window is run / measure / stop on its stdin, the CPU
 * of every process read around `measure` and `stop` as above.
 */
async function nativeLoad(host) {
  const driver = start(1, hostLoad, ['turns', '--port', String(host.port), '--sessions', String(sessionCount)], process.env,
    { stdin: 'pipe' });
  const lines = [];
  let waiting = null;
  let pending = '';
  driver.stdout.on('data', (chunk) => {
    pending += chunk;
    for (let end; (end = pending.indexOf('\n')) >= 0;) {
      lines.push(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
    if (waiting && lines.length) waiting();
  });
  const nextLine = async (ms) => {
    const deadline = Date.now() + ms;
    while (!lines.length) {
      if (driver.exitCode !== null) throw new Error(`host_load turns exited (${driver.exitCode}): ${driver.output()}`);
      if (Date.now() > deadline) throw new Error(`host_load turns said nothing within ${ms} ms: ${driver.output()}`);
      await Promise.race([new Promise((resolve) => { waiting = resolve; }), sleep(100)]);
      waiting = null;
    }
    return lines.shift();
  };
  const ready = await nextLine(60000);
  if (ready !== 'ready') throw new Error(`host_load turns: ${ready}`);
  return {
    async window(llm, warmup, window) {
      driver.stdin.write('run\n');
      await sleep(warmup * 1000);
      const before = { host: cpuOf([host.pid]), mcp: cpuOf(host.mcpServers), fake: cpuOf([llm.child.pid]), driver: cpuOf([driver.pid]) };
      const startedAt = performance.now();
      driver.stdin.write('measure\n');
      await sleep(window * 1000);
      driver.stdin.write('stop\n');
      const elapsed = (performance.now() - startedAt) / 1000;
      const after = { host: cpuOf([host.pid]), mcp: cpuOf(host.mcpServers), fake: cpuOf([llm.child.pid]), driver: cpuOf([driver.pid]) };
      const report = JSON.parse(await nextLine(30000));
      for (const sample of report.wrongSamples) console.error(`${names[host.kind]}: wrong answer: ${sample}`);
      return {
        completed: report.completed, wrong: report.wrong, latencies: report.latencies, elapsed,
        hostCpu: after.host - before.host, mcpCpu: after.mcp - before.mcp, fakeCpu: after.fake - before.fake,
        driverCpu: after.driver - before.driver,
      };
    },
    close() { driver.stdin.end('quit\n'); },
  };
}

/** The windows of one host put together. */
function turnFigures(windows) {
  const sum = (key) => windows.reduce((total, w) => total + w[key], 0);
  const elapsed = sum('elapsed');
  const completed = sum('completed');
  const latencies = windows.flatMap((w) => w.latencies);
  const [hostCpu, mcpCpu, fakeCpu, driverCpu] = ['hostCpu', 'mcpCpu', 'fakeCpu', 'driverCpu'].map(sum);
  return {
    turnsPerSecond: completed / elapsed, completed, wrong: sum('wrong'), elapsed, windows: windows.length,
    perWindow: windows.map((w) => ({ turnsPerSecond: w.completed / w.elapsed, hostBusy: w.hostCpu / w.elapsed,
      loadBusy: (w.fakeCpu + w.driverCpu) / w.elapsed })),
    p50: percentile(latencies, 50), p99: percentile(latencies, 99),
    hostCpu, mcpCpu, hostBusy: hostCpu / elapsed, loadBusy: (fakeCpu + driverCpu) / elapsed, fakeBusy: fakeCpu / elapsed,
    driverBusy: driverCpu / elapsed, hostCpuMsPerTurn: (hostCpu * 1000) / completed, mcpCpuMsPerTurn: (mcpCpu * 1000) / completed,
  };
}

// ---------------------------------------------------------------------------------------------
// c) Idle connections.

async function idle(kind, llm) {
  const host = await startHost(kind, llm);
  await sleep(3000); // start-up settled, the everything server's late tool listed
  const before = processStat(host.pid).rssMb;
  const sockets = [];
  let failed = 0;
  const batch = 250;
  const startedAt = performance.now();
  for (let i = 0; i < idleConnections; i += batch) {
    const opened = await Promise.allSettled(Array.from({ length: Math.min(batch, idleConnections - i) }, () => openPage(host.port)));
    for (const result of opened) {
      if (result.status === 'fulfilled') sockets.push(result.value);
      else if (++failed <= 3) console.error(`${names[kind]}: a connection failed: ${result.reason.message}`);
    }
  }
  const openSeconds = (performance.now() - startedAt) / 1000;
  await sleep(2000);
  const open = sockets.filter((page) => page.ws.open).length;
  const after = processStat(host.pid).rssMb;
  for (const page of sockets) page.close();
  await sleep(1000);
  await stop(host.child);
  return { before, after, open, failed, openSeconds, perConnectionKb: ((after - before) * 1024) / open };
}

// ---------------------------------------------------------------------------------------------

const fmt = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
console.log(`chat host benchmark: ${cpus} CPUs, Node ${process.version}, ${seconds} s measured (after ${warmupSeconds} s warm-up) with ` +
  `${sessionCount} sessions, ${ttftSamples} TTFT samples, ${idleConnections.toLocaleString('en')} idle connections, ` +
  `fake LLM: ${fakeNames[fakeKind]}, turns driven by ${driverKind === 'native' ? 'host_load turns (C++)' : 'this script'}`);
if (cpus < 2) console.log('warning: one CPU, nothing pinned: the load shares the host\'s core');

const llm = await startFakeLlm();
const results = { mcpkit: {}, node: {} };
try {
  if (parts.includes('a') || parts.includes('b')) {
    const hosts = {};
    for (const kind of kinds) hosts[kind] = await startHost(kind, llm);
    // The everything server adds a tool 2 s after it starts (list_changed): both hosts offer the
    // same 38 tools from then on.
    await sleep(3000);
    if (parts.includes('a')) {
      console.log(`\na) time to first token, ${ttftSamples} sequential samples each (direct, mcpkit, Node host alternating)…`);
      results.ttft = await timeToFirstToken(hosts, llm);
      const { ttft } = results;
      console.log('   ms          p50      p99      added p50  added p99');
      console.log(`   direct      ${fmt(ttft.direct.p50, 3).padStart(7)}  ${fmt(ttft.direct.p99, 3).padStart(7)}`);
      for (const kind of kinds) {
        console.log(`   ${names[kind].padEnd(11)} ${fmt(ttft[kind].p50, 3).padStart(7)}  ${fmt(ttft[kind].p99, 3).padStart(7)}  ` +
          `${fmt(ttft[kind].addedP50, 3).padStart(9)}  ${fmt(ttft[kind].addedP99, 3).padStart(9)}`);
      }
    }
    if (parts.includes('b')) {
      console.log(`\nb) ${sessionCount} sessions running tool-call turns back to back, ${rounds} windows of ` +
        `${fmt(seconds / rounds, 1)} s per host, the hosts alternating…`);
      const pages = {};
      const loads = {};
      const windows = { mcpkit: [], node: [] };
      for (const kind of kinds) {
        if (driverKind === 'native') loads[kind] = await nativeLoad(hosts[kind]);
        else pages[kind] = await loadPages(hosts[kind]);
      }
      for (let round = 0; round < rounds; round++) {
        for (const kind of kinds) {
          const warmup = round === 0 ? warmupSeconds : 1;
          windows[kind].push(driverKind === 'native' ? await loads[kind].window(llm, warmup, seconds / rounds)
            : await loadWindow(hosts[kind], pages[kind], llm, warmup, seconds / rounds));
        }
      }
      for (const kind of kinds) {
        loads[kind]?.close();
        for (const page of pages[kind] ?? []) page.close();
        const t = results[kind].turns = turnFigures(windows[kind]);
        wrongAnswers += t.wrong;
        console.log(`   ${names[kind]}: ${t.completed} turns in ${fmt(t.elapsed, 1)} s (${t.wrong} wrong): ${fmt(t.turnsPerSecond, 0)} turns/s ` +
          `(windows: ${t.perWindow.map((w) => `${fmt(w.turnsPerSecond, 0)} at ${fmt(w.hostBusy * 100, 0)}/${fmt(w.loadBusy * 100, 0)}%`).join(', ')}` +
          ` host/load core busy), latency p50 ` +
          `${fmt(t.p50)} ms p99 ${fmt(t.p99)} ms\n   CPU: host ${fmt(t.hostCpu)} s (${fmt(t.hostBusy * 100, 0)}% of its core, ` +
          `${fmt(t.hostCpuMsPerTurn, 3)} ms/turn), its MCP server ${fmt(t.mcpCpu)} s (${fmt(t.mcpCpuMsPerTurn, 3)} ms/turn); ` +
          `load core ${fmt(t.loadBusy * 100, 0)}% busy (fake LLM ${fmt(t.fakeBusy * 100, 0)}%, driver ${fmt(t.driverBusy * 100, 0)}%)`);
        if (t.hostBusy < 0.9) {
          console.log(`   note: ${names[kind]} used ${fmt(t.hostBusy * 100, 0)}% of its core, so its turns/s is a floor` +
            `${t.loadBusy > 0.9 ? ' set by the load core' : ''}; the CPU per turn is the figure to compare`);
        }
      }
    }
    for (const kind of kinds) {
      await stop(hosts[kind].child);
      const lines = hosts[kind].child.output().split('\n').filter(Boolean);
      if (lines.length) console.log(`\n${names[kind]} logged ${lines.length} lines (warn and above); the last:\n  ${lines.slice(-5).join('\n  ')}`);
    }
  }
  if (parts.includes('c')) {
    for (const kind of kinds) {
      console.log(`\nc) ${names[kind]}: ${idleConnections.toLocaleString('en')} idle WebSockets on a fresh host…`);
      const c = results[kind].idle = await idle(kind, llm);
      console.log(`   ${c.open.toLocaleString('en')} open (${c.failed} failed, opened in ${fmt(c.openSeconds, 1)} s): ` +
        `RSS ${fmt(c.before, 1)} MB before, ${fmt(c.after, 1)} MB after, ${fmt(c.perConnectionKb, 1)} KB per connection`);
    }
  }
} finally {
  await stop(llm.child);
  fs.rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The summary.

const m = results.mcpkit;
const n = results.node;
const rows = [];
const betterRatio = (a, b, better) => (better === 'lower' ? b / a : a / b);
if (results.ttft) {
  const { ttft } = results;
  rows.push(['TTFT direct p50 / p99 (ms)', `${fmt(ttft.direct.p50, 3)} / ${fmt(ttft.direct.p99, 3)}`, '(same fake)', '', '', '']);
  for (const p of ['P50', 'P99']) {
    const [a, b] = [ttft.mcpkit[`added${p}`], ttft.node[`added${p}`]];
    rows.push([`TTFT added ${p.toLowerCase()} (ms)`, fmt(a, 3), fmt(b, 3), `${fmt(betterRatio(a, b, 'lower'))}×`,
      '≤ 1 ms and ≤ 1/5 of Node\'s', a <= 1 && a <= b / 5 ? 'met' : 'NOT met']);
  }
}
if (m.turns) {
  const [a, b] = [m.turns.turnsPerSecond, n.turns.turnsPerSecond];
  rows.push([`tool-call turns/s, ${sessionCount} sessions`, fmt(a, 0), fmt(b, 0), `${fmt(a / b)}×`, '≥ 5× Node\'s', a >= 5 * b ? 'met' : 'NOT met']);
  const [ca, cb] = [1000 / m.turns.hostCpuMsPerTurn, 1000 / n.turns.hostCpuMsPerTurn];
  rows.push(['turns per second of host CPU', fmt(ca, 0), fmt(cb, 0), `${fmt(ca / cb)}×`, '(what one full core would give)', '']);
  for (const [figure, key, digits] of [['turn latency p50 (ms)', 'p50', 2], ['turn latency p99 (ms)', 'p99', 2],
    ['host CPU per turn (ms)', 'hostCpuMsPerTurn', 3], ['its MCP server\'s CPU per turn (ms)', 'mcpCpuMsPerTurn', 3]]) {
    rows.push([figure, fmt(m.turns[key], digits), fmt(n.turns[key], digits), `${fmt(betterRatio(m.turns[key], n.turns[key], 'lower'))}×`, '', '']);
  }
  rows.push(['host core busy / load core busy (%)', `${fmt(m.turns.hostBusy * 100, 0)} / ${fmt(m.turns.loadBusy * 100, 0)}`,
    `${fmt(n.turns.hostBusy * 100, 0)} / ${fmt(n.turns.loadBusy * 100, 0)}`, '', '', '']);
  rows.push(['wrong answers', String(m.turns.wrong), String(n.turns.wrong), '', 'must be 0', m.turns.wrong + n.turns.wrong ? 'NOT met' : 'met']);
}
if (m.idle) {
  const k = `${fmt(idleConnections / 1000, idleConnections % 1000 ? 1 : 0)}k`;
  const [a, b] = [m.idle.after, n.idle.after];
  rows.push([`RSS with ${k} idle sessions (MB)`, fmt(a, 1), fmt(b, 1), `${fmt(b / a)}×`, '≤ 100 MB and ≤ 1/5 of Node\'s',
    a <= 100 && a <= b / 5 ? 'met' : 'NOT met']);
  rows.push(['RSS before they opened (MB)', fmt(m.idle.before, 1), fmt(n.idle.before, 1), `${fmt(n.idle.before / m.idle.before)}×`, '', '']);
  rows.push(['RSS per idle session (KB)', fmt(m.idle.perConnectionKb, 1), fmt(n.idle.perConnectionKb, 1),
    `${fmt(n.idle.perConnectionKb / m.idle.perConnectionKb)}×`, '', '']);
}
console.log(`\nsummary (ratio: how many times better ${names.mcpkit} is: ${names.node}/${names.mcpkit} for costs and latencies, the inverse for throughput)`);
// An A/B of two builds has no target: those are against the Node host.
if (baseline) for (const row of rows) row[4] = row[5] = '';
const header = ['figure', names.mcpkit, names.node, 'ratio', 'target', ''];
const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
for (const row of [header, ...rows]) {
  console.log(`  ${row.map((cell, i) => (i === 0 || i >= 4 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd());
}
console.log(`\nwrong answers: ${wrongAnswers}${wrongAnswers ? '  (the figures above are not valid)' : ''}`);
process.exit(wrongAnswers ? 1 : 0);
