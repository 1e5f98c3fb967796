// mcpkit everything as an OAuth 2.1 protected resource. oauth2-mock-server issues signed JWTs
// and publishes its keys; every kind of bad token gets the status and WWW-Authenticate header
// the MCP spec and RFC 6750 ask for (missing, malformed, expired, wrong signature, wrong issuer,
// wrong audience, missing scope, unknown key), a rotated key is picked up, a tool that needs an
// extra scope is hidden and refused without it, and RFC 7662 introspection works the same way.
// Then the official TS SDK client's own OAuth flow (DCR, PKCE, resource) against mcpkit, with
// oidc-provider as the authorization server and Chromium as the person.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { OAuth2Server } from 'oauth2-mock-server';
import * as jose from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

import { freePort, listening, mcpkit, startProcess } from './support.mjs';
import { signInWithChromium, startAuthorizationServer } from './oauth-support.mjs';

const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** mcpkit everything over HTTP behind `issuer`; resolves with its endpoint URL. */
async function startProtectedEverything(issuer, extra = []) {
  const port = await freePort();
  const child = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${port}`, '--auth-issuer', issuer, ...extra]);
  cleanups.push(async () => { child.kill('SIGTERM'); await child.exited; });
  await listening(child, port, 'mcpkit everything');
  return { url: `http://127.0.0.1:${port}/mcp`, port, child };
}

const initialize = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

async function post(url, authorization, body = initialize, extraHeaders = {}) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extraHeaders };
  if (authorization !== undefined) headers.Authorization = authorization;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, wwwAuthenticate: response.headers.get('www-authenticate') ?? '',
           session: response.headers.get('mcp-session-id'), text: await response.text() };
}

/** A stateless (2026-07-28) request, so each is one HTTP exchange with its own token. */
function modern(id, method, params = {}) {
  return {
    jsonrpc: '2.0', id, method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } },
  };
}
const modernHeaders = (method, name) => ({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) });

