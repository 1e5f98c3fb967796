// 2025-11-25 experimental tasks served by mcpkit everything, driven by the official TypeScript SDK
// v1 client's own task support (client.experimental.tasks), over stdio and over Streamable HTTP:
// a task created and polled to its result, a tool error that fails the task, a task that stops to
// ask the user (the elicitation reaches the client while the task waits) and resumes, a cancelled
// task, the task list, and a tool that runs only as a task refused when called without one.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

import { freePort, listening, mcpkit, startProcess } from './support.mjs';

const cleanups = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

async function connect(kind) {
  const client = new Client({ name: 'ts-v1-tasks', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { confirm: true } };
  });
  let transport;
  if (kind === 'stdio') {
    transport = new StdioClientTransport({ command: mcpkit, args: ['everything'], stderr: 'pipe' });
  } else {
    const port = await freePort();
    const server = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${port}`]);
    cleanups.push(async () => { server.kill('SIGTERM'); await server.exited; });
    await listening(server, port, 'mcpkit everything');
    transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  }
  await client.connect(transport);
  cleanups.push(() => client.close());
  await client.listTools();  // the SDK learns which tools support tasks from execution.taskSupport
  return { client, asked };
}

/** Runs callToolStream to its end: the messages it yielded, by type. */
async function stream(client, name, args) {
  const seen = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60000 } }))
    seen.push(message);
  return seen;
}

for (const kind of ['stdio', 'http']) {
  describe(`TS SDK v1 tasks → mcpkit everything (${kind})`, async () => {
    const { client, asked } = await connect(kind);

    test('the server says it does tasks, and which tools may run as one', async () => {
      assert.deepEqual(client.getServerCapabilities().tasks,
        { list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const tools = (await client.listTools()).tools;
      const support = (name) => tools.find((tool) => tool.name === name)?.execution?.taskSupport;
      assert.equal(support('slow_compute'), 'optional');
      assert.equal(support('failing_job'), 'required');
      assert.equal(support('greet'), undefined);
    });

    test('a task is created, polled to its end, and gives its result', async () => {
      const seen = await stream(client, 'slow_compute', { seconds: 1, label: 'ts-v1' });
      assert.equal(seen[0].type, 'taskCreated');
      assert.equal(seen[0].task.status, 'working');
      assert.match(seen[0].task.taskId, /^[0-9a-f]{32}$/);
      assert.equal(seen[0].task.ttl, 60000);
      assert.equal(seen.at(-2).type, 'taskStatus');
      assert.equal(seen.at(-2).task.status, 'completed');
      const result = seen.at(-1);
      assert.equal(result.type, 'result', JSON.stringify(seen.at(-1)));
      assert.match(result.result.content[0].text, /Computation "ts-v1" completed after 1 seconds/);
      assert.deepEqual(result.result._meta['io.modelcontextprotocol/related-task'], { taskId: seen[0].task.taskId });
    });

    test('a tool error fails the task (2025-11-25), and tasks/result still gives the tool result', async () => {
      const seen = await stream(client, 'failing_job', {});
      const taskId = seen[0].task.taskId;
      assert.equal(seen.at(-1).type, 'error');
      assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'failed');
      const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /intended tool error/);
    });

    test('a task that needs the user asks through the client and resumes', async () => {
      const before = asked.length;
      const seen = await stream(client, 'confirm_delete', { filename: 'notes.txt' });
      assert.equal(seen.at(-1).type, 'result', JSON.stringify(seen.at(-1)));
      assert.equal(seen.at(-1).result.content[0].text, "deleted 'notes.txt'");
      assert.equal(asked.length, before + 1);
      assert.equal(asked.at(-1).message, "Delete 'notes.txt'?");
      assert.deepEqual(asked.at(-1)._meta['io.modelcontextprotocol/related-task'], { taskId: seen[0].task.taskId });
    });

    test('a running task is cancelled; cancelling it again is refused; it is listed', async () => {
      const created = await client.request({ method: 'tools/call',
        params: { name: 'slow_compute', arguments: { seconds: 60, label: 'cancel-me' }, task: { ttl: 60000 } } },
      (await import('@modelcontextprotocol/sdk/experimental/tasks/types.js')).CreateTaskResultSchema);
      const taskId = created.task.taskId;
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
      await assert.rejects(client.experimental.tasks.cancelTask(taskId),
        (error) => error instanceof McpError && error.code === -32602 && /terminal status 'cancelled'/.test(error.message));
      const listed = await client.experimental.tasks.listTasks();
      assert.ok(listed.tasks.some((task) => task.taskId === taskId && task.status === 'cancelled'));
    });

    test('a tool that runs only as a task is refused without one; an unknown task is -32602', async () => {
      await assert.rejects(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema),
        (error) => error instanceof McpError && error.code === -32601 && /runs only as a task/.test(error.message));
      await assert.rejects(client.experimental.tasks.getTask('0123456789abcdef0123456789abcdef'),
        (error) => error instanceof McpError && error.code === -32602);
    });
  });
}
