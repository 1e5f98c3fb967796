// `mcpkit client`: each verb prints JSON on stdout; failures exit non-zero with a message.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { here, mcpkit } from './support.mjs';

const serverFilesystem = path.join(here, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** Every file and folder under `dir` with its content, to see that nothing changed. */
function snapshot(dir) {
  const entries = {};
  for (const name of readdirSync(dir, { recursive: true })) {
    const full = path.join(dir, name);
    entries[name] = statSync(full).isDirectory() ? '<dir>' : readFileSync(full, 'utf8');
  }
  return entries;
}

/** Runs `mcpkit client ARGS` without blocking this process (a server in it must keep answering). */
function clientAsync(args, input) {
  return new Promise((resolve) => {
    const child = spawn(mcpkit, ['client', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

function client(...args) {
  const result = spawnSync(mcpkit, ['client', ...args, '--quiet-server', '--', mcpkit, 'everything'], {
    encoding: 'utf8', timeout: 30000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mcpkit client against mcpkit everything', () => {
  test('tools lists every tool as JSON', () => {
    const { code, stdout } = client('tools');
    assert.equal(code, 0);
    const names = JSON.parse(stdout).tools.map((t) => t.name);
    assert.ok(names.includes('echo') && names.includes('test_simple_text'));
  });

  test('call prints the result, with progress on stderr', () => {
    const echo = client('call', 'echo', '{"text":"from the cli"}');
    assert.equal(echo.code, 0);
    assert.deepEqual(JSON.parse(echo.stdout).content, [{ type: 'text', text: 'from the cli' }]);
    const slow = client('call', 'test_tool_with_progress');
    assert.equal(slow.code, 0);
    assert.match(slow.stderr, /progress 50 \/ 100: Completed step 50 of 100/);
  });

  test('resources, read, prompts and prompt', () => {
    const resources = JSON.parse(client('resources').stdout);
    assert.ok(resources.resources.some((r) => r.uri === 'test://static-text'));
    assert.ok(resources.resourceTemplates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
    const read = JSON.parse(client('read', 'test://static-text').stdout);
    assert.equal(read.contents[0].text, 'This is the content of the static text resource.');
    const prompts = JSON.parse(client('prompts').stdout);
    assert.ok(prompts.prompts.some((p) => p.name === 'test_prompt_with_arguments'));
    const prompt = JSON.parse(client('prompt', 'test_prompt_with_arguments', '{"arg1":"a","arg2":"b"}').stdout);
    assert.equal(prompt.messages[0].content.text, "Prompt with arguments: arg1='a', arg2='b'");
  });

  test('the 2026-07-28 protocol works the same', () => {
    const { code, stdout } = client('--protocol', '2026-07-28', 'call', 'echo', '{"text":"stateless"}');
    assert.equal(code, 0);
    assert.equal(JSON.parse(stdout).content[0].text, 'stateless');
  });

  test('failures exit non-zero and say why', () => {
    const unknown = client('call', 'no_such_tool');
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Unknown tool: "no_such_tool"/);
    const badJson = client('call', 'echo', '{not json');
    assert.notEqual(badJson.code, 0);
    assert.match(badJson.stderr, /not valid JSON/);
    const toolError = client('call', 'test_error_handling');
    assert.notEqual(toolError.code, 0);
    assert.match(toolError.stdout, /intentionally returns an error/);
    const missing = client('read', 'test://missing');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /Resource not found/);
    const noServer = spawnSync(mcpkit, ['client', 'tools'], { encoding: 'utf8' });
    assert.equal(noServer.status, 2);
    assert.match(noServer.stderr, /give the server to start after "--"/);
    const badCommand = spawnSync(mcpkit, ['client', 'tools', '--', '/nonexistent/server'], { encoding: 'utf8' });
    assert.notEqual(badCommand.status, 0);
    assert.match(badCommand.stderr, /cannot start "\/nonexistent\/server"/);
  });

  // Before: the tour called write_file, create_directory and move_file on server-filesystem and
  // left a file in the user's folder.
  test('tour calls only read-only tools, and says what it left alone and why', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-tour-'));
    try {
      writeFileSync(path.join(folder, 'notes.txt'), 'keep me as I am\n');
      mkdirSync(path.join(folder, 'sub'));
      const before = snapshot(folder);
      const result = spawnSync(mcpkit, ['client', 'tour', '--quiet-server', '--', process.execPath, serverFilesystem, folder],
        { encoding: 'utf8', timeout: 60000, cwd: folder });
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(snapshot(folder), before);
      const [, notCalled] = result.stdout.split('· tools not called');
      assert.ok(notCalled, result.stdout);
      for (const tool of ['write_file', 'edit_file', 'move_file']) {
        assert.doesNotMatch(result.stdout, new RegExp(`→ tools/call ${tool}\\b`));
        assert.match(notCalled, new RegExp(`"tool": "${tool}",\\s*"why": "annotated destructiveHint`));
      }
      assert.match(notCalled, /"tool": "create_directory",\s*"why": "not annotated readOnlyHint/);
      assert.match(result.stdout, /→ tools\/call list_allowed_directories/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('tour calls a tool that is not read-only only when named with --call', () => {
    const plain = spawnSync(mcpkit, ['client', 'tour', '--quiet-server', '--', mcpkit, 'everything'], { encoding: 'utf8', timeout: 60000 });
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /→ tools\/call echo/);
    assert.doesNotMatch(plain.stdout, /→ tools\/call test_trigger_tool_change/);
    assert.match(plain.stdout, /"tool": "test_trigger_tool_change",\s*"why": "not annotated readOnlyHint/);
    const asked = spawnSync(mcpkit, ['client', 'tour', '--call', 'test_trigger_tool_change', '--quiet-server', '--', mcpkit,
      'everything'], { encoding: 'utf8', timeout: 60000 });
    assert.equal(asked.status, 0, asked.stderr);
    assert.match(asked.stdout, /→ tools\/call test_trigger_tool_change/);
  });

  // Before: arguments came only on the command line, which holds at most 128 KiB per argument.
  test('call takes large arguments from a file (@PATH) or stdin (-)', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-args-'));
    try {
      const text = 'x'.repeat(300 * 1024);
      const file = path.join(folder, 'arguments.json');
      writeFileSync(file, JSON.stringify({ text }));
      const fromFile = await clientAsync(['call', 'echo', `@${file}`, '--quiet-server', '--', mcpkit, 'everything']);
      assert.equal(fromFile.code, 0, fromFile.stderr);
      assert.equal(JSON.parse(fromFile.stdout).content[0].text, text);
      const fromStdin = await clientAsync(['call', 'echo', '-', '--quiet-server', '--', mcpkit, 'everything'],
        JSON.stringify({ text: 'from stdin' }));
      assert.equal(fromStdin.code, 0, fromStdin.stderr);
      assert.equal(JSON.parse(fromStdin.stdout).content[0].text, 'from stdin');
      const missing = client('call', 'echo', `@${path.join(folder, 'nope.json')}`);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /cannot read .*nope\.json: No such file/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  // Before: the client said "HTTP 403" and dropped the body, the only explanation there was.
  test('an HTTP refusal shows what the server said', async () => {
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(403, { 'Content-Type': 'text/plain' });
      response.end('Access is only allowed at localhost:8931');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await clientAsync(['tools', '--url', `http://127.0.0.1:${server.address().port}/mcp`]);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /HTTP 403 Forbidden: Access is only allowed at localhost:8931/);
    } finally {
      server.close();
    }
  });

  // A hostile server that answers with an event that never ends once made the client hold it all.
  test('an event stream that never ends its event is dropped at 64 MiB, naming why', async () => {
    const chunk = 'x'.repeat(1 << 20);
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('data: ');
      let sent = 0;
      const more = () => {
        while (sent < 80 && response.write(chunk)) sent++;
        if (sent < 80) response.once('drain', more);  // then silence, the connection kept open
      };
      more();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await clientAsync(['tools', '--no-oauth', '--timeout', '30', '--url',
        `http://127.0.0.1:${server.address().port}/mcp`]);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /event stream broke: .*(longer|limit|bytes)/i, result.stderr);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
