// The HTTP surfaces as a hostile page and a stopping server see them: Origin values that once
// passed the DNS rebinding check because their text began with "127.0.0.1", CORS preflight
// answered on purpose, analyze over HTTP confined to its root, and calls in flight at SIGTERM
// answered instead of dropped.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { after, describe, test } from 'node:test';

import { eventually, mcpkit } from './support.mjs';

const started = [];
after(() => { for (const child of started) child.kill('SIGKILL'); });

/** Starts `mcpkit ARGS --http 127.0.0.1:0`; resolves to its URL and process. */
async function serve(...args) {
  const child = spawn(mcpkit, [...args, '--http', '127.0.0.1:0'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MCPKIT_ANALYZE_TOKEN: ANALYZE_TOKEN } });
  started.push(child);
  child.output = '';
  child.stderr.on('data', (chunk) => { child.output += chunk; });
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  assert.ok(await eventually(() => /listening on (http:\S+)/.test(child.output), 10000), child.output);
  return { child, url: /listening on (http:\S+)/.exec(child.output)[1] };
}

/** One raw HTTP request (fetch may not set Origin); resolves to status, headers and body. */
function request(url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// Sent to every server: analyze --http needs it, the others ignore it.
const ANALYZE_TOKEN = 'origin-test-secret';
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  authorization: `Bearer ${ANALYZE_TOKEN}` };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } } });

const hostile = ['http://127.0.0.1.evil.example', 'http://127.0.0.1x', 'http://127.0.0.1.nip.io', 'http://localhost.evil.example:3000',
  'http://127.0.0.1:3000/path', 'http://evil.example', 'null'];

describe('DNS rebinding protection, the same on every HTTP server', () => {
  for (const command of [['everything'], ['analyze', '--no-cache']]) {
    test(`mcpkit ${command[0]} --http refuses hostile origins and answers preflight on purpose`, async () => {
      const { url } = await serve(...command);
      for (const origin of hostile) {
        const refused = await request(url, { headers: { ...json, origin }, body: initialize });
        assert.equal(refused.status, 403, `Origin ${origin} got ${refused.status}`);
        assert.equal(refused.headers['mcp-session-id'], undefined);
        assert.match(refused.body, /Invalid Origin/);
        const preflight = await request(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
        assert.equal(preflight.status, 403, `preflight from ${origin} got ${preflight.status}`);
        assert.equal(preflight.headers['access-control-allow-origin'], undefined);
      }
      const evilHost = await request(url, { headers: { ...json, host: '127.0.0.1.evil.example' }, body: initialize });
      assert.equal(evilHost.status, 403);

      const page = 'http://localhost:5173';
      const preflight = await request(url, { method: 'OPTIONS', headers: { origin: page, 'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], page);
      assert.match(preflight.headers['access-control-allow-methods'], /POST/);
      assert.equal(preflight.headers['access-control-allow-headers'], 'content-type, mcp-protocol-version, mcp-session-id');
      const accepted = await request(url, { headers: { ...json, origin: page }, body: initialize });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.headers['access-control-allow-origin'], page);
      assert.match(accepted.headers['access-control-expose-headers'], /Mcp-Session-Id/);
      assert.ok(accepted.headers['mcp-session-id']);
    });
  }
});

describe('analyze over HTTP reads only under its root', () => {
  test('/etc/passwd and ../ are refused with 403 naming the root', async () => {
    const { url } = await serve('analyze', '--no-cache', '--root', process.cwd());
    const init = await request(url, { headers: json, body: initialize });
    const session = { ...json, 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
    await request(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    for (const path of ['/etc/passwd', '../../../../etc/passwd']) {
      const answer = await request(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
        params: { name: 'get-symbols', arguments: { path } } }) });
      const result = JSON.parse(answer.body).result;
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.status.code, 403);
      assert.match(result.structuredContent.status.message, /outside the server's root/);
    }
  });
});

describe('what a session keeps for its whole life is bounded', () => {
  test('a huge initialize is refused with 413; setup messages are refused past 8 KiB each and 256 in all', async () => {
    const { url } = await serve('everything');
    const huge = JSON.parse(initialize);
    huge.params.clientInfo.description = 'x'.repeat(70000);
    const refused = await request(url, { headers: json, body: JSON.stringify(huge) });
    assert.equal(refused.status, 413, refused.body);
    assert.equal(refused.headers['mcp-session-id'], undefined);
    assert.match(JSON.parse(refused.body).error.message, /initialize is \d+ bytes; at most 65536/);

    const init = await request(url, { headers: json, body: initialize });
    const session = { ...json, 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
    const subscribe = (id, uri) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } });
    const long = await request(url, { headers: session, body: subscribe(1, `test://${'y'.repeat(9000)}`) });
    assert.equal(long.status, 413, long.body);
    assert.match(JSON.parse(long.body).error.message, /over 8192 bytes/);
    let kept = 0;
    for (let id = 2; ; id++) {
      const answer = await request(url, { headers: session, body: subscribe(id, 'test://static/resource/1') });
      if (answer.status !== 200) {
        assert.equal(answer.status, 400, answer.body);
        assert.match(JSON.parse(answer.body).error.message, /start a new session/);
        break;
      }
      kept++;
      assert.ok(kept < 300, 'setup messages were never refused');
    }
    assert.equal(kept, 255);  // initialize is the first of 256
    // The session still answers what does not add to its setup.
    const ping = await request(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 999, method: 'ping' }) });
    assert.equal(ping.status, 200, ping.body);
  });
});

describe('SIGTERM with calls in flight', () => {
  test('a call that ends within the grace period is answered; a longer one gets an error, not silence', async () => {
    const { child, url } = await serve('everything');
    const init = await request(url, { headers: json, body: initialize });
    const session = { ...json, 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
    await request(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const call = (id, to) => request(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
      params: { name: 'count_slowly', arguments: { to, interval_ms: 200 } } }) });
    const short = call('short', 3);   // 0.6 s
    const long = call('long', 100);   // 20 s, beyond the 5 s grace
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');
    const [shortAnswer, longAnswer] = await Promise.all([short, long]);
    assert.match(shortAnswer.body, /Counted to 3 on pid/);
    const message = JSON.parse(/\{.*"id":"long".*\}/.exec(longAnswer.body)?.[0] ?? longAnswer.body);
    assert.equal(message.id, 'long');
    assert.match(message.error.message, /shutting down/);
    assert.equal((await child.exited).code, 0);
  });
});
