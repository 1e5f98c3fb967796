// The host's WebSocket and sessions, driven as pages would (Node's WebSocket) and as a careless or
// hostile client might: malformed and unknown frames answered with errors naming the field while
// the connection stays usable, an oversized frame closing only that connection (1009), binary
// frames, Origin and Host checks, the token beyond loopback, sessions resumed with their
// history, tabs of one session kept in step, a second message refused while a turn runs, and
// history surviving a restart in SQLite.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { eventually, freePort } from './support.mjs';

const work = workFolder();
let llm;
let config;

before(async () => {
  llm = await startFakeLlm();
  config = writeConfig(work.folder, { mcpServers: { everything: everythingServer() } });
});
after(async () => { await llm.close(); work.remove(); });

describe('bad input on the WebSocket', () => {
  let host;
  before(async () => { host = await startHost({ config, llm }); });
  after(async () => { await host.stop(); });

  test('each malformed frame gets an error naming what is wrong; the connection keeps working', async () => {
    const page = await connectPage(host.port);
    const cases = [
      ['not json', /must be a JSON object/],
      ['[1,2]', /must be a JSON object/],
      ['{"payload":{}}', /"type" must be a string/],
      ['{"type":"dance","payload":{}}', /unknown frame type "dance"; the page may send message, stop/],
      ['{"type":"message","payload":"hi"}', /message\.payload must be an object/],
      ['{"type":"message","payload":{"text":42}}', /message\.payload\.text must be a string/],
      ['{"type":"message","payload":{"text":""}}', /message\.payload\.text is empty/],
      ['{"type":"message","payload":{"text":"x","attachments":[5]}}', /attachments must hold objects/],
      ['{"type":"approval","payload":{"callId":"c","decision":"maybe"}}', /approval\.payload\.decision must be one of "once", "always", "deny"/],
      ['{"type":"call_tool","payload":{"tool":"everything__echo"}}', /call_tool\.payload\.requestId is missing/],
      ['{"type":"call_tool","payload":{"requestId":"r","tool":"x","arguments":[]}}', /call_tool\.payload\.arguments must be an object/],
      ['{"type":"elicitation","payload":{"requestId":"r","action":"accept","content":"yes"}}', /elicitation\.payload\.content must be an object/],
    ];
    for (const [frame, expected] of cases) {
      const from = page.frames.length;
      page.sendRaw(frame);
      const error = await page.next('error', () => true, 5000, from);
      assert.match(error.message, expected, frame);
    }
    page.socket.send(new Uint8Array([1, 2, 3]));
    assert.match((await page.next('error')).message, /JSON text, not binary/);
    const turn = await chat(page, 'echo still fine');
    assert.equal(turn.text, 'still fine');
    page.close();
  });

  test('a frame over 1 MiB closes that connection with 1009 and nobody else\'s', async () => {
    const victim = await connectPage(host.port);
    const bystander = await connectPage(host.port);
    victim.sendRaw(JSON.stringify({ type: 'message', payload: { text: 'x'.repeat(1100 * 1024) } }));
    const closed = await victim.closed;
    assert.equal(closed.code, 1009);
    assert.equal((await chat(bystander, 'echo unharmed')).text, 'unharmed');
    bystander.close();
  });

  test('a second message while a turn runs is refused; the first goes on', async () => {
    const page = await connectPage(host.port);
    page.send('message', { text: 'slow 3 150' });
    await page.next('turn', (p) => p.state === 'started');
    page.send('message', { text: 'echo too soon' });
    assert.match((await page.next('error')).message, /still being written/);
    assert.equal((await page.next('turn', (p) => p.state !== 'started')).state, 'finished');
    page.close();
  });
});

describe('Origin, Host and token', () => {
  test('a page from elsewhere cannot open the WebSocket; a forged Host is refused', async () => {
    const host = await startHost({ config, llm });
    try {
      await assert.rejects(connectPage(host.port, { origin: 'http://evil.example' }));
      const own = await connectPage(host.port, { origin: `http://127.0.0.1:${host.port}` });
      own.close();
      const forged = await new Promise((resolve) => {
        const socket = net.connect(host.port, '127.0.0.1', () =>
          socket.write('GET /health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n'));
        let answer = '';
        socket.on('data', (chunk) => { answer += chunk; });
        socket.on('end', () => resolve(answer));
      });
      assert.match(forged, /^HTTP\/1\.1 403/);
    } finally {
      await host.stop();
    }
  });

  test('served beyond loopback, every request needs the token it printed', async () => {
    const port = await freePort();
    const host = await startHost({ config, llm, args: ['--http', `0.0.0.0:${port}`, '--token', 'sesame'], port });
    try {
      assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/?token=sesame`)).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/health`, { headers: { Authorization: 'Bearer sesame' } })).status, 200);
      // The page's own files and WebSocket get the token as an HttpOnly cookie set by the page.
      const opened = await fetch(`http://127.0.0.1:${port}/?token=sesame`);
      const cookie = opened.headers.get('set-cookie');
      assert.match(cookie, /^mcpkit_host_token=sesame; HttpOnly; SameSite=Strict; Path=\//);
      assert.equal(opened.headers.get('referrer-policy'), 'no-referrer');
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`, { headers: { Cookie: 'other=1; mcpkit_host_token=sesame' } })).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`, { headers: { Cookie: 'mcpkit_host_token=wrong' } })).status, 401);
      await assert.rejects(connectPage(port));
    } finally {
      await host.stop();
    }
  });
});

