// `mcpkit client`: each verb prints JSON on stdout; failures exit non-zero with a message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';

import { mcpkit } from './support.mjs';

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
});