describe('mcpkit everything behind oauth2-mock-server: every bad token gets the right answer', async () => {
  const issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('ES256');
  await issuer.start(await freePort(), '127.0.0.1');
  cleanups.push(() => issuer.stop());
  const issuerUrl = issuer.issuer.url;
  const server = await startProtectedEverything(issuerUrl,
    ['--auth-scope', 'mcp:tools', '--auth-tool-scope', 'test_simple_text=mcp:admin']);
  const metadataUrl = `http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp`;
  const token = (claims = {}, options = {}) => issuer.issuer.buildToken({
    ...options,
    scopesOrTransform: (header, payload) => {
      Object.assign(payload, { sub: 'alice', client_id: 'test-client', aud: server.url, scope: 'mcp:tools' }, claims);
      for (const [name, value] of Object.entries(claims)) if (value === undefined) delete payload[name];
    },
  });

  test('the protected resource metadata is served at the path-aware well-known URL', async () => {
    const response = await fetch(metadataUrl);
    assert.equal(response.status, 200);
    const metadata = await response.json();
    assert.equal(metadata.resource, server.url);
    assert.deepEqual(metadata.authorization_servers, [issuerUrl]);
    assert.deepEqual(metadata.scopes_supported, ['mcp:tools', 'mcp:admin']);
  });

  test('no token: 401 with resource_metadata and the scope, and no error code', async () => {
    const answer = await post(server.url, undefined);
    assert.equal(answer.status, 401);
    assert.equal(answer.wwwAuthenticate, `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`);
  });

  test('a valid token opens a session', async () => {
    const answer = await post(server.url, `Bearer ${await token()}`);
    assert.equal(answer.status, 200, answer.text);
    assert.ok(answer.session);
  });

  test("another user's token cannot use a session: it does not exist for them", async () => {
    const alice = await post(server.url, `Bearer ${await token({ sub: 'alice' })}`);
    assert.equal(alice.status, 200, alice.text);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const headers = { 'Mcp-Session-Id': alice.session, 'MCP-Protocol-Version': '2025-11-25' };
    const bob = await post(server.url, `Bearer ${await token({ sub: 'bob' })}`, list, headers);
    assert.equal(bob.status, 404, bob.text);
    const again = await post(server.url, `Bearer ${await token({ sub: 'alice' })}`, list, headers);
    assert.equal(again.status, 200, again.text);
  });

  test('one user holds at most --max-sessions-per-user sessions; another user still gets one', async () => {
    const limited = await startProtectedEverything(issuerUrl, ['--auth-scope', 'mcp:tools', '--max-sessions-per-user', '3']);
    const as = async (sub) => `Bearer ${await issuer.issuer.buildToken({
      scopesOrTransform: (header, payload) => Object.assign(payload, { sub, client_id: 'c', aud: limited.url, scope: 'mcp:tools' }) })}`;
    const sessions = [];
    for (let i = 0; i < 3; i++) {
      const opened = await post(limited.url, await as('carol'));
      assert.equal(opened.status, 200, opened.text);
      sessions.push(opened.session);
    }
    const refused = await post(limited.url, await as('carol'));
    assert.equal(refused.status, 503, refused.text);
    assert.match(JSON.parse(refused.text).error.message, /You hold 3 sessions/);
    assert.equal((await post(limited.url, await as('dave'))).status, 200);
    // Ending one makes room again.
    const ended = await fetch(limited.url, { method: 'DELETE', headers: { Authorization: await as('carol'),
      'Mcp-Session-Id': sessions[0], 'MCP-Protocol-Version': '2025-11-25' } });
    assert.equal(ended.status, 200);
    assert.equal((await post(limited.url, await as('carol'))).status, 200);
  });

  test('one user holds at most --max-tasks-per-user tasks; another user still starts one', async () => {
    const limited = await startProtectedEverything(issuerUrl, ['--auth-scope', 'mcp:tools', '--max-tasks-per-user', '2']);
    const as = async (sub) => `Bearer ${await issuer.issuer.buildToken({
      scopesOrTransform: (header, payload) => Object.assign(payload, { sub, client_id: 'c', aud: limited.url, scope: 'mcp:tools' }) })}`;
    let id = 100;
    const startTask = async (sub) => {
      const call = modern(id++, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60, label: sub } });
      call.params._meta['io.modelcontextprotocol/clientCapabilities'] = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
      const answer = await post(limited.url, await as(sub), call, modernHeaders('tools/call', 'slow_compute'));
      assert.equal(answer.status, 200, answer.text);
      return JSON.parse(answer.text);
    };
    for (let i = 0; i < 2; i++) assert.ok((await startTask('erin')).result?.taskId, 'a task was made');
    const refused = await startTask('erin');
    assert.match(refused.error?.message ?? '', /You hold 2 tasks already/, JSON.stringify(refused));
    assert.ok((await startTask('frank')).result?.taskId, 'another user is not held back');
  });

  test('a key the issuer adds later is fetched when a token names it (before any made-up key id)', async () => {
    const added = await issuer.issuer.keys.generate('RS256');
    const answer = await post(server.url, `Bearer ${await token({}, { kid: added.kid })}`);
    assert.equal(answer.status, 200, answer.text);
  });

  const refusals = [
    ['a malformed Authorization header', async () => 'Basic dXNlcjpwYXNz', 400, /error="invalid_request"/],
    ['a token that is not a JWT', async () => 'Bearer not-a-jwt', 401, /error="invalid_token".*not a JWT/],
    ['a token issued a day in the future (beyond the 30 s leeway)',
      async () => `Bearer ${await token({ iat: Math.floor(Date.now() / 1000) + 86400 })}`, 401,
      /error="invalid_token".*issued in the future/],
    ['a token whose header names a critical extension (RFC 7515 crit)', async () => {
      // Signed by the issuer's real key (by hand: jose refuses to sign a crit it does not know),
      // so only the crit check can refuse it.
      // The key a good token of this run is signed with (the issuer rotates through its keys).
      const { kid } = JSON.parse(Buffer.from((await token()).split('.')[0], 'base64url'));
      const jwk = issuer.issuer.keys.toJSON(true).find((key) => key.kid === kid);
      const now = Math.floor(Date.now() / 1000);
      const signed = (extra) => {
        const header = { alg: jwk.alg, kid: jwk.kid, typ: 'JWT', ...extra };
        const claims = { iss: issuerUrl, sub: 'alice', client_id: 'test-client', aud: server.url, scope: 'mcp:tools', iat: now, exp: now + 3600 };
        const part = (object) => Buffer.from(JSON.stringify(object)).toString('base64url');
        const input = `${part(header)}.${part(claims)}`;
        const key = crypto.createPrivateKey({ key: jwk, format: 'jwk' });
        return `${input}.${crypto.sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;  // ES256 or RS256
      };
      // The same token without crit is good: the signature is right.
      const plain = await post(server.url, `Bearer ${signed({})}`);
      assert.equal(plain.status, 200, plain.wwwAuthenticate);
      return `Bearer ${signed({ crit: ['urn:example:must-understand'], 'urn:example:must-understand': true })}`;
    }, 401, /error="invalid_token".*critical extensions/],
    ['an expired token', async () => `Bearer ${await token({}, { expiresIn: -120 })}`, 401, /error="invalid_token".*expired/],
    ['a token whose signature was tampered with', async () => {
      const good = await token();
      const [header, payload, signature] = good.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url'));
      claims.scope = 'mcp:tools mcp:admin';  // escalation attempt
      return `Bearer ${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    }, 401, /error="invalid_token".*signature does not verify/],
    ['a token from another issuer', async () => `Bearer ${await token({ iss: 'https://evil.example.com' })}`, 401,
      /error="invalid_token".*issued by https:\/\/evil\.example\.com/],
    ['a token for another resource', async () => `Bearer ${await token({ aud: 'http://127.0.0.1:1/mcp' })}`, 401,
      /error="invalid_token".*not for this resource/],
    ['a token without an audience', async () => `Bearer ${await token({ aud: undefined })}`, 401,
      /error="invalid_token".*not for this resource/],
    ['a token without the required scope', async () => `Bearer ${await token({ scope: 'profile' })}`, 403,
      /error="insufficient_scope".*|scope="mcp:tools"/],
    ['a token signed by a key the issuer never published', async () => {
      const { privateKey } = await jose.generateKeyPair('ES256');
      const forged = await new jose.SignJWT({ sub: 'mallory', aud: server.url, scope: 'mcp:tools' })
        .setProtectedHeader({ alg: 'ES256', kid: 'made-up' }).setIssuer(issuerUrl).setExpirationTime('1h').sign(privateKey);
      return `Bearer ${forged}`;
    }, 401, /error="invalid_token".*key id made-up/],
    ['an unsigned token (alg none)', async () => {
      const unsigned = new jose.UnsecuredJWT({ sub: 'mallory', aud: server.url, scope: 'mcp:tools' })
        .setIssuer(issuerUrl).setExpirationTime('1h').encode();
      return `Bearer ${unsigned}`;
    }, 401, /error="invalid_token".*signed with none, which is not accepted/],
  ];
  for (const [what, authorization, status, header] of refusals) {
    test(`${what}: ${status}`, async () => {
      const answer = await post(server.url, await authorization());
      assert.equal(answer.status, status, answer.text);
      assert.match(answer.wwwAuthenticate, header);
      assert.match(answer.wwwAuthenticate, new RegExp(`resource_metadata="${metadataUrl.replace(/[.]/g, '\\.')}"`));
      assert.ok(JSON.parse(answer.text).error, answer.text);
    });
  }

  test('a tool that needs another scope is hidden and refused with 403 without it', async () => {
    const basic = `Bearer ${await token()}`;
    const listed = await post(server.url, basic, modern(2, 'tools/list'), modernHeaders('tools/list'));
    assert.equal(listed.status, 200, listed.text);
    const names = JSON.parse(listed.text).result.tools.map((tool) => tool.name);
    assert.ok(names.includes('test_image_content'));
    assert.ok(!names.includes('test_simple_text'), 'the tool needing mcp:admin was listed');
    const call = modern(3, 'tools/call', { name: 'test_simple_text', arguments: {} });
    const refused = await post(server.url, basic, call, modernHeaders('tools/call', 'test_simple_text'));
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.wwwAuthenticate, /error="insufficient_scope"/);
    assert.match(refused.wwwAuthenticate, /scope="mcp:tools mcp:admin"/);

    const admin = `Bearer ${await token({ scope: 'mcp:tools mcp:admin' })}`;
    const all = await post(server.url, admin, modern(4, 'tools/list'), modernHeaders('tools/list'));
    assert.ok(JSON.parse(all.text).result.tools.some((tool) => tool.name === 'test_simple_text'));
    const called = await post(server.url, admin, call, modernHeaders('tools/call', 'test_simple_text'));
    assert.equal(called.status, 200, called.text);
    assert.match(called.text, /This is a simple text response/);
  });
});

