// devconsole benchmark: mcpkit devconsole against the original project's daemon (Gasoline 0.7.9),
// in one run, with the same extension traffic over the same endpoints. Figures, not pass/fail.
//
//   node devconsole-bench.mjs MCPKIT GASOLINE [SECONDS]
//
// Each daemon runs pinned to CPU 0, the load (wrk, the scripted extension) on the others.
//
// 1. Resident memory of a fresh daemon.
// 2. Ingestion: wrk POSTs batches of 50 console entries to /logs, 6 in flight (as the extension's
//    batchers do), for SECONDS, with a 1,000-entry and a 100,000-entry buffer: events per second
//    accepted (every answer 200), the daemon's CPU time per event, a last unique batch checked
//    through MCP (observe logs), and resident memory holding the buffer full.
// 3. Command round trip (MCP tools/call interact execute_js → scripted extension on /sync →
//    result → MCP answer), each answer checked: back to back; spaced 0-1.5 s apart; and arriving
//    right after an empty long poll returned (the original's lost wake-up, wire notes §3).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DEVCONSOLE_TOKEN, ScriptedExtension, connectClient, post } from '../tests/interop/devconsole-support.mjs';
import { freePort, sleep } from '../tests/interop/support.mjs';

const [mcpkit, gasoline, secondsArgument] = process.argv.slice(2);
const seconds = Number(secondsArgument ?? 10);
const here = path.dirname(new URL(import.meta.url).pathname);
const cpus = os.cpus().length;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'devconsole-bench-'));
const ticks = 100;  // clock ticks per second (getconf CLK_TCK on Linux)

function processStat(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks,
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024,
  };
}

async function startDaemon(kind, maxEntries) {
  const port = await freePort();
  const args = kind === 'mcpkit'
    ? ['devconsole', '--port', String(port), '--max-entries', String(maxEntries)]
    : ['--daemon', '--parallel', '--port', String(port), '--state-dir', path.join(work, `state-${port}`),
      '--log-file', path.join(work, `gasoline-${port}.log`), '--max-entries', String(maxEntries)];
  const binary = kind === 'mcpkit' ? mcpkit : gasoline;
  // mcpkit's /mcp needs its bearer secret (connectClient sends it; the original ignores it).
  const options = { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MCPKIT_DEVCONSOLE_TOKEN: DEVCONSOLE_TOKEN } };
  const child = cpus > 1 ? spawn('taskset', ['-c', '0', binary, ...args], options) : spawn(binary, args, options);
  let output = '';
  child.stderr.on('data', (chunk) => { output += chunk; });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(base + '/health')).ok) break;
    } catch { /* not yet */ }
    await sleep(50);
  }
  await sleep(300);  // let start-up work settle before measuring memory
  return {
    kind, base, child, pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
    output: () => output,
  };
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function entry(i) {
  return {
    ts: new Date().toISOString(), url: 'http://127.0.0.1:17892/index.html', message: `bench entry ${i}`, source: '',
    level: i % 10 === 0 ? 'warn' : 'log', type: 'console', args: [`bench entry ${i}`, { n: i, nested: { a: [1, 2, 3] } }],
    tabId: 1477626322,
  };
}

async function ingest(daemon) {
  const batchFile = path.join(work, 'batch.json');
  fs.writeFileSync(batchFile, JSON.stringify({ entries: Array.from({ length: 50 }, (_, j) => entry(j)) }));
  const before = processStat(daemon.pid);
  const load = cpus > 1 ? ['taskset', '-c', `1-${cpus - 1}`, 'wrk'] : ['wrk'];
  const run = spawnSync(load[0], [...load.slice(1), '-t1', '-c6', '--timeout', '30s', `-d${seconds}s`, '-s', path.join(here, 'wrk-devconsole-logs.lua'),
    daemon.base + '/logs'], { env: { ...process.env, BODY_FILE: batchFile }, encoding: 'utf8' });
  const after = processStat(daemon.pid);
  const requestsPerSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(run.stdout)?.[1]);
  if (!requestsPerSecond || /Non-2xx|Socket errors/.test(run.stdout)) throw new Error(`${daemon.kind}: wrk failed:\n${run.stdout}${run.stderr}`);
  // A last, unique batch must be queryable through MCP.
  const last = `bench last entry ${Date.now()}`;
  await post(daemon.base, '/logs', { entries: [{ ...entry(0), message: last, args: [last] }] });
  const client = await connectClient(daemon.base);
  const result = await client.callTool({ name: 'observe', arguments: { what: 'logs', scope: 'all', limit: 1 } });
  await client.close();
  return {
    eventsPerSecond: requestsPerSecond * 50, accepted: requests * 50,
    cpuMicrosecondsPerEvent: ((after.cpuSeconds - before.cpuSeconds) * 1e6) / (requests * 50),
    lastQueryable: JSON.stringify(result).includes(last), rssMb: processStat(daemon.pid).rssMb,
  };
}

