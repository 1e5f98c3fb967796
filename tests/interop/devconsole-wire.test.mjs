// devconsole: the original 0.7 extension's traffic replayed exactly as recorded in
// shared/reference/devconsole-wire-0.7.md (§2, §3), each capture kind read back through the tools,
// and bad input on every endpoint: a clear error, the daemon keeps serving, and no buffered event
// is lost.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import { call, connectClient, extensionHeaders, post, startDevConsole } from './devconsole-support.mjs';

const tabId = 1477626322;
const page = 'http://127.0.0.1:17892/index.html';

/** The SyncRequest of §3, field for field. */
const recordedSync = {
  ext_session_id: 'ext_1795535523206_kgofol',
  extension_version: '0.7.10',
  settings: {
    pilot_enabled: true, tracking_enabled: true, tracked_tab_id: tabId,
    tracked_tab_url: page, tracked_tab_title: 'Gasoline probe page',
    capture_logs: true, capture_network: true, capture_websocket: true, capture_actions: true,
    csp_restricted: false, csp_level: 'none',
  },
  in_progress: [],
  extension_logs: [
    { timestamp: '2026-11-24T15:52:16.969Z', level: 'debug', message: '[Sync] Received commands',
      source: 'background', category: 'connection', data: { count: 1, ids: ['q-1'] } },
  ],
};

const recordedLogs = {
  entries: [
    { ts: '2026-11-24T15:52:05.156Z', url: page, message: 'probe: hello from page', source: '', level: 'log',
      type: 'console', args: ['probe: hello from page', { n: 1, nested: { a: [1, 2, 3] } }], tabId },
    { ts: '2026-11-24T15:52:05.160Z', url: page, message: 'probe: a warning', source: '', level: 'warn',
      type: 'console', args: ['probe: a warning'], tabId },
    { ts: '2026-11-24T15:52:05.170Z', url: page, message: 'Uncaught Error: probe boom', source: '', level: 'error',
      type: 'exception', stack: 'Error: probe boom\n    at boom (http://127.0.0.1:17892/app.js:10:5)',
      filename: 'http://127.0.0.1:17892/app.js', lineno: 10, colno: 5, tabId },
    { ts: '2026-11-24T15:52:05.180Z', url: '/missing.json', message: 'GET /missing.json 404', source: '',
      level: 'error', type: 'network', method: 'GET', status: 404, statusText: 'Not Found', response: 'nope',
      duration: 12, tabId },
    { ts: '2026-11-24T15:52:05.190Z', url: 'http://other.example/', message: 'another tab', source: '', level: 'log',
      type: 'console', args: [], tabId: 7 },
  ],
};