describe("mcpkit analyze behind oauth2-mock-server: one user's analysis sessions are not another's", async () => {
  const issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('ES256');
  await issuer.start(await freePort(), '127.0.0.1');
  cleanups.push(() => issuer.stop());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const child = startProcess(mcpkit, ['analyze', '--http', `127.0.0.1:${port}`, '--no-cache', '--root', '/tmp',
    '--auth-issuer', issuer.issuer.url]);
  cleanups.push(async () => { child.kill('SIGTERM'); await child.exited; });
  await listening(child, port, 'mcpkit analyze --auth-issuer');
  const as = async (sub) => `Bearer ${await issuer.issuer.buildToken({
    scopesOrTransform: (header, payload) => Object.assign(payload, { sub, client_id: 'c', aud: url }) })}`;
  let id = 10;
  /** One stateless tools/call as `sub`; resolves to the analyze envelope. */
  async function call(sub, name, args = {}) {
    const answer = await post(url, await as(sub), modern(++id, 'tools/call', { name, arguments: args }), modernHeaders('tools/call', name));
    assert.equal(answer.status, 200, answer.text);
    return JSON.parse(answer.text).result.structuredContent;
  }

  test('list, read, use and clear: only the user who created a session can', async () => {
    const sessionId = (await call('alice', 'create-session')).data.sessionId;
    assert.ok(sessionId);
    assert.ok((await call('alice', 'list-sessions')).data.sessions.some((session) => session.sessionId === sessionId));
    assert.equal((await call('bob', 'list-sessions')).data.sessions.length, 0);
    for (const [name, args] of [['get-session-info', { sessionId }], ['get-session-history', { sessionId }],
      ['analyze-code', { code: 'int f(void) { return 1; }', language: 'c', sessionId }], ['clear-session', { sessionId }]]) {
      const refused = await call('bob', name, args);
      assert.equal(refused.status.code, 404, `${name}: ${JSON.stringify(refused.status)}`);
    }
    const history = await call('alice', 'get-session-history', { sessionId });
    assert.equal(history.status.code, 200);
    assert.equal(history.data.history.length, 0, 'bob\'s calls were recorded in alice\'s session');
    assert.equal((await call('alice', 'clear-session', { sessionId })).status.code, 200);
  });
});