async function roundTrips(daemon) {
  const heldPolls = [];  // resolvers waiting for the next empty poll
  const extension = new ScriptedExtension(daemon.base, {
    handlers: { execute: async (command) => ({ success: true, result: `ran: ${command.params.script}` }) },
    tabId: 1477626322,
  });
  extension.onEmptyPoll = () => { for (const resolve of heldPolls.splice(0)) resolve(); };
  const base = daemon.base;
  // Notice each empty poll's answer, to send a command right after one.
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, options) => {
    const response = await realFetch(url, options);
    if (String(url).endsWith('/sync')) {
      const text = await response.clone().text();
      try {
        if (JSON.parse(text).commands.length === 0) extension.onEmptyPoll();
      } catch { /* not JSON */ }
    }
    return response;
  };
  extension.start();
  await sleep(1500);
  const client = await connectClient(base);
  let serial = 0;
  async function one() {
    const script = `probe-${++serial}`;
    const started = performance.now();
    const result = await client.callTool({ name: 'interact', arguments: { what: 'execute_js', script } });
    const elapsed = performance.now() - started;
    if (!JSON.stringify(result).includes(`ran: ${script}`)) throw new Error(`${daemon.kind}: wrong answer for ${script}: ${JSON.stringify(result).slice(0, 300)}`);
    return elapsed;
  }
  const patterns = {};
  await one();  // warm-up
  const backToBack = [];
  for (let i = 0; i < 40; i++) backToBack.push(await one());
  patterns['back to back'] = backToBack;
  const spaced = [];
  for (let i = 0; i < 15; i++) {
    await sleep(Math.random() * 1500);
    spaced.push(await one());
  }
  patterns['spaced 0-1.5 s'] = spaced;
  const afterEmptyPoll = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => heldPolls.push(resolve));
    afterEmptyPoll.push(await one());
  }
  patterns['right after an empty poll'] = afterEmptyPoll;
  globalThis.fetch = realFetch;
  await client.close();
  await extension.stop();
  return patterns;
}

const report = [];
const say = (line) => { console.log(line); report.push(line); };
say(`devconsole benchmark: ${cpus} CPUs, ${seconds} s per ingestion run, Node ${process.version}`);

const results = {};
for (const kind of ['gasoline', 'mcpkit']) {
  results[kind] = {};
  const fresh = await startDaemon(kind, 1000);
  results[kind].idleRss = processStat(fresh.pid).rssMb;
  results[kind].ingest1000 = await ingest(fresh);
  results[kind].roundTrips = await roundTrips(fresh);
  await fresh.stop();
  const big = await startDaemon(kind, 100000);
  results[kind].ingest100000 = await ingest(big);
  await big.stop();
}

const name = { gasoline: 'original 0.7.9', mcpkit: 'mcpkit' };
say('\nresident memory, fresh daemon:');
for (const kind of ['gasoline', 'mcpkit']) say(`  ${name[kind].padEnd(16)} ${results[kind].idleRss.toFixed(1)} MB`);
for (const size of ['1000', '100000']) {
  say(`\ningestion, ${size}-entry buffer (wrk: POST /logs, 50 entries per batch, 6 in flight):`);
  for (const kind of ['gasoline', 'mcpkit']) {
    const r = results[kind][`ingest${size}`];
    say(`  ${name[kind].padEnd(16)} ${Math.round(r.eventsPerSecond).toLocaleString('en')} events/s, ${r.cpuMicrosecondsPerEvent.toFixed(1)} µs CPU/event, ` +
      `${Math.round(r.accepted).toLocaleString('en')} accepted, RSS holding the buffer full ${r.rssMb.toFixed(1)} MB, a last entry queryable: ${r.lastQueryable}`);
  }
  const ratio = results.mcpkit[`ingest${size}`].eventsPerSecond / results.gasoline[`ingest${size}`].eventsPerSecond;
  say(`  ratio mcpkit / original: ${ratio.toFixed(1)}×`);
}
say('\ncommand round trip, MCP execute_js → scripted extension → answer (ms, p50 / p99 / max):');
for (const pattern of Object.keys(results.mcpkit.roundTrips)) {
  say(`  ${pattern}:`);
  for (const kind of ['gasoline', 'mcpkit']) {
    const samples = results[kind].roundTrips[pattern];
    say(`    ${name[kind].padEnd(16)} ${percentile(samples, 50).toFixed(1)} / ${percentile(samples, 99).toFixed(1)} / ${Math.max(...samples).toFixed(1)}  (${samples.length} calls)`);
  }
}
fs.rmSync(work, { recursive: true, force: true });
