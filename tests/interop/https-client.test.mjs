// HTTPS both ways. mcpkit client against the official TypeScript SDK's Streamable HTTP server on
// node:https, with a certificate authority, certificates and an expired certificate made here by
// openssl; through a real CONNECT proxy (tinyproxy); each certificate problem named. And mcpkit
// everything serving HTTPS (--tls-cert/--tls-key) to mcpkit client and to the TS SDK client, with
// the certificate read again on SIGHUP.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { eventually, freePort, listening, makeTestCertificates, mcpkit, runProcess, startProcess } from './support.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-https-'));
const file = (name) => path.join(work, name);

/** The TS SDK's Streamable HTTP server with an echo tool, on `server` (http or https). */
function serveMcp(create, options) {
  const transports = new Map();
  return create(options, async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sessionId = request.headers['mcp-session-id'];
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport && request.method === 'POST' && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      const server = new McpServer({ name: 'ts-sdk-over-tls', version: '1.0.0' });
      server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
      await server.connect(transport);
    }
    if (!transport) {
      response.writeHead(404).end();
      return;
    }
    await transport.handleRequest(request, response, body);
  });
}

async function listen(server) {
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return port;
}

/** mcpkit client, run without blocking: the servers it talks to live in this process. */
const client = (url, args, env = {}) => runProcess(mcpkit, ['client', '--url', url, ...args], {
  env: { ...process.env, HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '', ...env },
});

const echo = ['call', 'echo', '{"text":"over TLS"}'];

after(() => fs.rmSync(work, { recursive: true, force: true }));
const echoed = (result) => JSON.parse(result.stdout).content[0].text;

describe('mcpkit client over https', () => {
  const servers = [];
  const ports = {};
  let proxy;
  let proxyLog;
  let proxyPort;
  let strictProxy;
  let strictProxyPort;

  before(async () => {
    makeTestCertificates(work);
    for (const name of ['good', 'otherhost', 'expired']) {
      const server = serveMcp(https.createServer, { key: fs.readFileSync(file(`${name}.key`)), cert: fs.readFileSync(file(`${name}.pem`)) });
      servers.push(server);
      ports[name] = await listen(server);
    }
    const plain = serveMcp(http.createServer, {});
    servers.push(plain);
    ports.plain = await listen(plain);

    proxyPort = await freePort();
    proxyLog = file('tinyproxy.log');
    fs.writeFileSync(file('tinyproxy.conf'), [`Port ${proxyPort}`, 'Listen 127.0.0.1', 'Timeout 60', `LogFile "${proxyLog}"`,
      'LogLevel Connect', 'MaxClients 20', 'Allow 127.0.0.1', ''].join('\n'));
    proxy = startProcess('tinyproxy', ['-d', '-c', file('tinyproxy.conf')]);
    await listening(proxy, proxyPort, 'tinyproxy');
    // A proxy that only tunnels to port 443, as many company proxies do.
    strictProxyPort = await freePort();
    fs.writeFileSync(file('strict.conf'), [`Port ${strictProxyPort}`, 'Listen 127.0.0.1', 'Timeout 60',
      `LogFile "${file('strict.log')}"`, 'MaxClients 20', 'Allow 127.0.0.1', 'ConnectPort 443', ''].join('\n'));
    strictProxy = startProcess('tinyproxy', ['-d', '-c', file('strict.conf')]);
    await listening(strictProxy, strictProxyPort, 'tinyproxy (port 443 only)');
  });
  after(() => {
    for (const server of servers) server.close();
    proxy?.kill();
    strictProxy?.kill();
  });

  test('calls a tool with the test CA given by --ca-file or SSL_CERT_FILE, by address and by name', async () => {
    const byAddress = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.equal(byAddress.code, 0, byAddress.stderr);
    assert.equal(echoed(byAddress), 'over TLS');
    const byName = await client(`https://localhost:${ports.good}/mcp`, ['tools'], { SSL_CERT_FILE: file('ca.pem') });
    assert.equal(byName.code, 0, byName.stderr);
    assert.ok(JSON.parse(byName.stdout).tools.some((tool) => tool.name === 'echo'));
  });

  test('an unknown certificate authority, a certificate for another host and an expired one are each named', async () => {
    const unknown = await client(`https://127.0.0.1:${ports.good}/mcp`, echo, { SSL_CERT_FILE: '/nonexistent' });
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /certificate authority this client does not trust \(give the authority's certificate with --ca-file/);
    const other = await client(`https://127.0.0.1:${ports.otherhost}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /certificate is not for 127\.0\.0\.1/);
    const expired = await client(`https://127.0.0.1:${ports.expired}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.notEqual(expired.code, 0);
    assert.match(expired.stderr, /certificate has expired/);
    const badFile = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('missing.pem'), ...echo]);
    assert.notEqual(badFile.code, 0);
    assert.match(badFile.stderr, /cannot use the CA file .*missing\.pem/);
  });

  test('goes through the HTTPS_PROXY with CONNECT, and around it for NO_PROXY hosts', async () => {
    const connects = () => (fs.existsSync(proxyLog) ? fs.readFileSync(proxyLog, 'utf8') : '')
      .split('\n').filter((line) => line.includes(`CONNECT 127.0.0.1:${ports.good}`)).length;
    const before = connects();
    const through = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('ca.pem'), ...echo],
      { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` });
    assert.equal(through.code, 0, through.stderr);
    assert.equal(echoed(through), 'over TLS');
    assert.ok(await eventually(() => connects() > before), `tinyproxy saw no tunnel: ${fs.readFileSync(proxyLog, 'utf8')}`);
    const counted = connects();
    const around = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('ca.pem'), ...echo],
      { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: 'localhost,127.0.0.1' });
    assert.equal(around.code, 0, around.stderr);
    assert.equal(connects(), counted, 'NO_PROXY was not honoured');
    // Plain http goes through HTTP_PROXY the same way, and --proxy overrides the environment.
    const plain = await client(`http://127.0.0.1:${ports.plain}/mcp`, ['--proxy', `http://127.0.0.1:${proxyPort}`, ...echo]);
    assert.equal(plain.code, 0, plain.stderr);
  });

  test('a proxy that is not there, or that refuses the tunnel, is named', async () => {
    const nowhere = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('ca.pem'), ...echo],
      { HTTPS_PROXY: `http://127.0.0.1:${await freePort()}` });
    assert.notEqual(nowhere.code, 0);
    assert.match(nowhere.stderr, /cannot connect to the proxy http:\/\/127\.0\.0\.1:\d+/);
    const refused = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--ca-file', file('ca.pem'), ...echo],
      { HTTPS_PROXY: `http://127.0.0.1:${strictProxyPort}` });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, new RegExp(`proxy http://127\\.0\\.0\\.1:${strictProxyPort} refused the tunnel to 127\\.0\\.0\\.1:${ports.good}: HTTP 403`));
    const bad = await client(`https://127.0.0.1:${ports.good}/mcp`, ['--proxy', 'https://127.0.0.1:1', ...echo]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /must be an http:\/\/ proxy/);
  });
});