describe('devconsole: the original extension traffic, replayed', () => {
  let daemon;
  let client;
  before(async () => {
    daemon = await startDevConsole();
    client = await connectClient(daemon.base);
  });
  after(async () => {
    await client?.close();
    await daemon?.stop();
  });

  test('/sync takes the recorded SyncRequest and answers the SyncResponse fields the extension reads', async () => {
    const answer = await post(daemon.base, '/sync', { ...recordedSync, in_progress: [] });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.ack, true);
    assert.deepEqual(answer.body.commands, []);
    assert.equal(typeof answer.body.next_poll_ms, 'number');
    assert.match(answer.body.server_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(answer.body.server_version, /^0\.7\./, 'the 0.7 extension compares major.minor');
    assert.deepEqual(answer.body.capture_overrides, {});
    assert.equal(answer.headers.get('access-control-allow-origin'), extensionHeaders.Origin);
    const health = await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json();
    assert.equal(health.capture.extension_connected, true);
    assert.equal(health.capture.tracked_tab_id, tabId);
    assert.equal(health.capture.extension_client_id, 'gasoline-extension/0.7.10');
    const logs = await call(client, 'observe', { what: 'extension_logs' });
    assert.equal(logs.entries[0].message, '[Sync] Received commands');
  });

  test('an empty body is a heartbeat', async () => {
    const answer = await post(daemon.base, '/sync', '');
    assert.equal(answer.status, 200, answer.text);
  });

  test('/logs accepts the recorded entries and observe reads them back, scoped to the tracked tab', async () => {
    const answer = await post(daemon.base, '/logs', recordedLogs);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.received, 5);
    assert.equal(answer.body.rejected, 0);
    const logs = await call(client, 'observe', { what: 'logs' });
    assert.equal(logs.count, 4, 'the other tab is left out of current_page');
    assert.deepEqual(logs.entries[0].args, recordedLogs.entries[0].args, 'arguments survive intact');
    assert.equal(logs.entries[0].message, 'probe: hello from page');
    const all = await call(client, 'observe', { what: 'logs', scope: 'all' });
    assert.equal(all.count, 5);
    const warnings = await call(client, 'observe', { what: 'logs', min_level: 'warn' });
    assert.deepEqual(warnings.entries.map((entry) => entry.level), ['warn', 'error', 'error']);
    const errors = await call(client, 'observe', { what: 'errors' });
    assert.deepEqual(errors.entries.map((entry) => entry.type), ['exception', 'network']);
    const clusters = await call(client, 'analyze', { what: 'error_clusters' });
    assert.equal(clusters.total_errors, 2);
    assert.ok(clusters.clusters.some((cluster) => cluster.top_frame.startsWith('at boom')));
  });

  test('cursors page backward and forward without losing or repeating an entry', async () => {
    const first = await call(client, 'observe', { what: 'logs', scope: 'all', limit: 2 });
    assert.deepEqual(first.entries.map((entry) => entry.message), ['GET /missing.json 404', 'another tab']);
    assert.equal(first.metadata.has_more, true);
    const older = await call(client, 'observe', { what: 'logs', scope: 'all', limit: 10, before_cursor: first.metadata.before_cursor });
    assert.equal(older.count, 3);
    const seen = [...older.entries, ...first.entries].map((entry) => entry.cursor);
    assert.equal(new Set(seen).size, 5);
    await post(daemon.base, '/logs', { entries: [{ level: 'info', message: 'newer', tabId }] });
    const newer = await call(client, 'observe', { what: 'logs', scope: 'all', after_cursor: first.metadata.cursor });
    assert.deepEqual(newer.entries.map((entry) => entry.message), ['newer']);
    const broken = await call(client, 'observe', { what: 'logs', after_cursor: 'not-a-cursor' });
    assert.equal(broken.error, 'invalid_cursor');
  });

  test('WebSocket events, network bodies and actions in the recorded shapes are queryable', async () => {
    const events = [
      { type: 'websocket', event: 'open', id: 'c1', url: 'ws://127.0.0.1:17892/ws', ts: '2026-11-24T15:52:05.200Z' },
      { type: 'websocket', event: 'message', id: 'c1', url: 'ws://127.0.0.1:17892/ws', direction: 'outgoing', data: 'ping 1', size: 6, ts: '2026-11-24T15:52:05.210Z' },
      { type: 'websocket', event: 'message', id: 'c1', url: 'ws://127.0.0.1:17892/ws', direction: 'incoming', data: '{"pong":1}', size: 10, ts: '2026-11-24T15:52:05.220Z' },
    ];
    assert.equal((await post(daemon.base, '/websocket-events', { events })).status, 200);
    const frames = await call(client, 'observe', { what: 'websocket_events', direction: 'incoming' });
    assert.deepEqual(frames.entries.map((entry) => entry.data), ['{"pong":1}']);
    const status = await call(client, 'observe', { what: 'websocket_status' });
    assert.equal(status.open, 1);
    assert.equal(status.connections[0].messages_in, 1);
    assert.equal(status.connections[0].messages_out, 1);

    const bodies = [
      { url: '/data.json', method: 'GET', status: 200, content_type: 'application/json', response_body: '{"data":{"items":[{"id":7}]}}', duration: 20, tab_id: tabId },
      { url: '/fail', method: 'POST', status: 500, content_type: 'text/plain', response_body: 'x'.repeat(10000), duration: 5, tab_id: tabId },
    ];
    const stored = await post(daemon.base, '/network-bodies', { bodies });
    assert.deepEqual(stored.body, { count: 2, status: 'ok', rejected: 0 });
    const extracted = await call(client, 'observe', { what: 'network_bodies', url: 'data.json', body_path: 'data.items[0].id' });
    assert.equal(extracted.entries[0].extracted, 7);
    const failed = await call(client, 'observe', { what: 'network_bodies', status_min: 400 });
    assert.equal(failed.count, 1);
    assert.equal(failed.entries[0].response_body_truncated, true, 'a large body is cut inline …');
    const full = await client.readResource({ uri: failed.entries[0].response_body_uri });
    assert.equal(full.contents[0].text.length, 10000, '… and served whole as a resource');

    const actions = [{ type: 'click', timestamp: Date.parse('2026-11-24T15:52:06Z'), url: page,
      selectors: { role: { role: 'button', name: 'Click me' }, id: 'btn', text: 'Click me', cssPath: '#btn' } }];
    assert.equal((await post(daemon.base, '/enhanced-actions', { actions })).status, 200);
    const read = await call(client, 'observe', { what: 'actions' });
    assert.equal(read.entries[0].selectors.id, 'btn');
    const script = await call(client, 'generate', { what: 'reproduction' });
    const text = (await client.readResource({ uri: script.uri })).contents[0].text;
    assert.match(text, /page\.locator\("#btn"\)\.click\(\)/);
    const har = await call(client, 'generate', { what: 'har' });
    const archive = JSON.parse((await client.readResource({ uri: har.uri })).contents[0].text);
    assert.equal(archive.log.entries.length, 2);
    const timeline = await call(client, 'observe', { what: 'timeline', include: ['network', 'actions'] });
    assert.equal(timeline.count, 3);
  });
});

