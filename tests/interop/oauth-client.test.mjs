// mcpkit client signing in to a protected MCP server as a person would: the official TS SDK's
// server with its bearer middleware, oidc-provider as the authorization server (discovery by
// OpenID Connect, dynamic registration, PKCE, RFC 8707 resource, JWT access tokens for that
// resource only), and real Chromium for the sign-in and consent pages, which send the browser back
// to mcpkit's loopback redirect. Then the tokens kept in the 0600 file: reused by the next run,
// refreshed silently late in their life, and a run with --no-oauth that is refused with the
// server's explanation.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { mcpkit, runProcess, sleep } from './support.mjs';
import { signInWithChromium, startAuthorizationServer, startProtectedTsServer } from './oauth-support.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-oauth-client-'));
const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** No browser to open and no desktop: mcpkit only prints the URL. */
const environment = { ...process.env, BROWSER: '', DISPLAY: '', WAYLAND_DISPLAY: '', XDG_CONFIG_HOME: work };

/**
 * `mcpkit client call whoami --url URL …`, signing in with Chromium when it prints an
 * authorization URL. Resolves with the exit code, stdout, stderr and whether a sign-in happened.
 */
function callWhoami(url, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(mcpkit, ['client', 'call', 'whoami', '--url', url, '--timeout', '20', ...extra], { env: environment });
    let stdout = '';
    let stderr = '';
    let signIn;
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const shown = stderr.match(/Open this URL in a browser:\s+(\S+)/);
      if (shown && !signIn) signIn = signInWithChromium(shown[1]).catch(reject);
    });
    const timer = setTimeout(() => child.kill(), 60000);
    child.on('close', async (code) => {
      clearTimeout(timer);
      const page = await signIn;
      resolve({ code, stdout, stderr, signedIn: Boolean(signIn), page });
    });
  });
}

describe('mcpkit client authorizes with OAuth 2.1 against oidc-provider and the TS SDK bearer middleware', async () => {
  const authorization = await startAuthorizationServer({ scopes: ['mcp:tools'], accessTokenTTL: 10 });
  cleanups.push(authorization.close);
  const server = await startProtectedTsServer(authorization.issuer, { requiredScopes: ['mcp:tools'] });
  cleanups.push(server.close);
  const tokenFile = path.join(work, 'mcpkit', 'oauth.json');

  test('the first call signs in through the browser and the loopback redirect', async () => {
    const run = await callWhoami(server.url);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.signedIn, `no authorization URL was printed:\n${run.stderr}`);
    assert.match(run.page, /Authorization received/);
    const result = JSON.parse(run.stdout);
    // The TS SDK's middleware verified a JWT for this resource, from a client registered just now.
    assert.match(result.content[0].text, /^client \S+ scopes .*mcp:tools/);
    assert.match(run.stderr, /registered with http:\/\/127\.0\.0\.1:\d+ as client/);
    assert.ok(authorization.events.includes('registration'));
    assert.ok(authorization.events.includes('grant:authorization_code'));
    // No token reached the terminal.
    const stored = JSON.parse(fs.readFileSync(tokenFile, 'utf8'));
    const token = Object.values(Object.values(stored.tokens)[0])[0];
    assert.ok(token.access_token.length > 20 && token.refresh_token.length > 10, 'tokens were not kept');
    assert.ok(!run.stderr.includes(token.access_token) && !run.stdout.includes(token.access_token));
    assert.ok(!run.stderr.includes(token.refresh_token));
    assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(tokenFile)).mode & 0o777, 0o700);
  });

  test('the next call uses the stored token as it is', async () => {
    const run = await callWhoami(server.url);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.signedIn, false, `it asked to sign in again:\n${run.stderr}`);
    assert.match(run.stderr, /using the stored access token/);
    assert.doesNotMatch(run.stderr, /registered with|refreshed/);
  });

  test('a call late in the token\'s life refreshes it without asking anyone', async () => {
    // The access tokens live 10 s; past half of that, the client refreshes before using one.
    await sleep(6000);
    const grantsBefore = authorization.events.filter((event) => event === 'grant:refresh_token').length;
    const run = await callWhoami(server.url);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.signedIn, false, `it asked to sign in again:\n${run.stderr}`);
    assert.match(run.stderr, /access token refreshed/);
    assert.ok(authorization.events.filter((event) => event === 'grant:refresh_token').length > grantsBefore);
    assert.match(JSON.parse(run.stdout).content[0].text, /mcp:tools/);
  });

  test('--no-oauth: the 401 is an error that says what the server wants', async () => {
    const run = await runProcess(mcpkit, ['client', 'tools', '--url', server.url, '--no-oauth'], { env: environment });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /HTTP 401/);
    assert.match(run.stderr, /Missing Authorization header/);
  });

  test('a damaged token file is reported, not overwritten', async () => {
    const damaged = path.join(work, 'damaged.json');
    fs.writeFileSync(damaged, '{"tokens": ');
    const run = await runProcess(mcpkit, ['client', 'tools', '--url', server.url, '--token-file', damaged], { env: environment });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /damaged\.json: is not a JSON object/);
    assert.equal(fs.readFileSync(damaged, 'utf8'), '{"tokens": ');
  });
});
