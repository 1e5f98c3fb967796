// mcp::HttpClient (through examples/http_fetch) against node:http and node:https servers: bodies,
// methods, headers, redirects (followed for GET, 303 turning a POST into a GET, not followed for a
// POST's 307), HEAD, a streamed body, https with a test CA, and an untrusted certificate refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { freePort, makeTestCertificates, runProcess } from './support.mjs';

const httpFetch = process.env.HTTP_FETCH;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-http-client-'));

function handler(request, response) {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/hello') {
      response.writeHead(200, { 'content-type': 'text/plain', 'x-seen-method': request.method }).end('hello');
    } else if (url.pathname === '/redirect') {
      response.writeHead(302, { location: '/hello?from=redirect' }).end();
    } else if (url.pathname === '/loop') {
      response.writeHead(302, { location: '/loop' }).end();
    } else if (url.pathname === '/see-other') {
      response.writeHead(303, { location: '/hello' }).end();
    } else if (url.pathname === '/temporary') {
      response.writeHead(307, { location: '/hello' }).end('not followed');
    } else if (url.pathname === '/echo') {
      response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: request.method, body, token: request.headers['x-token'] ?? null }));
    } else if (url.pathname === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        response.write(`data: event ${++n}\n\n`);
        if (n === 3) {
          clearInterval(timer);
          response.end();
        }
      }, 20);
    } else {
      response.writeHead(404).end('nothing here');
    }
  });
}

const fetchWith = (args) => runProcess(httpFetch, args);

describe('mcp::HttpClient', () => {
  let plainUrl;
  let tlsUrl;
  const servers = [];
  before(async () => {
    makeTestCertificates(work);
    const plain = http.createServer(handler);
    const secure = https.createServer({ key: fs.readFileSync(path.join(work, 'good.key')),
      cert: fs.readFileSync(path.join(work, 'good.pem')) }, handler);
    for (const server of [plain, secure]) {
      const port = await freePort();
      await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
      servers.push(server);
    }
    plainUrl = `http://127.0.0.1:${servers[0].address().port}`;
    tlsUrl = `https://127.0.0.1:${servers[1].address().port}`;
  });
  after(() => {
    for (const server of servers) server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('GET, POST with headers, HEAD, and statuses as they are', async () => {
    const hello = await fetchWith([`${plainUrl}/hello`]);
    assert.equal(hello.code, 0, hello.stderr);
    assert.equal(hello.stdout, 'hello');
    assert.match(hello.stderr, /HTTP 200 OK .*Content-Type: text\/plain/);
    const echo = await fetchWith(['--method', 'POST', '--header', 'X-Token: abc', '--data', '{"a":1}', `${plainUrl}/echo`]);
    assert.equal(echo.code, 0, echo.stderr);
    assert.deepEqual(JSON.parse(echo.stdout), { method: 'POST', body: '{"a":1}', token: 'abc' });
    const head = await fetchWith(['--method', 'HEAD', `${plainUrl}/hello`]);
    assert.equal(head.code, 0, head.stderr);
    assert.equal(head.stdout, '');
    const missing = await fetchWith([`${plainUrl}/missing`]);
    assert.equal(missing.code, 0, missing.stderr);
    assert.match(missing.stderr, /HTTP 404/);
  });

  test('redirects: followed for GET, a 303 turns a POST into a GET, a 307 after a POST is not followed, loops end', async () => {
    const followed = await fetchWith([`${plainUrl}/redirect`]);
    assert.equal(followed.stdout, 'hello');
    assert.match(followed.stderr, /from http:\/\/127\.0\.0\.1:\d+\/hello\?from=redirect/);
    const seeOther = await fetchWith(['--method', 'POST', '--data', 'x', `${plainUrl}/see-other`]);
    assert.equal(seeOther.stdout, 'hello');
    const temporary = await fetchWith(['--method', 'POST', '--data', 'x', `${plainUrl}/temporary`]);
    assert.match(temporary.stderr, /HTTP 307/);
    assert.equal(temporary.stdout, 'not followed');
    const loop = await fetchWith([`${plainUrl}/loop`]);
    assert.equal(loop.code, 0, loop.stderr);
    assert.match(loop.stderr, /HTTP 302/);  // after max_redirects, the last answer as it is
  });

  test('a streamed body arrives whole, in the order sent', async () => {
    const events = await fetchWith(['--stream', `${plainUrl}/events`]);
    assert.equal(events.code, 0, events.stderr);
    const text = events.stdout.replace(/piece: \d+ bytes\n/g, '');
    assert.equal(text, 'data: event 1\n\ndata: event 2\n\ndata: event 3\n\n');
  });

  test('https with the test CA, and a refusal naming an untrusted certificate', async () => {
    const trusted = await fetchWith(['--ca-file', path.join(work, 'ca.pem'), `${tlsUrl}/hello`]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stdout, 'hello');
    const untrusted = await fetchWith([`${tlsUrl}/hello`]);
    assert.notEqual(untrusted.code, 0);
    assert.match(untrusted.stderr, /failed: .*certificate authority this client does not trust/);
    const unreachable = await fetchWith([`http://127.0.0.1:${await freePort()}/hello`]);
    assert.notEqual(unreachable.code, 0);
    assert.match(unreachable.stderr, /failed: cannot connect to 127\.0\.0\.1:\d+: Connection refused/);
  });
});
