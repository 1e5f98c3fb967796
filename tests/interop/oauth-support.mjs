// Real OAuth 2.1 parties for the authorization tests: an authorization server (oidc-provider, a
// certified OpenID/OAuth implementation, with dynamic registration, RFC 8707 resource indicators
// and JWT access tokens), a protected MCP server from the official TypeScript SDK (its own PRM
// router and bearer middleware, tokens verified against the server's JWKS), and a person signing
// in with real Chromium.
import http from 'node:http';

import Provider from 'oidc-provider';
import * as jose from 'jose';
import express from 'express';
import { chromium } from 'playwright-core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

/**
 * oidc-provider on 127.0.0.1 issuing access tokens for any resource (ES256 JWTs, or opaque ones
 * to be introspected), with the scopes `scopes` (offline_access too: refresh tokens), each valid
 * `accessTokenTTL` seconds. `clients` are registered beforehand.
 */
export async function startAuthorizationServer({ scopes = ['mcp:tools'], accessTokenTTL = 3600, accessTokenFormat = 'jwt',
                                                 clients = [] } = {}) {
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  // RS256 for ID tokens (the OpenID default), ES256 for the access tokens.
  const keys = [];
  for (const alg of ['RS256', 'ES256']) {
    const { privateKey } = await jose.generateKeyPair(alg, { extractable: true });
    keys.push({ ...(await jose.exportJWK(privateKey)), kid: `test-${alg.toLowerCase()}`, alg, use: 'sig' });
  }
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys },
    cookies: { keys: ['mcpkit-oauth-test'] },
    scopes: ['openid', 'offline_access', ...scopes],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      // Resource servers checking opaque tokens (RFC 7662), and machines getting them.
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource) => ({
          scope: scopes.join(' '),
          audience: resource,
          accessTokenTTL,
          accessTokenFormat,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    issueRefreshToken: (ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    findAccount: (ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: accessTokenTTL, RefreshToken: 3600 },
  });
  const events = [];
  const paths = [];
  server.prependListener('request', (request) => paths.push(request.url.split('?')[0]));
  provider.on('grant.success', (ctx) => events.push(`grant:${ctx.oidc.params.grant_type}`));
  provider.on('registration_create.success', () => events.push('registration'));
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    events,
    paths,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/**
 * The official TS SDK's MCP server at http://127.0.0.1:PORT/mcp, protected by its own bearer
 * middleware with `requiredScopes`; tokens are JWTs verified against the issuer's JWKS, for this
 * resource (audience). Its tool `whoami` answers with the client id and scopes of the token.
 */
export async function startProtectedTsServer(issuer, { requiredScopes = ['mcp:tools'] } = {}) {
  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  const jwks = jose.createRemoteJWKSet(new URL(metadata.jwks_uri));
  const app = express();
  const server = http.createServer(app);
  const port = await listen(server);
  const resource = `http://127.0.0.1:${port}/mcp`;
  const verifier = {
    async verifyAccessToken(token) {
      try {
        const { payload } = await jose.jwtVerify(token, jwks, { issuer, audience: resource });
        return { token, clientId: payload.client_id, scopes: (payload.scope ?? '').split(' ').filter(Boolean),
                 expiresAt: payload.exp, resource: new URL(resource) };
      } catch (error) {
        throw new InvalidTokenError(`the token does not verify: ${error.message}`);
      }
    },
  };
  const resourceMetadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
  const seen = { unauthorized: 0, authorized: 0 };
  app.use(mcpAuthMetadataRouter({ oauthMetadata: metadata, resourceServerUrl: new URL(resource), scopesSupported: requiredScopes }));
  app.use(express.json());
  app.post('/mcp', (request, response, next) => {
    if (!request.headers.authorization) seen.unauthorized++;
    next();
  }, requireBearerAuth({ verifier, requiredScopes, resourceMetadataUrl }), async (request, response) => {
    seen.authorized++;
    const mcp = new McpServer({ name: 'protected-ts-server', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Who the token says the caller is' }, async (extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo.clientId} scopes ${extra.authInfo.scopes.join(' ')}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => { transport.close(); mcp.close(); });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  app.all('/mcp', (request, response) => response.status(405).set('Allow', 'POST').end());
  return {
    url: resource,
    seen,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** A person in Chromium: opens the authorization URL, signs in as `login`, approves the consent. */
export async function signInWithChromium(authorizationUrl, { login = 'alice' } = {}) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(authorizationUrl);
    await page.fill('input[name=login]', login);
    await page.fill('input[name=password]', 'any password');
    await page.click('button[type=submit]');
    // Consent (oidc-provider asks for it for a new client), then the redirect to the loopback.
    await page.waitForSelector('text=/Continue|Authorization received/');
    if (await page.locator('button:has-text("Continue")').count()) await page.click('button:has-text("Continue")');
    await page.waitForSelector('text=Authorization received', { timeout: 15000 });
    return await page.textContent('body');
  } finally {
    await browser.close();
  }
}