/** Sends raw bytes and returns the whole answer (for requests fetch() refuses to make). */
function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('devconsole: bad input on every endpoint', () => {
  let daemon;
  let client;
  before(async () => {
    daemon = await startDevConsole();
    client = await connectClient(daemon.base);
    await post(daemon.base, '/sync', { ...recordedSync, extension_logs: undefined });
    await post(daemon.base, '/logs', recordedLogs);
  });
  after(async () => {
    await client?.close();
    await daemon?.stop();
  });

  const endpoints = ['/sync', '/logs', '/websocket-events', '/network-bodies', '/enhanced-actions', '/performance-snapshots',
    '/screenshots', '/query-result'];

  test('malformed JSON is refused with 400 naming the problem, on every endpoint', async () => {
    for (const path of endpoints) {
      const answer = await post(daemon.base, path, '{"entries": [oops');
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      assert.match(answer.body.error, /Invalid JSON/, path);
    }
  });

  test('wrong types are named', async () => {
    let answer = await post(daemon.base, '/sync', { in_progress: 'running' });
    assert.equal(answer.status, 400);
    assert.match(answer.body.error, /"in_progress" must be an array/);
    answer = await post(daemon.base, '/sync', { settings: [] });
    assert.match(answer.body.error, /"settings" must be an object/);
    answer = await post(daemon.base, '/logs', { entries: 'x' });
    assert.match(answer.body.error, /array "entries"/);
    answer = await post(daemon.base, '/logs', { entries: [42, { level: 'loud', message: 'x' }, { message: 'no level' }] });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.rejected, 3);
    assert.deepEqual(answer.body.rejections.map((rejection) => rejection.index), [0, 1, 2]);
    assert.match(answer.body.rejections[1].reason, /"level" is "loud"/);
    answer = await post(daemon.base, '/screenshots', { data_url: 'http://not-a-data-url' });
    assert.match(answer.body.error, /base64 data URL/);
    // A query_id that answers no pending command does not lift the one-a-second limit.
    const image = { data_url: 'data:image/png;base64,iVBORw0KGgo=', query_id: 'q-made-up' };
    const statuses = (await Promise.all([1, 2, 3, 4, 5].map(() => post(daemon.base, '/screenshots', image)))).map((a) => a.status);
    assert.ok(statuses.filter((status) => status === 429).length >= 3, statuses.join(' '));
  });

  test('oversized bodies get 413', async () => {
    const huge = JSON.stringify({ entries: [{ level: 'log', message: 'x'.repeat(6 * 1024 * 1024) }] });
    const answer = await post(daemon.base, '/sync', huge);
    assert.equal(answer.status, 413, answer.text);
    const entry = await post(daemon.base, '/logs', { entries: [{ level: 'log', message: 'y'.repeat(2 * 1024 * 1024) }] });
    assert.equal(entry.body.rejected, 1);
    assert.match(entry.body.rejections[0].reason, /larger than/);
  });

  test('unknown correlation ids are refused clearly', async () => {
    const answer = await post(daemon.base, '/query-result', { correlation_id: 'exec_1_1', status: 'complete', result: {} });
    assert.equal(answer.status, 404);
    assert.match(answer.body.error, /No pending command/);
    const sync = await post(daemon.base, '/sync', { command_results: [{ id: 'q-1', status: 'complete' }] });
    assert.equal(sync.status, 200, 'a stale result in a poll is ignored, the poll still served');
  });

  test('a web page cannot post telemetry or read results; a foreign Host is refused', async () => {
    for (const origin of ['http://evil.example', 'http://localhost:3000', 'null']) {
      const answer = await post(daemon.base, '/logs', recordedLogs, { ...extensionHeaders, Origin: origin });
      assert.equal(answer.status, 403, origin);
      assert.match(answer.body.error, /invalid origin/);
    }
    const noClient = await post(daemon.base, '/logs', recordedLogs, { 'Content-Type': 'application/json' });
    assert.equal(noClient.status, 403);
    assert.match(noClient.body.error, /X-Gasoline-Client/);
    const rebound = await rawRequest(daemon.port, 'POST /sync HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 2\r\nX-Gasoline-Client: gasoline-extension/0.7.10\r\n\r\n{}');
    assert.match(rebound, /^HTTP\/1\.1 403/);
    assert.match(rebound, /Invalid Host header/);
    const preflight = await fetch(daemon.base + '/sync', { method: 'OPTIONS', headers: { Origin: 'http://evil.example' } });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });

  test('after all that the daemon still serves and no buffered event was lost', async () => {
    const health = await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json();
    assert.equal(health.status, 'ok');
    const logs = await call(client, 'observe', { what: 'logs', scope: 'all' });
    assert.equal(logs.count, 5, JSON.stringify(logs.entries.map((entry) => entry.message)));
  });
});
