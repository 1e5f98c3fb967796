// The host as an MCP tasks client, at the model's boundary and on the real page: `mcpkit
// everything`'s task tools (execution.taskSupport "required", and "optional" ones, which the host
// also runs as tasks) run as tasks, their status shows on the card, Stop cancels them, their
// questions reach the user during the task, and the model gets the task's real result.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';

import { hostTestBed, openPage, screenshot, send, turnOver } from './host-browser.mjs';
import { chat, connectPage, everythingServer, writeConfig } from './host-support.mjs';

const TEST = { timeout: 60000 };
const here = path.dirname(fileURLToPath(import.meta.url));
const bed = hostTestBed();
let host;

before(async () => {
  const config = writeConfig(bed.work.folder, { mcpServers: {
    everything: everythingServer({ approval: 'auto' }),
    // The reference server (npm), for its structured-content tool.
    ev: { command: process.execPath, args: [path.join(here, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')], approval: 'auto' },
  } });
  host = await bed.host({ config });
});

async function page() {
  const socket = await connectPage(host.port);
  await socket.next('servers', (p) => p.servers.some((server) => server.name === 'everything' && server.state === 'ready'), 30000);
  return socket;
}

const chats = () => bed.llm.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions'));
const toolMessage = (request) => request.body.messages.filter((message) => message.role === 'tool').at(-1);
const completed = (turn) => turn.frames.find((frame) => frame.type === 'status' && frame.payload.state === 'complete').payload;

describe('tools that run as tasks', () => {
  test('a task-only tool runs as a task and the model gets its real result', TEST, async () => {
    const socket = await page();
    bed.llm.reset();
    const turn = await chat(socket, 'call everything__failing_job {}');
    const call = completed(turn).callId;
    const tasks = socket.frames.filter((frame) => frame.type === 'task' && frame.payload.callId === call);
    assert.ok(tasks.some((frame) => frame.payload.status === 'working'), `task frames: ${JSON.stringify(tasks)}`);
    assert.ok(tasks[0].payload.taskId, 'the card learns the task id');
    const result = completed(turn);
    assert.equal(result.isError, true);
    assert.match(toolMessage(chats()[1]).content, /The job failed: the input was unusable/);
    assert.doesNotMatch(toolMessage(chats()[1]).content, /runs only as a task/);
    socket.close();
  });

  test('a long optional one runs as a task too, with its status on the way', TEST, async () => {
    const socket = await page();
    bed.llm.reset();
    const turn = await chat(socket, 'call everything__slow_compute {"seconds": 1, "label": "sum"}');
    const call = completed(turn).callId;
    assert.ok(socket.frames.some((frame) => frame.type === 'task' && frame.payload.callId === call && frame.payload.status === 'working'));
    assert.match(toolMessage(chats()[1]).content, /Computation "sum" completed after 1 seconds\. Result: 42\./);
    socket.close();
  });

  test('a task asks the user during its run, and goes on with the answer', TEST, async () => {
    const socket = await page();
    bed.llm.reset();
    socket.send('message', { text: 'call everything__confirm_delete {"filename": "notes.txt"}' });
    const asked = await socket.next('elicitation_request', () => true, 30000);
    assert.match(asked.message, /Delete 'notes.txt'\?/);
    socket.send('elicitation', { requestId: asked.requestId, action: 'accept', content: { confirm: true } });
    await socket.next('turn', (p) => p.state === 'finished', 30000);
    assert.match(toolMessage(chats()[1]).content, /deleted 'notes.txt'/);
    socket.close();
  });

  test('Stop cancels a running task', TEST, async () => {
    const socket = await page();
    const started = Date.now();
    socket.send('message', { text: 'call everything__slow_compute {"seconds": 120, "label": "long"}' });
    await socket.next('task', (p) => p.status === 'working', 30000);
    socket.send('stop', {});
    const ended = await socket.next('turn', (p) => p.state !== 'started', 30000);
    assert.equal(ended.state, 'stopped');
    assert.ok(Date.now() - started < 30000, 'stopped, not waited out');
    const card = await socket.next('status', (p) => p.state === 'complete');
    assert.match(JSON.stringify(card.data), /cancel/i);
    socket.close();
  });
});

describe('tool cards', () => {
  test('a done card is one line: server › tool, the key argument, status, duration; a click opens it', TEST, async () => {
    const view = await openPage(await bed.profile(), host.url, { servers: ['everything'] });
    await send(view, 'call everything__echo {"text": "the quick brown fox"}');
    await turnOver(view);
    const card = view.getByTestId('tool-card');
    assert.equal(await card.getAttribute('data-expanded'), 'false');
    const line = await card.locator('header').innerText();
    assert.match(line, /^✓\s*everything\s*›\s*echo\s*the quick brown fox\s*done\s*\d+(\.\d+)? (ms|s)$/);
    assert.equal(await card.locator('.tool-result').isVisible(), false, 'the result is folded');
    const box = await card.boundingBox();
    await screenshot(view, 'host-card-collapsed');
    await card.getByTestId('tool-card-toggle').click();
    await card.locator('.tool-result').filter({ hasText: 'the quick brown fox' }).waitFor();
    assert.ok((await card.boundingBox()).height > box.height, 'opened, it shows more');
    await screenshot(view, 'host-card-expanded');
    // What the user chose holds: a reload folds it again, a new result does not reopen it.
    await card.getByTestId('tool-card-toggle').click();
    assert.equal(await card.getAttribute('data-expanded'), 'false');
    assert.deepEqual(view.errors, []);
  });

  test('structured content is shown once, not again as the text that repeats it', TEST, async () => {
    const view = await openPage(await bed.profile(), host.url, { servers: ['ev'] });
    await send(view, 'call ev__get-structured-content {"location": "Chicago"}');
    await turnOver(view);
    const card = view.getByTestId('tool-card');
    await card.getByTestId('tool-card-toggle').click();
    const structured = card.getByTestId('structured-content');
    await structured.waitFor();
    assert.equal(await structured.evaluate((node) => node.open), true, 'the data, open, since it is all there is');
    const shown = await card.locator('.tool-result').innerText();
    assert.equal(shown.split('Light rain / drizzle').length - 1, 1, `said once: ${shown}`);
    assert.deepEqual(view.errors, []);
  });
});

describe('on the page', () => {
  test('a running task shows its status on the card, then that it ran as a task', TEST, async () => {
    const view = await openPage(await bed.profile(), host.url, { servers: ['everything'] });
    await send(view, 'call everything__slow_compute {"seconds": 3, "label": "report"}');
    const task = view.getByTestId('tool-task');
    await task.filter({ hasText: 'Task · working' }).waitFor({ timeout: 20000 });
    await screenshot(view, 'host-task-running');
    await turnOver(view, 30000);
    const card = view.getByTestId('tool-card');
    assert.equal(await card.getAttribute('data-expanded'), 'false', 'done, the card folds to one line');
    await card.getByTestId('tool-card-toggle').click();
    await task.filter({ hasText: 'Ran as a task on everything' }).waitFor();
    assert.deepEqual(view.errors, []);
  });
});
