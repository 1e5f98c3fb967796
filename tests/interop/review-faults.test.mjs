// Faults between `mcpkit review` and a real `mcpkit review-panel`, driven by the official TS SDK
// client: a panel that starts late, one that hangs, one killed mid-call, one restarted. Every
// call ends with an answer or a clear error in time, and `mcpkit review` reports after each call
// that no request is left pending.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually, mcpkit, sleep } from './support.mjs';
import { startCppPanel, temporaryDirectory } from './review-support.mjs';

// Long enough for a panel started 0.5 s into a call to come up under ASan on a loaded machine.
const timeoutMs = 4000;
let directory, socket, client, stderr = '';
let panel;

const review = (content) => client.callTool({ name: 'present_review', arguments: { content } });
const text = (result) => result.content[0].text;
const reports = () => [...stderr.matchAll(/present_review: ([^;\n]+); (\d+) requests pending/g)];
const lastReport = () => reports().at(-1);

before(async () => {
  directory = temporaryDirectory('review-faults-');
  socket = path.join(directory, 'review.sock');
  const env = { ...process.env, DIALECTIC_IPC_PATH: socket, MCPKIT_REVIEW_DISCOVERY: path.join(directory, 'none.json') };
  const transport = new StdioClientTransport({ command: mcpkit, args: ['review', '--timeout-ms', String(timeoutMs)], env, stderr: 'pipe' });
  transport.stderr.on('data', (chunk) => { stderr += chunk; });
  client = new Client({ name: 'faults', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await panel?.stop('SIGKILL');
  fs.rmSync(directory, { recursive: true, force: true });
});

test('no panel yet: the call retries and succeeds once the panel starts', async () => {
  const call = review('## Late panel');
  await sleep(500);
  panel = await startCppPanel(socket);
  const result = await call;
  assert.equal(result.isError, undefined, text(result));
  assert.equal(await panel.current(), '## Late panel');
  assert.ok(await eventually(() => lastReport()?.[1] === 'answered (shown)'));
  assert.equal(lastReport()[2], '0');
});

test('a panel that hangs: the call ends at the timeout with advice, nothing left pending', async () => {
  panel.child.kill('SIGSTOP');
  const started = Date.now();
  const result = await review('## Nobody answers');
  const took = Date.now() - started;
  panel.child.kill('SIGCONT');
  assert.equal(result.isError, true);
  assert.match(text(result), /did not answer within 4 s; it may be hung/);
  assert.ok(took >= timeoutMs - 50 && took < timeoutMs + 1500, `took ${took} ms`);
  assert.ok(await eventually(() => lastReport()?.[1] === 'timed out'));
  assert.equal(lastReport()[2], '0');
});

test('a panel killed mid-call: a clear error before the timeout; a restarted panel gets the next call', async () => {
  panel.child.kill('SIGSTOP');
  const started = Date.now();
  const call = review('## Killed while showing');
  await sleep(300);
  await panel.stop('SIGKILL');
  const result = await call;
  assert.equal(result.isError, true);
  assert.match(text(result), /went away before answering .*the next call reconnects/);
  assert.ok(Date.now() - started < timeoutMs, 'failed at once, not at the timeout');
  assert.ok(await eventually(() => lastReport()?.[1] === 'connection lost'));
  assert.equal(lastReport()[2], '0');

  panel = await startCppPanel(socket);  // the dead panel's socket file is replaced
  const again = await review('## After the restart');
  assert.equal(again.isError, undefined, text(again));
  assert.equal(await panel.current(), '## After the restart');
  assert.ok(await eventually(() => lastReport()?.[1] === 'answered (shown)'));
  assert.equal(lastReport()[2], '0');
});

test('no panel at all: the error names where it looked and what to start', async () => {
  await panel.stop();
  const reportsBefore = reports().length;  // the report read below must be this call's own
  const result = await review('## Nobody home');
  assert.equal(result.isError, true);
  assert.match(text(result), /Could not connect to the review panel at .*review\.sock .*mcpkit review-panel/);
  assert.ok(await eventually(() => reports().length > reportsBefore), 'this call left no report');
  assert.equal(lastReport()[2], '0');
});
