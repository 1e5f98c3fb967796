// Tasks shared by two mcpkit everything instances through a real redis-server (--store redis://):
// a task started on one is polled, answered and cancelled through the other, as a client behind a
// load balancer would do without knowing which instance runs it (2026-07-28 tasks extension).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { eventually, freePort, listening, mcpkit, startProcess } from './support.mjs';

const children = [];
after(async () => {
  for (const child of children.reverse()) { child.kill('SIGTERM'); await child.exited; }
});

let nextId = 1;
/** One 2026-07-28 request declaring the tasks extension, to the instance at `url`. */
async function send(url, method, params = {}) {
  const body = {
    jsonrpc: '2.0', id: nextId++, method,
    params: { ...params, _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
    } },
  };
  const name = params.name ?? params.taskId;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
               'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) },
    body: JSON.stringify(body),
  });
  const answer = JSON.parse(await response.text());
  if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.result;
}

describe('tasks shared by two mcpkit everything instances through Redis', async () => {
  const redisPort = await freePort();
  const redis = startProcess('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  children.push(redis);
  await listening(redis, redisPort, 'redis-server');
  const urls = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const child = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${port}`, '--store', `redis://127.0.0.1:${redisPort}`]);
    children.push(child);
    await listening(child, port, 'mcpkit everything');
    urls.push(`http://127.0.0.1:${port}/mcp`);
  }
  const [a, b] = urls;

  test('started on A, polled on B to its result', async () => {
    const created = await send(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'shared' } });
    assert.equal(created.resultType, 'task');
    const seen = await send(b, 'tasks/get', { taskId: created.taskId });
    assert.equal(seen.taskId, created.taskId);
    assert.ok(['working', 'completed'].includes(seen.status));
    let done;
    assert.ok(await eventually(async () => (done = await send(b, 'tasks/get', { taskId: created.taskId })).status === 'completed', 10000));
    assert.match(done.result.content[0].text, /Computation "shared" completed after 1 seconds/);
  });

  test('a question asked on A is answered through B', async () => {
    const created = await send(a, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'shared.txt' } });
    let parked;
    assert.ok(await eventually(async () => (parked = await send(b, 'tasks/get', { taskId: created.taskId })).status === 'input_required', 5000));
    assert.deepEqual(Object.keys(parked.inputRequests), ['confirm']);
    const ack = await send(b, 'tasks/update', { taskId: created.taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    assert.equal(ack.resultType, 'complete');
    let done;
    assert.ok(await eventually(async () => (done = await send(b, 'tasks/get', { taskId: created.taskId })).status === 'completed', 5000));
    assert.equal(done.result.content[0].text, "deleted 'shared.txt'");
  });

  test('a task running on A is cancelled through B', async () => {
    const created = await send(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60, label: 'shared-cancel' } });
    const ack = await send(b, 'tasks/cancel', { taskId: created.taskId });
    assert.equal(ack.resultType, 'complete');
    assert.ok(await eventually(async () => (await send(a, 'tasks/get', { taskId: created.taskId })).status === 'cancelled', 5000));
    assert.equal((await send(b, 'tasks/get', { taskId: created.taskId })).status, 'cancelled');
  });

  test('an unknown task is -32602 on either', async () => {
    for (const url of urls)
      await assert.rejects(send(url, 'tasks/get', { taskId: 'ffffffffffffffffffffffffffffffff' }), (error) => error.code === -32602);
  });
});
