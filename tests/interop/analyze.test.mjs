// The official TypeScript SDK v1 client drives `mcpkit analyze` over stdio the way an assistant
// would: every tool's structuredContent checked by the SDK against its outputSchema, progress and
// cancellation of analyze-project on a real tree (the Python standard library), and a session
// that relates later answers to earlier ones.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { eventually, mcpkit } from './support.mjs';

const pythonTree = fs.readdirSync('/usr/lib').filter((name) => /^python3\.\d+$/.test(name)).sort().at(-1);

describe('TypeScript SDK v1 client → mcpkit analyze (stdio)', () => {
  let client;
  let project;

  before(async () => {
    // A small project of our own with an import cycle, beside the real tree.
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'analyze-interop-'));
    fs.mkdirSync(path.join(project, 'pkg'));
    fs.writeFileSync(path.join(project, 'pkg/__init__.py'), '');
    fs.writeFileSync(path.join(project, 'pkg/a.py'),
      'from pkg import b\n\n\ndef run(x):\n    if x and b.ready():\n        return 1\n    return 0\n');
    fs.writeFileSync(path.join(project, 'pkg/b.py'), 'from pkg import a\n\n\ndef ready():\n    return a.run(0) == 0\n');
    client = new Client({ name: 'analyze-interop', version: '1.0.0' });
    // The server's root is /: the project and /usr/lib/python3.x are both reachable by absolute path.
    await client.connect(new StdioClientTransport({
      command: mcpkit, args: ['analyze', '--no-cache', '--root', '/'], stderr: 'ignore',
    }));
  });

  after(async () => {
    await client?.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  test('every tool declares the envelope as its outputSchema, with described parameters', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['analyze-file', 'analyze-code', 'analyze-project', 'get-symbols', 'get-dependencies',
      'create-session', 'get-session-info', 'get-session-history', 'clear-session', 'list-sessions',
      'list-available-tools', 'get-tool-details']) {
      assert.ok(names.includes(name), `${name} is listed`);
    }
    for (const tool of tools) {
      assert.deepEqual(tool.outputSchema.required.sort(), ['data', 'metadata', 'status'], tool.name);
      assert.ok(tool.outputSchema.properties.context, `${tool.name} describes context`);
      for (const [parameter, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok(schema.description?.length > 10, `${tool.name}.${parameter} has a description`);
      }
    }
  });

  test('analyze-code answers with a measured envelope the SDK validates', async () => {
    const result = await client.callTool({
      name: 'analyze-code',
      arguments: { code: 'def f(a, b):\n    if a and b:\n        return 1\n    return 2\n', language: 'python' },
    });
    assert.equal(result.isError, undefined);
    const { data, metadata, status } = result.structuredContent;
    assert.equal(status.success, true);
    assert.equal(status.code, 200);
    assert.equal(metadata.tool, 'analyze-code');
    assert.equal(typeof metadata.executionTime, 'number');
    assert.ok(metadata.executionTime >= 0);
    assert.ok(!Number.isNaN(Date.parse(metadata.timestamp)));
    const f = data.functions.find((fn) => fn.name === 'f');
    assert.equal(f.cyclomatic, 3);
    assert.match(result.content[0].text, /f/);
  });

  test('a bad argument is a failed envelope naming the field', async () => {
    const result = await client.callTool({ name: 'analyze-code', arguments: { code: 7, language: 'python' } });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.status.code, 400);
    assert.match(result.structuredContent.status.message, /code/);
  });

  test('analyze-project over a real tree reports progress and the same totals as the CLI', async () => {
    const progress = [];
    const result = await client.callTool(
      { name: 'analyze-project', arguments: { projectPath: `/usr/lib/${pythonTree}` } },
      undefined,
      { timeout: 120000, onprogress: (p) => progress.push(p) },
    );
    assert.equal(result.structuredContent.status.success, true);
    const { totals } = result.structuredContent.data;
    assert.ok(totals.files > 500, `${totals.files} files`);
    assert.ok(progress.length >= 2, `${progress.length} progress notifications`);
    for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i].progress >= progress[i - 1].progress);
    assert.ok(progress.every((p) => p.total === undefined || p.progress <= p.total));
    assert.ok(progress.some((p) => typeof p.message === 'string' && p.message.length > 0));
    const cli = spawnSync(mcpkit, ['analyze', 'report', `/usr/lib/${pythonTree}`, '--json', '--no-cache', '--progress', 'never'],
      { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(cli.status, 0, cli.stderr);
    assert.deepEqual(totals, JSON.parse(cli.stdout).totals);
  });

  test('cancelling analyze-project mid-run moves the call to cancelled in its session', async () => {
    const created = await client.callTool({ name: 'create-session', arguments: {} });
    const sessionId = created.structuredContent.data.sessionId;
    const controller = new AbortController();
    let notified = 0;
    const call = client.callTool(
      { name: 'analyze-project', arguments: { projectPath: `/usr/lib/${pythonTree}`, sessionId } },
      undefined,
      {
        signal: controller.signal,
        timeout: 120000,
        onprogress: () => { notified += 1; if (notified === 1) controller.abort('enough'); },
      },
    );
    await assert.rejects(call);
    const cancelled = await eventually(async () => {
      const history = await client.callTool({ name: 'get-session-history', arguments: { sessionId } });
      const calls = history.structuredContent.data.history;
      return calls.length === 1 && calls[0].state === 'cancelled';
    }, 20000);
    assert.ok(cancelled, 'the session records the call as cancelled');
    // The server is still there, and answers the next call.
    const info = await client.callTool({ name: 'get-session-info', arguments: { sessionId } });
    assert.equal(info.structuredContent.status.success, true);
  });

  test('a session relates a file answer to the project answer that contains it, and finds the cycle', async () => {
    const created = await client.callTool({ name: 'create-session', arguments: { ttlSeconds: 300 } });
    const sessionId = created.structuredContent.data.sessionId;
    const whole = await client.callTool({ name: 'analyze-project', arguments: { projectPath: project, sessionId } });
    const projectResult = whole.structuredContent.context.resultId;
    const cycles = whole.structuredContent.data.dependencies.cycles;
    assert.equal(cycles.length, 1);
    assert.deepEqual([...cycles[0]].sort(), ['pkg/a.py', 'pkg/b.py']);
    const file = await client.callTool({
      name: 'analyze-file', arguments: { path: path.join(project, 'pkg/a.py'), sessionId },
    });
    assert.equal(file.structuredContent.context.sessionId, sessionId);
    assert.deepEqual(file.structuredContent.context.relatedResults, [projectResult]);
    const symbols = await client.callTool({
      name: 'get-symbols', arguments: { path: path.join(project, 'pkg/a.py'), sessionId },
    });
    assert.equal(symbols.structuredContent.status.success, true);
    const history = await client.callTool({ name: 'get-session-history', arguments: { sessionId } });
    assert.deepEqual(history.structuredContent.data.history.map((c) => c.tool),
      ['analyze-project', 'analyze-file', 'get-symbols']);
  });
});
