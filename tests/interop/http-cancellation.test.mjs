// Cancellation and timeouts over Streamable HTTP, as the server sees them (`count_slowly` logs
// the step at which a cancellation stopped it):
//   - 2026-07-28: a client that closes its request's response stream has cancelled it, at once
//     (the handler used to run on for the 10 s a session's end allows);
//   - `mcpkit client --timeout N --url …` gives up after N seconds (the sign-in's time is added to
//     the first answer only), and the server hears of it: notifications/cancelled in a 2025
//     session, the stream closed in 2026-07-28.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';

import { eventually, mcpkit, runProcess } from './support.mjs';

const started = [];
after(() => { for (const child of started) child.kill('SIGKILL'); });

async function serve() {
  const child = spawn(mcpkit, ['everything', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  child.output = '';
  child.stderr.on('data', (chunk) => { child.output += chunk; });
  assert.ok(await eventually(() => /listening on (http:\S+)/.test(child.output), 10000), child.output);
  return { child, url: /listening on (http:\S+)/.exec(child.output)[1] };
}

/** The step count_slowly stopped at, once it says so in the server's log. */
async function stoppedAt(child, ms = 15000) {
  const found = await eventually(() => /count_slowly stopped at (\d+) of/.test(child.output), ms);
  assert.ok(found, `count_slowly was never cancelled; the server said: ${child.output.slice(-2000)}`);
  return Number(/count_slowly stopped at (\d+) of/.exec(child.output)[1]);
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'cancel-test', version: '1' },
};

describe('cancellation over HTTP', () => {
  test('2026-07-28: closing the response stream cancels the call at once', async () => {
    const { child, url } = await serve();
    const abort = new AbortController();
    const response = await fetch(url, {
      method: 'POST', signal: abort.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'count_slowly' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
        params: { name: 'count_slowly', arguments: { to: 600, interval_ms: 50 }, _meta: { ...meta, progressToken: 'p' } } }),
    });
    assert.equal(response.status, 200);
    // Read progress until step 3, then close the stream.
    const reader = response.body.getReader();
    let text = '';
    let seen = 0;
    while (seen < 3) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream ended early');
      text += Buffer.from(value).toString();
      for (const match of text.matchAll(/"progress":(\d+)/g)) seen = Math.max(seen, Number(match[1]));
    }
    abort.abort();
    const step = await stoppedAt(child);
    // At once: within a few steps of 50 ms (the drain it used to wait out is 10 s, 200 steps).
    assert.ok(step < seen + 40, `stopped at step ${step}, ${step - seen} steps after the client left`);
  });

  for (const protocol of ['2025-11-25', '2026-07-28']) {
    test(`mcpkit client --timeout over HTTP (${protocol}): gives up in time and the server is told`, async () => {
      const { child, url } = await serve();
      const begun = Date.now();
      // No --no-oauth: the sign-in allowance must not stretch every answer's timeout.
      const result = await runProcess(mcpkit, ['client', '--protocol', protocol, '--timeout', '1', '--url', url, 'call',
        'count_slowly', JSON.stringify({ to: 600, interval_ms: 50, silent: true })], { timeout: 60000 });
      const took = Date.now() - begun;
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /timed out|timeout/i);
      assert.ok(took < 30000, `the client took ${took} ms for a 1 s timeout: ${result.stderr}`);
      const step = await stoppedAt(child);
      // 1 s is 20 steps; without the cancellation it counted on through the 10 s drain (220 and more).
      assert.ok(step < 120, `the server counted on to ${step} (of 600) after the client gave up`);
    });
  }
});
