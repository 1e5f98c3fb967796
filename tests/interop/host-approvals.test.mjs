// Approval scopes, end to end: "once", "in this chat" (another chat asks again), "always" (every
// chat, and after a restart on the same store), each listed and revocable; arguments edited
// before allowing (the server runs them, the model is told). Over the page's WebSocket, then in
// Chromium with the screenshot of an approval and of the standing list.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { hostTestBed, openPage, screenshot, send, turnOver } from './host-browser.mjs';
import { connectPage, everythingServer, writeConfig } from './host-support.mjs';

const TEST = { timeout: 60000 };
const bed = hostTestBed();
let config;
let store;

before(() => {
  config = writeConfig(bed.work.folder, { mcpServers: { everything: everythingServer() } });
  store = `sqlite:${path.join(bed.work.folder, 'approvals.db')}`;
});

async function pageOn(host, sessionId) {
  const page = await connectPage(host.port, { sessionId });
  await page.next('servers', (p) => p.servers.some((server) => server.name === 'everything' && server.state === 'ready'), 30000);
  return page;
}

/** Sends `text`; answers the approval with `decision` (and `extra`) if one comes; returns whether one came. */
async function call(page, text, decision, extra = {}) {
  const from = page.frames.length;
  page.send('message', { text });
  const turn = await page.next('turn', (p) => p.state === 'started', 15000, from);
  let asked = false;
  for (;;) {
    const frame = page.frames.slice(from).find((f, i) => !page.taken.has(from + i) &&
      ((f.type === 'approval_request') || (f.type === 'turn' && f.payload.turnId === turn.turnId && f.payload.state !== 'started')));
    if (!frame) { await new Promise((resolve) => setTimeout(resolve, 20)); continue; }
    page.taken.add(page.frames.indexOf(frame, from));
    if (frame.type === 'turn') return { asked, ended: frame.payload };
    asked = true;
    page.send('approval', { callId: frame.payload.callId, decision, ...extra });
  }
}

async function standing(page) {
  const requestId = `r${Math.random()}`;
  page.send('list_approvals', { requestId });
  return (await page.next('approvals', (p) => p.requestId === requestId)).items.map((item) => `${item.tool}:${item.scope}`);
}

describe('approval scopes', () => {
  test('in this chat holds in this chat only; always holds everywhere and after a restart; both revocable', TEST, async () => {
    let host = await bed.host({ config, store });
    const first = await pageOn(host);
    assert.equal((await call(first, 'call everything__greet {"name":"A"}', 'conversation')).asked, true);
    assert.equal((await call(first, 'call everything__greet {"name":"B"}', 'deny')).asked, false, 'allowed in this chat');
    assert.deepEqual(await standing(first), ['everything__greet:conversation']);
    const second = await pageOn(host);
    assert.equal((await call(second, 'call everything__greet {"name":"C"}', 'always')).asked, true, 'another chat asks');
    assert.deepEqual(await standing(second), ['everything__greet:always']);
    const third = await pageOn(host);
    assert.equal((await call(third, 'call everything__greet {"name":"D"}', 'deny')).asked, false, 'always: every chat');

    await host.stop();
    host = await bed.host({ config, store });
    const afterRestart = await pageOn(host);
    assert.equal((await call(afterRestart, 'call everything__greet {"name":"E"}', 'deny')).asked, false, 'kept across a restart');
    const requestId = 'revoke-1';
    afterRestart.send('revoke_approval', { requestId, tool: 'everything__greet', scope: 'always' });
    assert.deepEqual((await afterRestart.next('approvals', (p) => p.requestId === requestId)).items, []);
    assert.equal((await call(afterRestart, 'call everything__greet {"name":"F"}', 'deny')).asked, true, 'revoked: asked again');
    afterRestart.send('revoke_approval', { requestId: 'revoke-2', tool: 'everything__greet', scope: 'always' });
    assert.match((await afterRestart.next('error', (p) => p.requestId === 'revoke-2')).message,
      /revoke_approval\.payload\.tool names no tool allowed always/);
  });

  test('arguments edited before allowing are the ones run, and the model is told', TEST, async () => {
    const host = await bed.host({ config });
    const page = await pageOn(host);
    bed.llm.reset();
    await call(page, 'call everything__greet {"name":"Mallory"}', 'once', { arguments: { name: 'Alice' } });
    const toolMessage = bed.llm.requests.filter((r) => r.method === 'POST').at(-1).body.messages.filter((m) => m.role === 'tool').at(-1);
    assert.match(toolMessage.content, /^\(The user changed the arguments before allowing the call; it ran with \{"name":"Alice"\}\.\)\nHello, Alice!/);
    page.send('message', { text: 'call everything__greet {"name":"x"}' });
    const ask = await page.next('approval_request');
    page.send('approval', { callId: ask.callId, decision: 'once', arguments: 'not an object' });
    assert.match((await page.next('error')).message, /approval\.payload\.arguments must be an object/);
    page.send('approval', { callId: ask.callId, decision: 'deny' });
    await page.next('turn', (p) => p.state !== 'started');
  });
});

describe('on the page', () => {
  test('the approval offers the scopes and editable arguments; the panel lists and revokes', TEST, async () => {
    const host = await bed.host({ config });
    const page = await openPage(await bed.profile(), host.url, { servers: ['everything'] });
    await send(page, 'call everything__greet {"name":"Ada"}');
    await page.getByTestId('approval-conversation').waitFor();
    await page.getByTestId('approval-edit').locator('summary').click();
    await page.getByTestId('approval-arguments').fill('{"name": "Grace"');
    await page.getByTestId('approval-arguments-error').waitFor();
    assert.equal(await page.getByTestId('approval-once').isDisabled(), true, 'no call with arguments that do not parse');
    await page.getByTestId('approval-arguments').fill('{"name": "Grace"}');
    await screenshot(page, 'host-approval-scopes');
    await page.getByTestId('approval-conversation').click();
    await turnOver(page);
    const card = page.getByTestId('tool-card');
    await card.getByTestId('tool-card-toggle').click();
    await card.locator('.tool-result', { hasText: 'Hello, Grace!' }).waitFor();
    const row = page.getByTestId('standing-approval');
    await row.waitFor();
    assert.match(await row.innerText(), /everything ›\s*greet\s*this chat/);
    await screenshot(page, 'host-standing-approvals');
    await row.getByTestId('revoke-approval').click();
    await page.getByTestId('approvals').waitFor({ state: 'hidden' });
    await send(page, 'call everything__greet {"name":"Lin"}');
    await page.getByTestId('approval-deny').waitFor();  // asked again
    await page.getByTestId('approval-deny').click();
    await turnOver(page);
    assert.deepEqual(page.errors, []);
  });
});