describe('sessions', () => {
  test('a reconnecting page resumes its session with the history; an unknown id starts a new one', async () => {
    const host = await startHost({ config, llm });
    try {
      const first = await connectPage(host.port);
      assert.equal(first.connection.state, 'connected');
      await chat(first, 'echo remember me');
      first.close();
      const again = await connectPage(host.port, { sessionId: first.connection.sessionId });
      assert.equal(again.connection.state, 'reconnected');
      assert.equal(again.connection.sessionId, first.connection.sessionId);
      const history = await again.next('history');
      assert.deepEqual(history.messages.map((m) => [m.role, m.content]), [['user', 'echo remember me'], ['assistant', 'remember me']]);
      again.close();
      const stranger = await connectPage(host.port, { sessionId: 'session_nobody' });
      assert.equal(stranger.connection.state, 'connected');
      assert.notEqual(stranger.connection.sessionId, 'session_nobody');
      stranger.close();
    } finally {
      await host.stop();
    }
  });

  test('two tabs of one session see the same turn', async () => {
    const host = await startHost({ config, llm });
    try {
      const a = await connectPage(host.port);
      const b = await connectPage(host.port, { sessionId: a.connection.sessionId });
      const turn = await chat(a, 'echo seen twice');
      const echoed = await b.next('user_message', (p) => p.turnId === turn.turnId);
      assert.equal(echoed.message.content, 'echo seen twice');
      await b.next('turn', (p) => p.turnId === turn.turnId && p.state === 'finished');
      assert.equal(b.textOfTurn(turn.turnId), 'seen twice');
      a.close();
      b.close();
    } finally {
      await host.stop();
    }
  });

  test('history survives a restart of the host (SQLite)', async () => {
    const store = `sqlite:${path.join(work.folder, 'host.db')}`;
    const first = await startHost({ config, llm, store });
    let sessionId;
    try {
      const page = await connectPage(first.port);
      sessionId = page.connection.sessionId;
      await page.next('servers', (p) => p.servers.some((s) => s.state === 'ready'));
      await chat(page, 'call everything__echo {"text":"kept"}');
      page.close();
    } finally {
      await first.stop();
    }
    const second = await startHost({ config, llm, store });
    try {
      const page = await connectPage(second.port, { sessionId });
      assert.equal(page.connection.state, 'reconnected');
      const history = await page.next('history');
      assert.deepEqual(history.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
      assert.equal(history.messages[2].data.content[0].text, 'kept');
      const usage = await page.next('usage');
      assert.ok(usage.totalTokens > 0, 'token usage kept too');
      // The conversation goes on from there: the model gets the old turns.
      llm.reset();
      await chat(page, 'echo and more');
      assert.equal(llm.requests[0].body.messages.filter((m) => m.role === 'tool').length, 1);
      page.close();
    } finally {
      await second.stop();
    }
  });
});

describe('prompts and logs', () => {
  test('a prompt used as a slash command becomes the user message; --log-json lines carry the ids', async () => {
    const host = await startHost({ config, llm, args: ['--log-json'] });
    try {
      const page = await connectPage(host.port);
      await page.next('servers', (p) => p.servers.some((s) => s.state === 'ready'));
      llm.reset();
      page.send('message', { text: 'and then some', prompt: { server: 'everything', name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } } });
      const sent = await page.next('user_message');
      assert.match(sent.message.content, /^Prompt with arguments: arg1='a', arg2='b'\n\nand then some$/);
      await page.next('turn', (p) => p.state === 'finished');
      assert.match(llm.requests[0].body.messages.at(-1).content, /arg1='a'/);
      page.send('message', { prompt: { server: 'everything', name: 'no_such_prompt' } });
      assert.equal((await page.next('turn', (p) => p.state === 'failed')).state, 'failed');
      page.close();
      await host.stop();
      const lines = host.child.output.split('\n').filter((line) => line.startsWith('{'));
      assert.ok(lines.length > 3);
      const entries = lines.map((line) => JSON.parse(line));
      const started = entries.find((entry) => entry.action === 'turn_started');
      assert.equal(started.component, 'Orchestrator');
      assert.equal(started.sessionId, page.connection.sessionId);
      assert.match(started.requestId, /^turn_/);
      assert.ok(entries.every((entry) => entry.time && entry.level && entry.component && entry.action));
      assert.ok(!host.child.output.includes('test-key'), 'no API key in the log');
    } finally {
      await host.stop();
    }
  });
});

describe('stale connections', () => {
  test('a client that stops answering pings is dropped after the heartbeat window', async () => {
    const host = await startHost({ config, llm, args: ['--heartbeat-seconds', '1'] });
    try {
      // A raw WebSocket client that completes the handshake and then never answers a ping.
      const socket = net.connect(host.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
      const started = Date.now();
      let ended = false;
      socket.on('data', () => {});
      socket.on('close', () => { ended = true; });
      assert.ok(await eventually(() => ended, 10000), 'closed');
      assert.ok(Date.now() - started >= 1000, 'not before the window');
      const health = await (await fetch(`${host.url}/health`)).json();
      assert.equal(health.sessions.pages, 0);
    } finally {
      await host.stop();
    }
  });
});