const tsClientScript = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const client = new Client({ name: 'ts-sdk-over-tls', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[1])));
const result = await client.callTool({ name: 'echo', arguments: { text: 'TS SDK over TLS' } });
console.log(JSON.stringify(result));
await client.close();
`;

describe('mcpkit everything serving https', () => {
  let server;
  let port;
  let stderr = '';
  const served = file('served');
  before(async () => {
    if (!fs.existsSync(file('ca.pem'))) makeTestCertificates(work);
    fs.mkdirSync(served, { recursive: true });
    fs.copyFileSync(file('good.pem'), path.join(served, 'cert.pem'));
    fs.copyFileSync(file('good.key'), path.join(served, 'key.pem'));
    port = await freePort();
    server = spawn(mcpkit, ['everything', '--http', `127.0.0.1:${port}`, '--tls-cert', path.join(served, 'cert.pem'),
      '--tls-key', path.join(served, 'key.pem')], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr.on('data', (chunk) => { stderr += chunk; });
    assert.ok(await eventually(() => stderr.includes(`listening on https://127.0.0.1:${port}/mcp`)), stderr);
  });
  after(() => server?.kill());

  test('mcpkit client and the TypeScript SDK client call it over TLS', async () => {
    const ours = await client(`https://127.0.0.1:${port}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.equal(ours.code, 0, ours.stderr);
    assert.equal(echoed(ours), 'over TLS');
    const theirs = spawnSync(process.execPath, ['--input-type=module', '-e', tsClientScript, `https://localhost:${port}/mcp`],
      { encoding: 'utf8', timeout: 30000, cwd: path.dirname(new URL(import.meta.url).pathname),
        env: { ...process.env, NODE_EXTRA_CA_CERTS: file('ca.pem') } });
    assert.equal(theirs.status, 0, theirs.stderr);
    assert.equal(JSON.parse(theirs.stdout).content[0].text, 'TS SDK over TLS');
  });

  test('plain HTTP to the TLS port is refused and logged; SIGHUP reads the certificate again', async () => {
    const plain = await client(`http://127.0.0.1:${port}/mcp`, echo);
    assert.notEqual(plain.code, 0);
    assert.ok(await eventually(() => stderr.includes('TLS handshake failed')), stderr);
    // A certificate for another host now: new connections get it after SIGHUP.
    fs.copyFileSync(file('otherhost.pem'), path.join(served, 'cert.pem'));
    fs.copyFileSync(file('otherhost.key'), path.join(served, 'key.pem'));
    server.kill('SIGHUP');
    assert.ok(await eventually(() => stderr.includes('TLS certificate reloaded')), stderr);
    const wrongHost = await client(`https://127.0.0.1:${port}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.match(wrongHost.stderr, /certificate is not for 127\.0\.0\.1/);
    // An unusable pair (key of another certificate) is refused and the current one stays.
    fs.copyFileSync(file('good.pem'), path.join(served, 'cert.pem'));
    server.kill('SIGHUP');
    assert.ok(await eventually(() => stderr.includes('TLS certificate not reloaded, the old one stays')), stderr);
    const stillOther = await client(`https://127.0.0.1:${port}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.match(stillOther.stderr, /certificate is not for 127\.0\.0\.1/);
    fs.copyFileSync(file('good.key'), path.join(served, 'key.pem'));
    server.kill('SIGHUP');
    assert.ok(await eventually(() => stderr.split('TLS certificate reloaded').length === 3), stderr);
    const back = await client(`https://127.0.0.1:${port}/mcp`, ['--ca-file', file('ca.pem'), ...echo]);
    assert.equal(back.code, 0, back.stderr);
  });
});
