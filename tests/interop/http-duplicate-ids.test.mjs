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

/** A response's body read as text as it comes: `until(predicate)` reads until the predicate holds
 * (true) or the stream ends (false). */
function streamOf(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const stream = {
    text: '',
    async until(predicate) {
      while (!predicate()) {
        const { value, done } = await reader.read();
        if (done) return false;
        stream.text += decoder.decode(value, { stream: true });
      }
      return true;
    },
    cancel: () => reader.cancel(),
  };
  return stream;
}

const residentKb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]);

test('requests reusing an in-flight id are refused, and the first one still completes', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0,
    method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'dup', version: '1' } } }) });
  const session = { ...headers, 'mcp-session-id': initialize.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-11-25' };
  await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });

  const call = (id, to) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
    params: { name: 'count_slowly', arguments: { to, interval_ms: 100 }, _meta: { progressToken: 1 } } });
  // The first call runs far longer than the test (1000 steps of 100 ms) so that however slow the
  // machine, its id is in flight for every refusal; it is cancelled at the end.
  const first = await fetch(url, { method: 'POST', headers: session, body: call('busy', 1000) });
  assert.equal(first.headers.get('content-type'), 'text/event-stream');
  const events = streamOf(first);
  const progressCount = () => (events.text.match(/notifications\/progress/g) ?? []).length;

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

  // The first call was not disturbed: it still reports progress after all the refusals.
  const seen = progressCount();
  assert.ok(await events.until(() => progressCount() > seen + 1), `the first call stopped: ${events.text.slice(-500)}`);
  // Cancelled, it frees its id: a new call with that id is then served.
  await fetch(url, { method: 'POST', headers: session,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'busy', reason: 'test over' } }) });
  let last = '';
  assert.ok(await eventually(async () => {
    const response = await fetch(url, { method: 'POST', headers: session, body: call('busy', 1) });
    last = await response.text();
    return last.includes('Counted to 1 on pid');
  }, 10000), `the id was not freed by cancelling the first call: ${last}; first stream: ${events.text.slice(-300)}`);
  await events.cancel();
});

// A 2025-03-26 session takes JSON-RPC batches. A batch's replies carry no id of their own: they
// once went to the oldest batch POST still open, so a quick batch behind a slow one was answered
// on the slow one's stream and its own POST hung; and a batch whose every member was cancelled
// was never answered at all.
test('2025-03-26 batches: each POST gets its own replies, and a wholly cancelled batch ends', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0,
    method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batches', version: '1' } } }) });
  const session = { ...headers, 'mcp-session-id': initialize.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-03-26' };
  await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });

  // Long enough for any machine; cancelled below.
  const slow = await fetch(url, { method: 'POST', headers: session, body: JSON.stringify([{ jsonrpc: '2.0', id: 'slow',
    method: 'tools/call', params: { name: 'count_slowly', arguments: { to: 1000, interval_ms: 100 }, _meta: { progressToken: 'p' } } }]) });
  assert.equal(slow.headers.get('content-type'), 'text/event-stream');
  const events = streamOf(slow);
  await events.until(() => events.text.includes('notifications/progress'));

  const hang = (ms) => new Promise((resolve) => { setTimeout(() => resolve('no answer'), ms).unref(); });
  const quick = fetch(url, { method: 'POST', headers: session,
    body: JSON.stringify([{ jsonrpc: '2.0', id: 'ping-1', method: 'ping' }, { jsonrpc: '2.0', id: 'ping-2', method: 'ping' }]) })
    .then((response) => response.text());
  const answer = await Promise.race([quick, hang(20000)]);
  assert.notEqual(answer, 'no answer', `the quick batch got nothing; the slow stream has: ${events.text.slice(-400)}`);
  assert.deepEqual(JSON.parse(answer.replace(/^(event|id|data): ?/gm, '').trim()).map((reply) => reply.id).sort(), ['ping-1', 'ping-2']);

  await fetch(url, { method: 'POST', headers: session,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'enough' } }) });
  const ended = await Promise.race([events.until(() => false), hang(20000)]);
  assert.equal(ended, false, `the cancelled batch's stream did not end: ${events.text.slice(-400)}`);
  assert.ok(!events.text.includes('ping-1'), 'the quick batch was answered on the slow one');
});
