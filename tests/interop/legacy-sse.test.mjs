// mcpkit client against a real 2024-11-05 HTTP+SSE server: supergateway in SSE mode, serving
// mcpkit everything (stdio) on GET /sse + POST /message. Both ways in: the default, which POSTs
// initialize to the URL first and falls back when that is refused, and --sse, which GETs at once.
// Before the fix the fallback closed the SSE stream before reading its endpoint event.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { freePort, here, listening, mcpkit, startProcess } from './support.mjs';

const supergateway = path.join(here, 'node_modules/supergateway/dist/index.js');

function client(url, ...args) {
  const result = spawnSync(mcpkit, ['client', ...args, '--url', url], { encoding: 'utf8', timeout: 30000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mcpkit client over HTTP+SSE (2024-11-05) to supergateway', () => {
  let gateway;
  let url;
  before(async () => {
    const port = await freePort();
    gateway = startProcess(process.execPath, [supergateway, '--stdio', `${mcpkit} everything`, '--outputTransport', 'sse',
      '--port', String(port), '--logLevel', 'none']);
    await listening(gateway, port, 'supergateway');
    url = `http://127.0.0.1:${port}/sse`;
  });
  after(() => gateway.kill());

  test('falls back to HTTP+SSE when the POST-first probe is refused', () => {
    const echo = client(url, 'call', 'echo', '{"text":"through the legacy transport"}');
    assert.equal(echo.code, 0, echo.stderr);
    assert.deepEqual(JSON.parse(echo.stdout).content, [{ type: 'text', text: 'through the legacy transport' }]);
  });

  test('--sse goes straight to the SSE stream, and every verb works over it', () => {
    const tools = client(url, '--sse', 'tools');
    assert.equal(tools.code, 0, tools.stderr);
    assert.ok(JSON.parse(tools.stdout).tools.some((tool) => tool.name === 'echo'));
    const progress = client(url, '--sse', 'call', 'test_tool_with_progress');
    assert.equal(progress.code, 0, progress.stderr);
    assert.match(progress.stderr, /progress 100 \/ 100/);
    const read = client(url, '--sse', 'read', 'test://static-text');
    assert.equal(read.code, 0, read.stderr);
    assert.equal(JSON.parse(read.stdout).contents[0].text, 'This is the content of the static text resource.');
  });

  test('a URL with no SSE endpoint says so, with what the server answered', () => {
    const wrong = client(url.replace('/sse', '/nothing-here'), 'tools');
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /refused initialize with HTTP 404 Not Found: .*Cannot POST \/nothing-here/);
  });
});
