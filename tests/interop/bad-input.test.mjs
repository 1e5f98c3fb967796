// Bad input on stdio: every malformed message gets the right JSON-RPC error or is refused cleanly,
// the server keeps serving, and requests in flight are still answered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { RawSession, mcpkit } from './support.mjs';

describe('mcpkit everything under bad input', () => {
  let session;
  before(() => { session = new RawSession(mcpkit, ['everything', '--max-message-size', '4096']); });
  after(async () => {
    const { code } = await session.close();
    assert.equal(code, 0, 'the server exits cleanly when stdin closes');
  });

  test('requests before initialize are refused, ping is answered', async () => {
    const early = await session.request(1, 'tools/list', {});
    assert.equal(early.error.code, -32602);
    assert.match(early.error.message, /initialize/);
    assert.deepEqual((await session.request(2, 'ping')).result, {});
    const init = await session.initialize();
    assert.equal(init.result.protocolVersion, '2025-11-25');
  });

  test('malformed JSON is a parse error with a null id', async () => {
    session.write('{"jsonrpc":"2.0","id":3,"method":\n');
    const error = await session.take((m) => m.error?.code === -32700);
    assert.equal(error.id, null);
  });

  test('garbage between messages does not disturb a request in flight', async () => {
    // A tool that takes ~100 ms (progress steps) is in flight while garbage arrives.
    session.send({ jsonrpc: '2.0', id: 10, method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p10' } } });
    session.write('garbage\n\n   \n[1,2\n{}\n');
    // "garbage" and "[1,2" are parse errors, "{}" an invalid request; blank lines are nothing.
    const parseErrors = [await session.take((m) => m.error?.code === -32700), await session.take((m) => m.error?.code === -32700)];
    const invalid = await session.take((m) => m.error?.code === -32600);
    for (const error of [...parseErrors, invalid]) assert.equal(error.id, null);
    assert.match(invalid.error.message, /jsonrpc/);
    const answer = await session.response(10);
    assert.equal(answer.result.content[0].text, 'p10');
    assert.deepEqual(session.messages.filter((m) => m.error), [], 'a blank line was answered');
  });

  test('wrong types name the field', async () => {
    session.send({ jsonrpc: '2.0', id: 20, method: 7 });
    const invalid = await session.response(20);
    assert.equal(invalid.error.code, -32600);
    assert.match(invalid.error.message, /method/);
    session.send({ jsonrpc: '1.0', id: 21, method: 'ping' });
    assert.match((await session.response(21)).error.message, /jsonrpc/);
    const params = await session.request(22, 'tools/call', 'not an object');
    assert.equal(params.error.code, -32600);
    const args = await session.request(23, 'tools/call', { name: 'echo', arguments: { text: 5 } });
    assert.equal(args.result.isError, true);
    assert.match(args.result.content[0].text, /text/);
    const noParams = await session.request(25, 'tools/call');
    assert.equal(noParams.error.code, -32602, 'found by the fuzzer: tools/call without params');
    const noName = await session.request(24, 'tools/call', { arguments: {} });
    assert.equal(noName.error.code, -32602);
    assert.match(noName.error.message, /name/);
  });

  test('unknown methods are -32601', async () => {
    const unknown = await session.request(30, 'tools/explode', {});
    assert.equal(unknown.error.code, -32601);
  });

  test('a duplicate id in flight is refused and the first request still answered', async () => {
    session.send({ jsonrpc: '2.0', id: 40, method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'first' } } });
    session.send({ jsonrpc: '2.0', id: 40, method: 'ping' });
    const refused = await session.take((m) => m.id === 40 && m.error);
    assert.equal(refused.error.code, -32600);
    const first = await session.take((m) => m.id === 40 && m.result);
    assert.equal(first.result.content[0].text, 'first');
  });

  test('an oversized message is refused and the next one served', async () => {
    session.send({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(10000) } } });
    session.send({ jsonrpc: '2.0', id: 51, method: 'tools/call', params: { name: 'echo', arguments: { text: 'small' } } });
    const refused = await session.take((m) => m.error?.code === -32600 && m.id === null);
    assert.match(refused.error.message, /exceeds the limit of 4096 bytes.*--max-message-size/);
    assert.equal((await session.response(51)).result.content[0].text, 'small');
  });

  // Before: 1e999 parses as infinity and came back as null, which matches no token the client sent.
  test('a progressToken that overflows a double comes back as sent', async () => {
    session.write('{"jsonrpc":"2.0","id":70,"method":"tools/call","params":{"name":"test_tool_with_progress",' +
      '"arguments":{},"_meta":{"progressToken":1e999}}}\n');
    await session.response(70);
    const progress = session.lines.filter((line) => line.includes('notifications/progress') && line.includes('progressToken'));
    assert.ok(progress.length > 0);
    for (const line of progress.slice(-3)) assert.match(line, /"progressToken":1e999[,}]/);
  });

  test('batches are refused in 2025-11-25', async () => {
    session.write(JSON.stringify([{ jsonrpc: '2.0', id: 60, method: 'ping' }]) + '\n');
    const refused = await session.take((m) => m.error?.code === -32600 && /batch/.test(m.error.message));
    assert.equal(refused.id, null);
  });
});

describe('batches in 2025-03-26', () => {
  test('a batch gets one array of answers', async () => {
    const session = new RawSession(mcpkit, ['everything']);
    try {
      const init = await session.initialize('2025-03-26');
      assert.equal(init.result.protocolVersion, '2025-03-26');
      session.write(JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'in a batch' } } },
      ]) + '\n');
      const answers = await session.take((m) => Array.isArray(m));
      assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2]);
    } finally {
      await session.close();
    }
  });
});

// Before: analyze and review told the user to raise a limit they had no option for.
describe('every stdio server takes --max-message-size', () => {
  for (const command of [['analyze', '--no-cache'], ['review']]) {
    test(`mcpkit ${command[0]} refuses a message over its limit and names the option`, async () => {
      const session = new RawSession(mcpkit, [...command, '--max-message-size', '2048']);
      try {
        await session.initialize();
        session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { text: 'x'.repeat(4000) } } });
        const refused = await session.take((m) => m.error?.code === -32600 && m.id === null);
        assert.match(refused.error.message, /Message of \d+ bytes exceeds the limit of 2048 bytes.*--max-message-size/);
        assert.deepEqual((await session.request(2, 'ping')).result, {});
      } finally {
        await session.close();
      }
    });
  }
});
