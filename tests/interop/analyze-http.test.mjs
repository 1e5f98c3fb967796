// `mcpkit analyze` over Streamable HTTP, as a team would run it: two server processes sharing one
// real redis-server (--store redis://), each driven by the official TypeScript SDK v1 client. A
// session made on one server is used, extended and cleared on the other; analyze-project streams
// its progress over SSE and can be cancelled from the client.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { eventually, freePort, listening, mcpkit, startProcess } from './support.mjs';

const pythonTree = fs.readdirSync('/usr/lib').filter((name) => /^python3\.\d+$/.test(name)).sort().at(-1);

describe('two mcpkit analyze --http servers sharing sessions through Redis', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analyze-http-'));
  const source = path.join(dir, 'shapes.py');
  const processes = [];
  const clients = [];
  const urls = [];
  const TOKEN = 'analyze-http-secret';

  async function startServer(redisPort) {
    const port = await freePort();
    const child = startProcess(mcpkit, ['analyze', '--http', `127.0.0.1:${port}`, '--no-cache', '--root', '/',
      '--store', `redis://127.0.0.1:${redisPort}/0`], { env: { ...process.env, MCPKIT_ANALYZE_TOKEN: TOKEN } });
    processes.push(child);
    await listening(child, port, 'mcpkit analyze --http');
    urls.push(`http://127.0.0.1:${port}/mcp`);
    const client = new Client({ name: `analyze-http-${port}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`),
      { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    clients.push(client);
    return client;
  }

  let first;
  let second;

  before(async () => {
    fs.writeFileSync(source, 'class Square:\n    def area(self, side):\n        if side < 0:\n            raise ValueError(side)\n'
      + '        return side * side\n');
    const redisPort = await freePort();
    const redis = startProcess('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '',
      '--appendonly', 'no', '--dir', dir]);
    processes.push(redis);
    await listening(redis, redisPort, 'redis-server');
    first = await startServer(redisPort);
    second = await startServer(redisPort);
  });

  after(async () => {
    for (const client of clients) await client.close();
    for (const child of processes.reverse()) {
      child.kill('SIGTERM');
      await child.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (client, name, args) => (await client.callTool({ name, arguments: args })).structuredContent;

  test('a session made on one server carries its history to the other, and is cleared for both', async () => {
    const created = await call(first, 'create-session', { ttlSeconds: 120 });
    const { sessionId } = created.data;
    const earlier = await call(first, 'analyze-file', { path: source, sessionId });
    assert.equal(earlier.status.success, true);
    assert.deepEqual(earlier.data.functions.map((f) => [f.name, f.cyclomatic]), [['Square.area', 2]]);

    // The second server knows the session and relates its answer about the same file.
    const later = await call(second, 'get-symbols', { path: source, sessionId });
    assert.equal(later.status.success, true);
    assert.deepEqual(later.context.relatedResults, [earlier.context.resultId]);
    const history = await call(second, 'get-session-history', { sessionId });
    assert.deepEqual(history.data.history.map((c) => [c.tool, c.state]), [['analyze-file', 'succeeded'], ['get-symbols', 'succeeded']]);
    const listed = await call(first, 'list-sessions', {});
    assert.ok(listed.data.sessions.some((s) => s.sessionId === sessionId), JSON.stringify(listed.data));

    const cleared = await call(second, 'clear-session', { sessionId });
    assert.equal(cleared.status.success, true);
    const gone = await first.callTool({ name: 'get-session-info', arguments: { sessionId } });
    assert.equal(gone.isError, true);
    assert.equal(gone.structuredContent.status.code, 404);
  });

  test('analyze-project streams progress over SSE, and a cancelled call is recorded as cancelled', async () => {
    const progress = [];
    const result = await first.callTool(
      { name: 'analyze-project', arguments: { projectPath: `/usr/lib/${pythonTree}`, options: { languages: ['python'] } } },
      undefined,
      { timeout: 120000, onprogress: (p) => progress.push(p) },
    );
    assert.equal(result.structuredContent.status.success, true);
    assert.ok(result.structuredContent.data.totals.files > 500);
    assert.ok(progress.length >= 2, `${progress.length} progress notifications`);

    const { sessionId } = (await call(second, 'create-session', {})).data;
    const controller = new AbortController();
    const cancelled = second.callTool(
      { name: 'analyze-project', arguments: { projectPath: `/usr/lib/${pythonTree}`, sessionId } },
      undefined,
      { signal: controller.signal, timeout: 120000, onprogress: () => controller.abort('enough') },
    );
    await assert.rejects(cancelled);
    // Recorded by the second server, read back through the first.
    const recorded = await eventually(async () => {
      const history = await call(first, 'get-session-history', { sessionId });
      return history.data.history.length === 1 && history.data.history[0].state === 'cancelled';
    }, 20000);
    assert.ok(recorded, 'the shared session records the call as cancelled');
  });

  test('without the bearer secret nothing is served: every request gets 401', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stranger', version: '1' } } });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (authorization) headers.authorization = authorization;
      const answer = await fetch(urls[0], { method: 'POST', headers, body: initialize });
      assert.equal(answer.status, 401, `Authorization ${authorization}`);
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.match(await answer.text(), /MCPKIT_ANALYZE_TOKEN/);
    }
  });
});

describe('mcpkit analyze --http is never open by accident', () => {
  test('with no MCPKIT_ANALYZE_TOKEN a secret is made up and printed; --no-auth is for --http only', async () => {
    const port = await freePort();
    const env = { ...process.env };
    delete env.MCPKIT_ANALYZE_TOKEN;
    const child = startProcess(mcpkit, ['analyze', '--http', `127.0.0.1:${port}`, '--no-cache', '--root', '/tmp'], { env });
    try {
      await listening(child, port, 'mcpkit analyze --http');
      const secret = /Authorization: Bearer ([0-9a-f]{48})/.exec(child.output)?.[1];
      assert.ok(secret, child.output);
      const client = new Client({ name: 'made-up-secret', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`),
        { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
      assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'find-symbol'));
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await child.exited;
    }
    for (const args of [['--no-auth'], ['--allow-host', 'example.com'], ['--http', '127.0.0.1:0', '--no-auth', '--auth-issuer', 'https://as.example']]) {
      const refused = startProcess(mcpkit, ['analyze', '--no-cache', ...args]);
      const { code } = await refused.exited;
      assert.equal(code, 2, `${args.join(' ')}: ${refused.output}`);
      assert.match(refused.output, /--no-auth|--http/);
    }
  });
});