describe('mcpkit everything checking opaque tokens by introspection (RFC 7662) at oidc-provider', async () => {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const authorization = await startAuthorizationServer({
    scopes: ['mcp:tools'], accessTokenFormat: 'opaque',
    clients: [
      // mcpkit, introspecting; and a machine client getting tokens for itself.
      { client_id: 'mcp-server', client_secret: 'introspection-secret', grant_types: [], response_types: [], redirect_uris: [] },
      { client_id: 'machine', client_secret: 'machine-secret', grant_types: ['client_credentials'], response_types: [],
        redirect_uris: [] },
    ],
  });
  cleanups.push(authorization.close);
  const introspections = () => authorization.paths.filter((path) => path.endsWith('/introspection')).length;
  const child = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${port}`, '--auth-issuer', authorization.issuer,
    '--auth-introspect', '--auth-client-id', 'mcp-server', '--auth-scope', 'mcp:tools'],
  { env: { ...process.env, MCPKIT_AUTH_CLIENT_SECRET: 'introspection-secret' } });
  cleanups.push(async () => { child.kill('SIGTERM'); await child.exited; });
  await listening(child, port, 'mcpkit everything --auth-introspect');

  /** An opaque token from the client credentials grant, for `audience`. */
  async function opaqueToken(audience) {
    const response = await fetch(`${authorization.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded',
                 Authorization: `Basic ${Buffer.from('machine:machine-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp:tools', resource: audience }),
    });
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.ok(!body.access_token.includes('.'), 'the token is not opaque');
    return body.access_token;
  }

  test('an active token for this resource is accepted, and the answer cached until it expires', async () => {
    const token = await opaqueToken(resource);
    assert.equal((await post(resource, `Bearer ${token}`)).status, 200);
    const before = introspections();
    assert.equal(before, 1);
    assert.equal((await post(resource, `Bearer ${token}`)).status, 200);
    assert.equal(introspections(), before, 'the second use asked the authorization server again');
  });

  test('an unknown token and one for another resource are refused with 401', async () => {
    const unknown = await post(resource, 'Bearer not-a-token-anyone-issued');
    assert.equal(unknown.status, 401);
    assert.match(unknown.wwwAuthenticate, /error="invalid_token", error_description="the authorization server says the token is not active"/);
    const elsewhere = await post(resource, `Bearer ${await opaqueToken('https://elsewhere.example/mcp')}`);
    assert.equal(elsewhere.status, 401);
    assert.match(elsewhere.wwwAuthenticate, /not for this resource/);
  });
});

describe('the official TS SDK client signs in to mcpkit everything through oidc-provider', async () => {
  const authorization = await startAuthorizationServer({ scopes: ['mcp:tools'] });
  cleanups.push(authorization.close);
  const server = await startProtectedEverything(authorization.issuer, ['--auth-scope', 'mcp:tools']);

  // Where the browser is sent back: the page signInWithChromium waits for.
  let received;
  const callback = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    if (url.pathname === '/callback') received = url.searchParams;  // not the browser's favicon request
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Authorization received</p>');
  });
  await new Promise((resolve) => callback.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => { callback.closeAllConnections(); callback.close(resolve); }));
  const redirectUrl = `http://127.0.0.1:${callback.address().port}/callback`;

  test('a 401, discovery, registration, Chromium sign-in, then tools listed with the token', async () => {
    const saved = {};
    const provider = {
      get redirectUrl() { return redirectUrl; },
      get clientMetadata() {
        return { client_name: 'ts-sdk-test', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'],
                 response_types: ['code'], token_endpoint_auth_method: 'none', application_type: 'native' };
      },
      clientInformation: () => saved.client,
      saveClientInformation: (client) => { saved.client = client; },
      tokens: () => saved.tokens,
      saveTokens: (tokens) => { saved.tokens = tokens; },
      saveCodeVerifier: (verifier) => { saved.verifier = verifier; },
      codeVerifier: () => saved.verifier,
      redirectToAuthorization: async (url) => { saved.signIn = signInWithChromium(url.toString()); },
    };
    const connect = () => {
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
      return { transport, client: new Client({ name: 'ts-sdk-test', version: '1.0.0' }) };
    };
    let { transport, client } = connect();
    await assert.rejects(client.connect(transport), UnauthorizedError);
    await saved.signIn;
    assert.ok(received?.get('code'), `the browser came back without a code: ${received}`);
    await transport.finishAuth(received.get('code'));
    ({ transport, client } = connect());
    await client.connect(transport);
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === 'test_simple_text'));
    const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.match(result.content[0].text, /simple text/);
    // The token oidc-provider issued is a JWT for mcpkit's resource alone.
    const claims = jose.decodeJwt(saved.tokens.access_token);
    assert.equal(claims.aud, server.url);
    await client.close();
  });
});
