// One protocol suite, two implementations: `mcpkit review-panel` (C++) and the VS Code
// extension's IPC core (TypeScript, under Node). Both must answer every case the same way.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpkit, sleep } from './support.mjs';
import { IpcConnection, request, startCppPanel, startExtensionCore, temporaryDirectory } from './review-support.mjs';

for (const [name, start] of [['mcpkit review-panel (C++)', startCppPanel], ['VS Code extension IPC core (TypeScript)', startExtensionCore]]) {
  describe(name, () => {
    let directory;
    let server;
    let socket;
    before(async () => {
      directory = temporaryDirectory('review-protocol-');
      socket = path.join(directory, 'review.sock');
      server = await start(socket);
    });
    after(async () => {
      await server.stop();
      fs.rmSync(directory, { recursive: true, force: true });
    });

    test('the socket is private to its user', () => {
      assert.equal(fs.statSync(socket).mode & 0o777, 0o600);
    });

    test('every mode: replace, append, update-section (replacing, then adding a section)', async () => {
      const connection = await IpcConnection.open(socket);
      await connection.write(request('m1', { content: '## Summary\nok\n\n## Findings\n- old\n\n## Suggestions\n- keep', baseUri: directory }));
      await connection.write(request('m2', { content: '## Notes\n- appended', mode: 'append', baseUri: directory }));
      await connection.write(request('m3', { content: '- new', mode: 'update-section', section: 'Findings', baseUri: directory }));
      await connection.write(request('m4', { content: 'all good', mode: 'update-section', section: 'Verdict', baseUri: directory }));
      const replies = await connection.replies_(4);
      assert.deepEqual(replies, ['m1', 'm2', 'm3', 'm4'].map((id) => ({ id, success: true })));
      assert.equal(await server.current(),
        '## Summary\nok\n\n## Findings\n\n- new\n\n## Suggestions\n- keep\n\n## Notes\n- appended\n\n## Verdict\n\nall good\n');
      connection.close();
    });

    test('invalid JSON, an unknown type and invalid payloads get errors, and the connection goes on', async () => {
      const connection = await IpcConnection.open(socket);
      await connection.write('{"type": "present-review", oops\n');
      await connection.write(request('u1', {}, 'frobnicate'));
      await connection.write(request('u2', { content: 'x', mode: 'merge' }));
      await connection.write(request('u3', { content: '   ' }));
      await connection.write('[1,2]\n');
      await connection.write(request('u4', { content: '# still fine' }));
      const replies = await connection.replies_(6);
      assert.deepEqual(replies[0], { id: 'unknown', success: false, error: 'Invalid JSON message' });
      assert.deepEqual(replies[1], { id: 'u1', success: false, error: 'Unknown message type: frobnicate' });
      assert.deepEqual(replies[2], { id: 'u2', success: false, error: 'Invalid mode "merge": must be one of replace, append, update-section' });
      assert.deepEqual(replies[3], { id: 'u3', success: false, error: 'Invalid content: cannot be empty; write the review as markdown' });
      assert.deepEqual(replies[4], { id: 'unknown', success: false, error: 'Invalid message: expected a JSON object {type, payload, id}' });
      assert.deepEqual(replies[5], { id: 'u4', success: true });
      connection.close();
    });

    test('one message split across many writes', async () => {
      const connection = await IpcConnection.open(socket);
      const line = request('split', { content: '## Split\n' + 'é'.repeat(50) + ' arrives in pieces' });
      const bytes = Buffer.from(line);
      for (let i = 0; i < bytes.length; i += 7) {  // cuts through multi-byte characters too
        await connection.write(bytes.subarray(i, i + 7));
        if (i % 70 === 0) await sleep(2);
      }
      assert.deepEqual(await connection.replies_(1), [{ id: 'split', success: true }]);
      assert.equal(await server.current(), '## Split\n' + 'é'.repeat(50) + ' arrives in pieces');
      connection.close();
    });

    test('many messages in one write are answered in order', async () => {
      const connection = await IpcConnection.open(socket);
      const ids = Array.from({ length: 20 }, (_, i) => 'batch-' + i);
      await connection.write(ids.map((id, i) => request(id, { content: '## Item ' + i, mode: i ? 'append' : 'replace' })).join(''));
      const replies = await connection.replies_(20);
      assert.deepEqual(replies.map((reply) => reply.id), ids);
      assert.ok(replies.every((reply) => reply.success));
      assert.ok((await server.current()).endsWith('## Item 19'));
      connection.close();
    });

    test('100 concurrent requests, over one connection and over ten', async () => {
      const shared = await IpcConnection.open(socket);
      const ids = Array.from({ length: 100 }, () => randomUUID());
      await Promise.all(ids.map((id) => shared.write(request(id, { content: '## Concurrent', mode: 'append' }))));
      const replies = await shared.replies_(100);
      assert.deepEqual(new Set(replies.map((reply) => reply.id)), new Set(ids));
      assert.ok(replies.every((reply) => reply.success));
      shared.close();
      const connections = await Promise.all(Array.from({ length: 10 }, () => IpcConnection.open(socket)));
      await Promise.all(connections.map((connection, c) =>
        Promise.all(Array.from({ length: 10 }, (_, i) => connection.write(request(`c${c}-${i}`, { content: 'x', mode: 'append' }))))));
      for (const [c, connection] of connections.entries()) {
        const got = await connection.replies_(10);
        assert.deepEqual(got.map((reply) => reply.id), Array.from({ length: 10 }, (_, i) => `c${c}-${i}`));
        connection.close();
      }
    });

    test('a 5 MB review', async () => {
      const connection = await IpcConnection.open(socket);
      const content = '## Large\n' + 'a line of a very long review, src/main.cpp:42\n'.repeat(110_000);
      assert.ok(Buffer.byteLength(content) > 5_000_000);
      await connection.write(request('large', { content }));
      assert.deepEqual(await connection.replies_(1, 30000), [{ id: 'large', success: true }]);
      assert.equal((await server.current()).length, content.length);
      connection.close();
    });

    test('a peer that never finishes its message, or never reads, holds up nobody else', async () => {
      const silent = await IpcConnection.open(socket);
      await silent.write('{"type":"present-review","id":"never","payload":{"content":"half');
      const deaf = await IpcConnection.open(socket);
      deaf.socket.pause();  // never reads its replies
      for (let i = 0; i < 50; i++) await deaf.write(request('deaf-' + i, { content: '## Deaf ' + i }));
      const other = await IpcConnection.open(socket);
      await other.write(request('other', { content: '## Other client' }));
      assert.deepEqual(await other.replies_(1, 5000), [{ id: 'other', success: true }]);
      assert.equal(silent.replies.length, 0);  // half a message gets no answer, and no crash
      silent.close();
      deaf.close();
      other.close();
      // The server still serves after the rude peers left.
      const after_ = await IpcConnection.open(socket);
      await after_.write(request('after', { content: '## After' }));
      assert.deepEqual(await after_.replies_(1), [{ id: 'after', success: true }]);
      after_.close();
    });

    test('mcpkit review talks to it, and times out cleanly when it stops answering', async () => {
      const env = { ...process.env, DIALECTIC_IPC_PATH: socket, MCPKIT_REVIEW_DISCOVERY: path.join(directory, 'none.json') };
      const client = new Client({ name: 'protocol', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: mcpkit, args: ['review', '--timeout-ms', '800'], env, stderr: 'ignore' }));
      try {
        const shown = await client.callTool({ name: 'present_review', arguments: { content: '## Through mcpkit review', baseUri: directory } });
        assert.equal(shown.isError, undefined, JSON.stringify(shown));
        assert.equal(await server.current(), '## Through mcpkit review');
        server.child.kill('SIGSTOP');  // alive, connected, silent
        const started = Date.now();
        const silent = await client.callTool({ name: 'present_review', arguments: { content: '## Unanswered' } });
        server.child.kill('SIGCONT');
        assert.equal(silent.isError, true);
        assert.match(silent.content[0].text, /did not answer within 0\.8 s/);
        assert.ok(Date.now() - started < 3000);
      } finally {
        server.child.kill('SIGCONT');
        await client.close();
      }
    });
  });
}
