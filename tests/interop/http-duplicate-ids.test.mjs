// A session refuses a request whose id is already in flight, and the refusal neither disturbs the
// first request nor leaves anything behind (each refused POST once leaked its stream: 600 bytes).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { after, before, test } from 'node:test';

import { eventually, mcpkit } from './support.mjs';

let server;
let url;

before(async () => {
  server = spawn(mcpkit, ['everything', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  server.stderr.on('data', (chunk) => { output += chunk; });
  assert.ok(await eventually(() => /listening on (http:\S+)/.test(output), 10000), output);
  url = /listening on (http:\S+)/.exec(output)[1];
});

after(() => server.kill('SIGTERM'));

const residentKb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]);

test('requests reusing an in-flight id are refused, and the first one still completes', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0,
    method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'dup', version: '1' } } }) });
  const session = { ...headers, 'mcp-session-id': initialize.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-11-25' };
  await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });

  const call = (id, to) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
    params: { name: 'count_slowly', arguments: { to, interval_ms: 100 }, _meta: { progressToken: 1 } } });
  const first = await fetch(url, { method: 'POST', headers: session, body: call('busy', 150) });  // 15 s
  assert.equal(first.headers.get('content-type'), 'text/event-stream');
  const firstText = first.text();

  const refuse = async () => {
    const response = await fetch(url, { method: 'POST', headers: session, body: call('busy', 1) });
    const body = await response.json();
    assert.match(body.error.message, /id "busy" is already in use/);
  };
  for (let i = 0; i < 300; i++) await refuse();  // warm-up: allocator pools reach their size
  const before = residentKb();
  for (let i = 0; i < 4000; i++) await refuse();
  const grown = residentKb() - before;
  // ASan's quarantine holds freed memory, so only the release build's figure means anything.
  if (!mcpkit.includes('/asan/')) assert.ok(grown < 1000, `resident memory grew by ${grown} kB over 4000 refusals`);

  const events = await firstText;
  assert.match(events, /Counted to 150 on pid/);
  assert.equal((events.match(/notifications\/progress/g) ?? []).length, 150);
});
