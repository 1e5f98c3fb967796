// Scale-out over Streamable HTTP with real engines: two `mcpkit everything --http` instances share
// sessions through a real redis-server, behind a real nginx that round-robins every request with
// no stickiness. The client is the official TypeScript SDK v1.
//
// nginx's access log records which instance served each request, so the tests prove that traffic
// really crossed instances rather than assume it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { eventually, freePort, listening, mcpkit, sleep, startProcess as start } from './support.mjs';

const MAX_SESSIONS = 3;

describe('two mcpkit instances, one Redis, nginx round-robin', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-scale-out-'));
  const accessLog = path.join(dir, 'access.log');
  let redis;
  let nginx;
  let nginxPort;
  const instances = [];  // { child, port, pid }
  let url;

  async function startInstance(redisPort) {
    const port = await freePort();
    const child = start(mcpkit, ['everything', '--http', `127.0.0.1:${port}`, '--store', `redis://127.0.0.1:${redisPort}`,
      '--max-sessions', String(MAX_SESSIONS), '--session-timeout', '120']);
    await listening(child, port, 'mcpkit everything');
    return { child, port, pid: child.pid };
  }

  /** Access log lines as {method, status, upstream, session}, each upstream mapped to its instance index. */
  function served() {
    const text = fs.existsSync(accessLog) ? fs.readFileSync(accessLog, 'utf8') : '';
    return text.split('\n').filter(Boolean).map((line) => {
      const [method, status, upstream, session] = line.split('|');
      // After a failed try nginx lists every upstream it tried: the last one answered.
      const last = upstream.split(', ').at(-1);
      const index = instances.findIndex((instance) => last === `127.0.0.1:${instance.port}`);
      return { method, status: Number(status), instance: index, session };
    });
  }

  /** The access log once `holds(lines)` is true: nginx logs a request only after its last byte went out. */
  async function servedOnce(holds) {
    await eventually(() => holds(served()), 5000);
    return served();
  }

  async function connect(name) {
    const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    return { client, transport };
  }

  async function disconnect({ client, transport }) {
    await transport.terminateSession();
    await client.close();
  }

  before(async () => {
    const redisPort = await freePort();
    redis = start('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '',
      '--appendonly', 'no', '--dir', dir]);
    await listening(redis, redisPort, 'redis-server');
    instances.push(await startInstance(redisPort), await startInstance(redisPort));

    nginxPort = await freePort();
    const temp = (name) => `${name}_temp_path ${path.join(dir, name)};`;
    const config = `
${process.getuid() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'nginx-error.log')} notice;
events { worker_connections 256; }
http {
  log_format served '$request_method|$status|$upstream_addr|$http_mcp_session_id';  # '|': upstreams list with ", "
  access_log ${accessLog} served;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  upstream mcp {
    server 127.0.0.1:${instances[0].port} max_fails=1 fail_timeout=60s;
    server 127.0.0.1:${instances[1].port} max_fails=1 fail_timeout=60s;
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${nginxPort};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
    fs.writeFileSync(path.join(dir, 'nginx.conf'), config);
    nginx = start('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;']);
    await listening(nginx, nginxPort, 'nginx');
    url = `http://127.0.0.1:${nginxPort}/mcp`;
  });

  after(async () => {
    for (const child of [nginx, ...instances.map((instance) => instance.child), redis]) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await child.exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a session initialized on one instance carries on through the other, setup included', async () => {
    const session = await connect('carry-on');
    const logs = [];
    session.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
    const sessionId = session.transport.sessionId;
    assert.ok(sessionId);

    for (let i = 0; i < 6; i++) {
      const result = await session.client.callTool({ name: 'echo', arguments: { text: `hello ${i}` } });
      assert.equal(result.content[0].text, `hello ${i}`);
    }
    // Both instances served this session's requests.
    const ownPosts = (lines) => lines.filter((line) => line.session === sessionId && line.method === 'POST');
    const posts = ownPosts(await servedOnce((lines) => new Set(ownPosts(lines).map((line) => line.instance)).size === 2));
    assert.ok(posts.length >= 6, `expected this session's POSTs in the access log, got ${JSON.stringify(posts)}`);
    assert.deepEqual(new Set(posts.map((line) => line.instance)), new Set([0, 1]));
    assert.ok(posts.every((line) => line.status === 200 || line.status === 202));

    // logging/setLevel reaches whichever instance gets it; the other must honour it too.
    await session.client.setLoggingLevel('error');
    for (let i = 0; i < 4; i++) await session.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(logs, [], 'info logs came through after setLevel error');
    await session.client.setLoggingLevel('debug');
    for (let i = 0; i < 2; i++) await session.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs.length, 6, `expected 3 logs per call at debug, got ${JSON.stringify(logs)}`);

    await disconnect(session);
  });

  test('both instances enforce the same session limit', async () => {
    const sessions = [];
    for (let i = 0; i < MAX_SESSIONS; i++) sessions.push(await connect(`limit-${i}`));

    const initialize = () => fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'over-limit', version: '1' } } }),
    });
    const before = served().length;
    for (let i = 0; i < 4; i++) {
      const response = await initialize();
      assert.equal(response.status, 503);
      assert.match((await response.json()).error.message, /Too many sessions \(limit 3\)/);
    }
    const refusalsIn = (lines) => lines.slice(before).filter((line) => line.status === 503);
    const refusals = refusalsIn(await servedOnce((lines) => refusalsIn(lines).length === 4));
    assert.deepEqual(new Set(refusals.map((line) => line.instance)), new Set([0, 1]), 'each instance refused');

    // Ending one session (through either instance) frees a slot for everyone.
    await disconnect(sessions.pop());
    const response = await initialize();
    assert.equal(response.status, 200);
    const freed = response.headers.get('mcp-session-id');
    assert.ok(freed);
    await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': freed, 'mcp-protocol-version': '2025-11-25' } });
    for (const session of sessions) await disconnect(session);
  });

  test('killing the instance mid-stream loses nothing: the client resumes on the other', async () => {
    const session = await connect('survivor');
    const progress = [];
    let killed = null;
    const result = await session.client.callTool({ name: 'count_slowly', arguments: { to: 20, interval_ms: 100 } },
      undefined, {
        timeout: 60000,
        onprogress: (update) => {
          progress.push(update);
          if (update.progress === 5 && !killed) {
            const pid = Number(/pid (\d+)/.exec(update.message)[1]);
            killed = instances.find((instance) => instance.pid === pid);
            assert.ok(killed, `progress names an unknown process: ${update.message}`);
            killed.child.kill('SIGKILL');
          }
        },
      });
    assert.ok(killed, 'the call streamed progress');
    await killed.child.exited;
    const survivor = instances.find((instance) => instance !== killed);
    assert.equal(result.content[0].text, `Counted to 20 on pid ${survivor.pid}`);
    // Every number reached the client: the ones before the kill live, then the survivor's run.
    const seen = new Set(progress.map((update) => update.progress));
    for (let n = 1; n <= 20; n++) assert.ok(seen.has(n), `progress ${n} missing: ${JSON.stringify(progress)}`);
    // The stream was resumed with Last-Event-ID on the survivor.
    const onSurvivor = (line) => line.session === session.transport.sessionId && line.method === 'GET' &&
      line.instance === instances.indexOf(survivor);
    assert.ok((await servedOnce((lines) => lines.some(onSurvivor))).some(onSurvivor));

    // The session goes on there.
    const echo = await session.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.equal(echo.content[0].text, 'still here');
    await disconnect(session);
    await sleep(10);
  });
});
