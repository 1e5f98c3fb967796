// Every mcpkit HTTP server (everything, analyze, the devconsole daemon) against the whole matrix
// of MCP headers an outside client may send or leave out — MCP-Protocol-Version, Mcp-Method,
// Mcp-Name, Mcp-Session-Id: absent, matching, mismatched, old, unknown, empty — times every kind
// of message (request, notification, response, error response, batches, an empty batch, id null,
// malformed JSON). One such POST (a 2026-07-28 notification without Mcp-Method, as Mastra sends
// on close) used to kill each server. Each answer must be one the spec allows: a notification or
// response gets 202 or an error status whose JSON-RPC error has id null; and every server must be
// alive and answering a real client afterwards.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { DEVCONSOLE_TOKEN, startDevConsole } from './devconsole-support.mjs';
import { freePort, listening, mcpkit, startProcess } from './support.mjs';

const TEST = { timeout: 240000 };
const cleanups = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

const ANALYZE_TOKEN = 'matrix-secret';

async function startServer(args, what) {
  const port = await freePort();
  const child = startProcess(mcpkit, [...args, '--http', `127.0.0.1:${port}`],
    { env: { ...process.env, MCPKIT_ANALYZE_TOKEN: ANALYZE_TOKEN } });
  cleanups.push(async () => { if (child.exitCode === null) child.kill('SIGTERM'); await child.exited; });
  await listening(child, port, what);
  const headers = args[0] === 'analyze' ? { Authorization: `Bearer ${ANALYZE_TOKEN}` } : {};
  return { child, url: `http://127.0.0.1:${port}/mcp`, headers };
}

const meta = (version) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'matrix', version: '1' },
});

/** [name, body (object or raw text), the method a matching Mcp-Method names, whether it has an id]. */
const messages = [
  ['request', { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }, 'tools/list', true],
  ['request with _meta', { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: meta('2026-07-28') } }, 'tools/list', true],
  ['named request', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta('2026-07-28') } }, 'tools/call', true],
  ['initialize', { jsonrpc: '2.0', id: 10, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'm', version: '1' } } }, 'initialize', true],
  ['notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, 'notifications/cancelled', false],
  ['notification with _meta', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: meta('2026-07-28') } }, 'notifications/cancelled', false],
  ['initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, 'notifications/initialized', false],
  ['response', { jsonrpc: '2.0', id: 1, result: {} }, null, false],
  ['error response', { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } }, null, false],
  ['batch with notifications', [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    { jsonrpc: '2.0', id: 11, method: 'ping' }], 'ping', false],
  ['empty batch', [], null, false],
  ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, 'ping', false],
  ['malformed JSON', '{"jsonrpc":"2.0","method":', null, false],
  ['not an object', '42', null, false],
];
const versions = [undefined, '2026-07-28', '2025-11-25', '2024-11-05', '1999-01-01', ''];
const methods = ['absent', 'matching', 'mismatched', 'empty'];
const names = [undefined, 'echo', '=?base64?not base64?='];
const sessions = ['absent', 'unknown', 'empty', 'live'];

function headersFor(server, { version, method, name, session }, expectedMethod, liveSession) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...server.headers };
  if (version !== undefined) headers['MCP-Protocol-Version'] = version;
  if (method === 'matching' && expectedMethod) headers['Mcp-Method'] = expectedMethod;
  if (method === 'mismatched') headers['Mcp-Method'] = 'resources/read';
  if (method === 'empty') headers['Mcp-Method'] = '';
  if (name !== undefined) headers['Mcp-Name'] = name;
  if (session === 'unknown') headers['Mcp-Session-Id'] = 'f00dfeedf00dfeedf00dfeedf00dfeed';
  if (session === 'empty') headers['Mcp-Session-Id'] = '';
  if (session === 'live') headers['Mcp-Session-Id'] = liveSession;
  return headers;
}

async function openSession(server) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...server.headers },
    body: JSON.stringify(messages[3][1]),
  });
  await response.text();
  const id = response.headers.get('mcp-session-id');
  assert.ok(id, `initialize opened no session (${response.status})`);
  return id;
}

const allowed = new Set([200, 202, 400, 404, 405, 406, 409, 415]);

async function walk(server) {
  const liveSession = await openSession(server);
  let count = 0;
  const problems = [];
  for (const [kind, body, expectedMethod, hasId] of messages) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    for (const version of versions) for (const method of methods) for (const name of names) for (const session of sessions) {
      const combination = { version, method, name, session };
      const where = `${kind} ${JSON.stringify(combination)}`;
      let response;
      try {
        response = await fetch(server.url, { method: 'POST', headers: headersFor(server, combination, expectedMethod, liveSession), body: text });
      } catch (error) {
        assert.fail(`${where}: no answer (${error.cause?.code ?? error.message}); the server exited with ${JSON.stringify(server.child.exitCode)}`);
      }
      const answer = await response.text();
      count += 1;
      if (!allowed.has(response.status)) problems.push(`${where}: status ${response.status}`);
      if (!hasId && response.status === 200 && kind !== 'batch with notifications' && kind !== 'id null' && !answer.includes('"error"'))
        problems.push(`${where}: a notification or response answered 200 ${answer.slice(0, 100)}`);
      if (!hasId && response.status >= 400 && answer.startsWith('{')) {
        const parsed = JSON.parse(answer);
        if (parsed.jsonrpc === '2.0' && parsed.error && parsed.id !== null)
          problems.push(`${where}: an error for a message without an id names id ${JSON.stringify(parsed.id)}`);
      }
    }
  }
  assert.equal(server.child.exitCode, null, 'the server is alive');
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} of ${count} answers broke the rules`);
  // Still serving real clients: a stateless 2026 request and a session's.
  const listed = await fetch(server.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list', ...server.headers },
    body: JSON.stringify(messages[1][1]),
  });
  assert.equal(listed.status, 200);
  assert.match(await listed.text(), /"tools":\[/);
  const again = await openSession(server);
  assert.ok(again);
  return count;
}

describe('every mcpkit HTTP server survives the whole MCP header matrix and answers by the rules', () => {
  test('mcpkit everything --http', TEST, async () => {
    const server = await startServer(['everything'], 'mcpkit everything');
    assert.ok((await walk(server)) > 3000);
  });

  test('mcpkit analyze --http', TEST, async () => {
    const server = await startServer(['analyze', '--no-cache', '--root', '/tmp'], 'mcpkit analyze');
    await walk(server);
  });

  test('the mcpkit devconsole daemon', TEST, async () => {
    const daemon = await startDevConsole();
    cleanups.push(() => daemon.stop());
    await walk({ child: daemon.child, url: `${daemon.base}/mcp`, headers: { Authorization: `Bearer ${DEVCONSOLE_TOKEN}` } });
  });
});
