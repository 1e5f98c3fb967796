// A protected remote MCP server behind the host: OAuth 2.1 against a real authorization server
// (oidc-provider) and the official TypeScript SDK's bearer middleware. The sign-in link appears
// in the chat page, a person signs in with real Chromium, the browser comes back to the host's
// /oauth/callback, the server becomes ready and its tools work; the tokens are kept, so a restarted
// host needs no new sign-in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connectPage, startHost, workFolder, writeConfig } from './host-support.mjs';
import { signInWithChromium, startAuthorizationServer, startProtectedTsServer } from './oauth-support.mjs';

const work = workFolder();
let authorization;
let protectedServer;
let config;
const env = { XDG_CONFIG_HOME: work.folder, BROWSER: '', DISPLAY: '', WAYLAND_DISPLAY: '' };

before(async () => {
  authorization = await startAuthorizationServer();
  protectedServer = await startProtectedTsServer(authorization.issuer);
  config = writeConfig(work.folder, { mcpServers: { secure: { url: protectedServer.url, approval: 'auto' } } });
});
after(async () => {
  await protectedServer?.close();
  await authorization?.close?.();
  work.remove();
});

describe('a protected server signs in through the chat page', () => {
  test('the link is shown, the browser returns to the host, the server is ready and its tools work', async () => {
    const host = await startHost({ config, env });
    try {
      const page = await connectPage(host.port);
      const needed = await page.next('servers', (p) => p.servers.find((s) => s.name === 'secure')?.signIn, 30000);
      const url = needed.servers.find((s) => s.name === 'secure').signIn;
      assert.match(url, new RegExp(`^${authorization.issuer}/`));
      assert.equal(new URL(url).searchParams.get('redirect_uri'), `http://127.0.0.1:${host.port}/oauth/callback`);
      const landed = await signInWithChromium(url);
      assert.match(landed, /You are signed in to secure/);
      const ready = await page.next('servers', (p) => p.servers.find((s) => s.name === 'secure')?.state === 'ready', 30000);
      assert.equal(ready.servers.find((s) => s.name === 'secure').signIn, undefined);
      page.send('call_tool', { requestId: 'who', tool: 'secure__whoami', arguments: {} });
      const who = await page.next('tool_result', (p) => p.requestId === 'who');
      assert.equal(who.isError, false, JSON.stringify(who));
      assert.match(who.result.content[0].text, /scopes .*mcp:tools/);
      page.close();
    } finally {
      await host.stop();
    }
  });

  test('a restarted host reuses the kept tokens', async () => {
    const host = await startHost({ config, env });
    try {
      const page = await connectPage(host.port);
      const ready = await page.next('servers', (p) => p.servers.find((s) => s.name === 'secure')?.state === 'ready', 30000);
      assert.equal(ready.servers.find((s) => s.name === 'secure').signIn, undefined);
      assert.ok(!page.frames.some((f) => f.type === 'auth_required'));
      page.close();
    } finally {
      await host.stop();
    }
  });

  test('a callback nobody waits for is answered with a page saying so', async () => {
    const host = await startHost({ config, env });
    try {
      const response = await fetch(`${host.url}/oauth/callback?code=x&state=forged<script>`);
      const text = await response.text();
      assert.match(text, /Nothing to sign in to/);
      assert.doesNotMatch(text, /<script>/);
    } finally {
      await host.stop();
    }
  });
});
