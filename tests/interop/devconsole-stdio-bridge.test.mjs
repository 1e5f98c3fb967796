// devconsole --stdio: assistants that only start commands share one daemon. The first bridge
// starts the daemon (detached, outliving it); the second finds it; both see the same state.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { freePort, mcpkit, sleep } from './support.mjs';

const state = fs.mkdtempSync(path.join(os.tmpdir(), 'devconsole-bridge-'));
// The runtime directory, where the daemon keeps its /mcp secret for the bridges to read.
const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'devconsole-runtime-'));
let daemonPid;
after(() => {
  if (daemonPid) try { process.kill(daemonPid, 'SIGTERM'); } catch { /* already gone */ }
  fs.rmSync(state, { recursive: true, force: true });
  fs.rmSync(runtime, { recursive: true, force: true });
});

async function assistant(port) {
  const client = new Client({ name: 'assistant', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: mcpkit, args: ['devconsole', '--stdio', '--port', String(port)],
    env: { ...process.env, XDG_STATE_HOME: state, XDG_RUNTIME_DIR: runtime, MCPKIT_DEVCONSOLE_TOKEN: '' }, stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr += chunk; });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

test('two assistants share one daemon, started by the first bridge', async () => {
  const port = await freePort();
  const first = await assistant(port);
  assert.match(first.stderr(), new RegExp(`no daemon on port ${port}; starting one`));
  // The daemon made its /mcp secret, in a file only this user can read, and the bridge sent it.
  const secretFile = path.join(runtime, 'mcpkit', `devconsole-${port}.token`);
  assert.equal(fs.statSync(secretFile).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(secretFile)).mode & 0o777, 0o700);
  const secret = fs.readFileSync(secretFile, 'utf8').trim();
  assert.match(secret, /^[0-9a-f]{64}$/);
  const auth = { Authorization: `Bearer ${secret}` };
  const health = await (await fetch(`http://127.0.0.1:${port}/health`, { headers: auth })).json();
  daemonPid = health.pid;
  assert.equal(health.name, 'mcpkit-devconsole');
  // Without it, /health says only that the daemon runs, and /mcp answers nothing.
  const stranger = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
  assert.equal(stranger.name, 'mcpkit-devconsole');
  assert.equal(stranger.pid, undefined);
  assert.equal(stranger.capture.tracked_tab_url, undefined);
  assert.equal(stranger.commands, undefined);
  const refused = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  assert.equal(refused.status, 401);
  assert.match(await refused.text(), new RegExp(`secret is in ${secretFile.replace(/[.]/g, '\\.')}`));

  const second = await assistant(port);
  assert.doesNotMatch(second.stderr(), /starting one/);
  const saved = await first.client.callTool({ name: 'configure', arguments: { what: 'store', key: 'plan', data: { step: 3 } } });
  assert.equal(saved.isError, undefined);
  const loaded = await second.client.callTool({ name: 'configure', arguments: { what: 'load', key: 'plan' } });
  assert.deepEqual(loaded.structuredContent.data, { step: 3 }, 'the second assistant reads what the first stored');
  const tools = await second.client.listTools();
  assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['analyze', 'configure', 'generate', 'interact', 'observe']);

  await first.client.close();
  await second.client.close();
  await sleep(200);
  const still = await (await fetch(`http://127.0.0.1:${port}/health`, { headers: auth })).json();
  assert.equal(still.pid, daemonPid, 'the daemon outlives the assistants that started it');
  assert.ok(fs.existsSync(path.join(state, 'mcpkit', `devconsole-${port}.log`)));
});

test('a port taken by something else is refused with a clear message', async () => {
  const http = await import('node:http');
  const server = http.createServer((request, response) => response.end('not devconsole')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = server.address().port;
  const { runProcess } = await import('./support.mjs');
  const result = await runProcess(mcpkit, ['devconsole', '--stdio', '--port', String(port)], { timeout: 10000 });
  server.close();
  assert.equal(result.code, 1);
  assert.match(result.stderr, /taken by something that is not mcpkit devconsole/);
  assert.equal(result.stdout, '', 'stdout carries protocol only');
});
