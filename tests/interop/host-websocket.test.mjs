// The host's WebSocket and sessions, driven as pages would (Node's WebSocket) and as a careless or
// hostile client might: malformed and unknown frames answered with errors naming the field while
// the connection stays usable, an oversized frame closing only that connection (1009), binary
// frames, Origin and Host checks, the token beyond loopback, sessions resumed with their
// history, tabs of one session kept in step, a second message refused while a turn runs, and
// history surviving a restart in SQLite, and a session that went to another instance and back
// (Redis) coming back with the turns made there.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { eventually, freePort, startRedis } from './support.mjs';

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
      ['{"type":"approval","payload":{"callId":"c","decision":"maybe"}}', /approval\.payload\.decision must be one of "once", "conversation", "always", "deny"/],
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

  test('on loopback too, every request needs the token: query, cookie or Bearer; the log never shows it', async () => {
    const host = await startHost({ config, llm, args: ['--log-json'], env: { MCPKIT_HOST_TOKEN: 'loopback-secret' } });
    try {
      const base = host.url;
      for (const path of ['/', '/health', '/host.js']) assert.equal((await fetch(`${base}${path}`)).status, 401, path);
      await assert.rejects(connectPage(host.port, { token: null }), 'a WebSocket without the token');
      await assert.rejects(connectPage(host.port, { token: 'guess' }), 'a WebSocket with a wrong token');
      assert.equal((await fetch(`${base}/health?token=loopback-secret`)).status, 200);
      assert.equal((await fetch(`${base}/health`, { headers: { Authorization: 'Bearer loopback-secret' } })).status, 200);
      const page = await fetch(`${base}/?token=loopback-secret`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('set-cookie'), /^mcpkit_host_token=loopback-secret; HttpOnly; SameSite=Lax; Path=\//);
      assert.equal((await fetch(`${base}/host.js`, { headers: { Cookie: 'mcpkit_host_token=loopback-secret' } })).status, 200);
      (await connectPage(host.port, { token: 'loopback-secret' })).close();
      // No other page may frame the chat (clickjacking).
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
      // The sign-in's way back is served on loopback without the token (its OAuth state ties it).
      assert.notEqual((await fetch(`${base}/oauth/callback?code=x&state=y`)).status, 401);
      assert.match(host.child.output, /"listening"/);
      assert.doesNotMatch(host.child.output, /loopback-secret/, 'the token stays out of the log');
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
      assert.match(cookie, /^mcpkit_host_token=sesame; HttpOnly; SameSite=Lax; Path=\//);
      assert.equal(opened.headers.get('referrer-policy'), 'no-referrer');
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`, { headers: { Cookie: 'other=1; mcpkit_host_token=sesame' } })).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/host.js`, { headers: { Cookie: 'mcpkit_host_token=wrong' } })).status, 401);
      await assert.rejects(connectPage(port, { token: null }));
      (await connectPage(port, { token: 'sesame' })).close();
      // Bound wide, the sign-in's way back and the views need it too.
      assert.equal((await fetch(`http://127.0.0.1:${port}/oauth/callback?code=x&state=y`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/apps/0123456789abcdef`)).status, 401);
      assert.equal((await fetch(`http://127.0.0.1:${port}/apps/0123456789abcdef`, { headers: { Cookie: 'mcpkit_host_token=sesame' } })).status, 404);
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

describe('sessions shared through Redis', () => {
  test('a page that went to another instance and back finds the turns made there', async () => {
    const redis = await startRedis();
    const a = await startHost({ config, llm, store: redis.url });
    const b = await startHost({ config, llm, store: redis.url });
    try {
      const first = await connectPage(a.port);
      const { sessionId } = first.connection;
      await chat(first, 'echo on a');
      first.close();
      await first.closed;
      const there = await connectPage(b.port, { sessionId });
      assert.equal(there.connection.state, 'reconnected');
      await chat(there, 'echo on b');
      there.close();
      await there.closed;
      // A still holds the session in memory, as it was before B's turn.
      const back = await connectPage(a.port, { sessionId });
      assert.equal(back.connection.state, 'reconnected');
      const history = await back.next('history');
      assert.deepEqual(history.messages.map((m) => [m.role, m.content]),
        [['user', 'echo on a'], ['assistant', 'on a'], ['user', 'echo on b'], ['assistant', 'on b']]);
      llm.reset();
      await chat(back, 'echo again on a');
      assert.deepEqual(llm.requests[0].body.messages.filter((m) => m.role === 'user').map((m) => m.content),
        ['echo on a', 'echo on b', 'echo again on a']);
      back.close();
    } finally {
      await a.stop();
      await b.stop();
      await redis.stop();
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

describe('RFC 6455 on the wire (a raw client)', () => {
  let host;
  before(async () => { host = await startHost({ config, llm }); });
  after(async () => { await host.stop(); });

  /** A client frame, masked unless told otherwise. */
  const frame = (opcode, payload, { fin = true, masked = true } = {}) => {
    const body = Buffer.from(payload);
    assert.ok(body.length < 126);
    const key = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
    const head = Buffer.from([(fin ? 0x80 : 0) | opcode, (masked ? 0x80 : 0) | body.length]);
    if (!masked) return Buffer.concat([head, body]);
    return Buffer.concat([head, key, Buffer.from(body.map((byte, i) => byte ^ key[i % 4]))]);
  };

  /** Completes the handshake; `frames` collects what the host sends, `ended` settles on close. */
  async function rawPage() {
    const socket = net.connect(host.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /ws?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    const page = { socket, frames: [], head: '' };
    let pending = Buffer.alloc(0);
    page.ended = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      if (!page.head) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        page.head = pending.subarray(0, end).toString();
        pending = pending.subarray(end + 4);
      }
      for (;;) {
        if (pending.length < 2) return;
        assert.equal(pending[1] & 0x80, 0, 'server frames are not masked');
        let length = pending[1] & 0x7f;
        let at = 2;
        if (length === 126) { length = pending.readUInt16BE(2); at = 4; } else if (length === 127) { length = Number(pending.readBigUInt64BE(2)); at = 10; }
        if (pending.length < at + length) return;
        page.frames.push({ opcode: pending[0] & 0x0f, fin: (pending[0] & 0x80) !== 0, payload: pending.subarray(at, at + length) });
        pending = pending.subarray(at + length);
      }
    });
    await eventually(() => page.frames.some((f) => f.opcode === 1 && JSON.parse(f.payload).type === 'connection'), 5000);
    assert.match(page.head, /^HTTP\/1\.1 101 .*\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=\r\n/s);
    return page;
  }
  const closeCode = (page) => {
    const close = page.frames.find((f) => f.opcode === 8);
    return close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : undefined;
  };

  test('a message in fragments with a ping between them: pong at once, the message read whole', async () => {
    const page = await rawPage();
    const text = '{"type":"dance","payload":{}}';
    page.socket.write(frame(1, text.slice(0, 10), { fin: false }));
    page.socket.write(frame(9, 'are you there'));
    page.socket.write(Buffer.concat([frame(0, text.slice(10, 20), { fin: false }), frame(0, text.slice(20))]));
    await eventually(() => page.frames.some((f) => f.opcode === 1 && JSON.parse(f.payload).type === 'error'), 5000);
    const pong = page.frames.find((f) => f.opcode === 10);
    assert.equal(pong?.payload.toString(), 'are you there');
    const error = page.frames.map((f) => (f.opcode === 1 ? JSON.parse(f.payload) : null)).find((f) => f?.type === 'error');
    assert.match(error.payload.message, /unknown frame type "dance"/);
    assert.ok(page.frames.every((f) => f.fin), 'the host never fragments');
    // The page says goodbye: the host answers the close and ends the connection.
    page.socket.write(frame(8, Buffer.from([0x03, 0xe8])));
    await page.ended;
    assert.equal(closeCode(page), 1000);
  });

  test('a flood of pings from a page that does not read: one pong for the latest, not one each', async () => {
    const page = await rawPage();
    page.socket.pause();  // reads nothing while it pings
    const count = 200000;
    const pings = Buffer.concat(Array.from({ length: count }, (_, i) => frame(9, `ping ${i}`.padEnd(120, '.'))));
    await new Promise((resolve) => page.socket.write(pings, resolve));
    page.socket.write(frame(9, 'last'));
    page.socket.resume();
    assert.ok(await eventually(() => page.frames.some((f) => f.opcode === 10 && f.payload.toString() === 'last'), 20000),
      'the latest ping is answered');
    const pongs = page.frames.filter((f) => f.opcode === 10).length;
    assert.ok(pongs < count / 10, `${pongs} pongs for ${count} pings`);
    page.socket.destroy();
  });

  for (const [name, bytes, code] of [
    ['an unmasked frame is a protocol error (1002)', () => frame(1, '{"type":"stop"}', { masked: false }), 1002],
    ['text that is not UTF-8 closes with 1007', () => frame(1, Buffer.from([0x7b, 0xc3, 0x28, 0x7d])), 1007],
    ['an unknown opcode is a protocol error (1002)', () => frame(3, 'x'), 1002],
  ]) {
    test(name, async () => {
      const page = await rawPage();
      page.socket.write(bytes());
      await page.ended;
      assert.equal(closeCode(page), code);
      assert.equal((await chat(await connectPage(host.port), 'echo others unharmed')).text, 'others unharmed');
    });
  }

  test('a handshake without a usable key or version is refused', async () => {
    for (const [headers, status] of [['Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13', 400],
      ['Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8', 426]]) {
      const socket = net.connect(host.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`GET /ws?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}\r\n\r\n`);
      let answer = '';
      socket.on('data', (chunk) => { answer += chunk; });
      await new Promise((resolve) => socket.once('close', resolve));
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `));
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
      socket.write(`GET /ws?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
      const started = Date.now();
      let ended = false;
      socket.on('data', () => {});
      socket.on('close', () => { ended = true; });
      assert.ok(await eventually(() => ended, 10000), 'closed');
      assert.ok(Date.now() - started >= 1000, 'not before the window');
      const health = await (await fetch(`${host.url}/health`, { headers: host.auth })).json();
      assert.equal(health.sessions.pages, 0);
    } finally {
      await host.stop();
    }
  });
});
