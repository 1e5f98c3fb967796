// `mcpkit host` and MCP Apps (SEP-1865), in real Chromium (Debian's, headless) on the host's real
// page, against the fake LLM and host-app-server.mjs (official TypeScript SDK): a tool with a
// ui:// view shows the view in its card; the view, in a sandboxed frame, gets the call's result,
// calls an app-only tool through the host, and can reach neither the page around it nor the
// network; the model is never offered the app-only tool; a call by hand from the server panel shows
// the view too. Screenshots go to $ARTIFACTS (or a temporary folder).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { artifacts, launchChromium, newProfile, openPage, screenshot, send, shown, turnOver } from './host-browser.mjs';
import { startHost, workFolder, writeConfig } from './host-support.mjs';
import { here, sleep } from './support.mjs';

const appServer = path.join(here, 'host-app-server.mjs');
const TEST = { timeout: 90000 };

const work = workFolder();
let llm;
let host;
let browser;
const profiles = [];

before(async () => {
  llm = await startFakeLlm();
  // The test's own server: its annotations are believed, so its read-only tools run without a question.
  const config = writeConfig(work.folder, { mcpServers: { apps: { command: process.execPath, args: [appServer], trustAnnotations: true } } });
  host = await startHost({ config, llm });
  browser = await launchChromium();
});

afterEach(async () => {
  for (const profile of profiles.splice(0)) await profile.close();
});

after(async () => {
  await browser?.close();
  await host?.stop();
  await llm?.close();
  work.remove();
  console.log(`screenshots in ${artifacts}`);
});

async function freshPage() {
  const profile = await newProfile(browser);
  profiles.push(profile);
  return openPage(profile, host.url, { servers: ['apps'] });
}

/** Waits until the element `selector` inside the view says exactly `text`. */
const says = (view, selector, text) => view.locator(selector, { hasText: new RegExp(`^${text}$`) }).waitFor({ timeout: 20000 });

/** Sends a JSON-RPC request from inside the view, as its own script would; resolves to the answer. */
function askFromView(frame, method, params) {
  return frame.evaluate(([method, params]) => new Promise((resolve) => {
    const id = `test-${Math.random()}`;
    window.addEventListener('message', function listen(event) {
      if (event.source !== window.parent || event.data?.id !== id) return;
      window.removeEventListener('message', listen);
      resolve(event.data);
    });
    window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
  }), [method, params]);
}

/**
 * Checks the view in `frameElement` (a locator): the sandbox, the count from the call's result,
 * the increment button (an app-only tool called through the host), isolation, network, the size.
 */
async function checkView(page, frameElement, start) {
  await frameElement.waitFor({ timeout: 20000 });
  // Scripts only: no allow-same-origin, so the view's origin is opaque.
  assert.equal(await frameElement.getAttribute('sandbox'), 'allow-scripts');
  assert.match(await frameElement.getAttribute('src'), /^\/apps\/\S+$/);
  assert.notEqual(await frameElement.evaluate((node) => getComputedStyle(node).borderTopWidth), '0px', 'prefersBorder: a border');
  const view = frameElement.contentFrame();
  await says(view, '#count', `Count: ${start}`);
  await view.locator('#increment').click();
  await says(view, '#count', `Count: ${start + 1}`);
  assert.equal(await view.locator('#isolation').innerText(), 'isolated', 'window.parent.document throws');
  await says(view, '#network', 'blocked');
  await says(view, '#violation', 'connect-src'); // the host's default CSP, not a missing network, blocked it
  // ui/notifications/size-changed: the frame takes the view's height.
  const frame = await (await frameElement.elementHandle()).contentFrame();
  const height = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await frameElement.evaluate((node, expected) => new Promise((resolve) => {
    const check = () => (node.style.height === `${expected}px` ? resolve() : setTimeout(check, 50));
    check();
  }), Math.min(1200, Math.max(50, height)));
  return frame;
}

describe('mcpkit host in Chromium: MCP Apps', () => {
  test('the model calls a tool with a view: the card shows it, and the view works in its sandbox', TEST, async () => {
    const page = await freshPage();
    const mark = llm.requests.length;
    await send(page, 'call apps__show_counter {"start":41}');
    const card = page.locator('[data-testid="tool-card"][data-state="complete"]');
    await card.waitFor({ timeout: 20000 });
    assert.equal(await card.getAttribute('data-error'), 'false');
    const frame = await checkView(page, card.getByTestId('app-frame'), 41);
    await shown(page, 'assistant-message', 'Tool apps__show_counter answered');
    await turnOver(page);

    // The model was offered the tool with the view, never the tool only the view may call.
    const offered = llm.requests.slice(mark).flatMap((request) => (request.body.tools ?? []).map((tool) => tool.function?.name));
    assert.ok(offered.includes('apps__show_counter'), JSON.stringify(offered));
    assert.ok(!offered.includes('apps__increment'), JSON.stringify(offered));

    // The view's other requests, as the host answers them.
    assert.deepEqual((await askFromView(frame, 'ping', {})).result, {});
    assert.deepEqual((await askFromView(frame, 'ui/request-display-mode', { mode: 'fullscreen' })).result, { mode: 'inline' });
    const context = (params) => askFromView(frame, 'ui/update-model-context', params);
    assert.equal((await context({ content: 'not a list' })).error?.code, -32602);
    assert.equal((await context({ content: [{ type: 'text', text: 'x'.repeat(20000) }] })).error?.code, -32000, 'over 16 KB');
    assert.equal((await askFromView(frame, 'ui/open-link', { url: 'javascript:alert(1)' })).error?.code, -32000);
    assert.ok((await askFromView(frame, 'tools/call', { name: 'no_such_tool', arguments: {} })).error, 'an unknown tool is refused');
    const read = await askFromView(frame, 'resources/read', { uri: 'ui://counter/view' });
    assert.match(read.result?.contents?.[0]?.text ?? '', /id="increment"/);
    // A view cannot reach the host under another of its names either.
    for (const name of ['localhost', '127.0.0.2', '[::1]', '0.0.0.0']) {
      const answer = await askFromView(frame, 'ui/open-link', { url: `http://${name}:${host.port}/?x=1` });
      assert.deepEqual(answer.error, { code: -32000, message: 'Links to the host itself are not opened' }, name);
    }
    // ui/message: the view proposes, attributed to it, and the user decides; nothing is sent before.
    const ask = (text) => askFromView(frame, 'ui/message', { role: 'user', content: [{ type: 'text', text }] });
    const proposal = page.getByTestId('app-message');
    const beforeProposal = llm.requests.length;
    const proposed = ask('slow 6 500');
    await proposal.filter({ hasText: 'slow 6 500' }).waitFor({ timeout: 20000 });
    assert.match(await proposal.innerText(), /The view of apps wants to send this message as you/);
    await sleep(300);
    assert.equal(llm.requests.length, beforeProposal, 'nothing reaches the model before the user accepts');
    await proposal.getByTestId('app-message-send').click();
    assert.deepEqual((await proposed).result, {});
    await shown(page, 'user-message', 'slow 6 500');
    // Accepted while an answer is being written: the page says so and the message keeps waiting.
    const tooSoon = ask('echo too soon');
    await proposal.filter({ hasText: 'echo too soon' }).getByTestId('app-message-send').click();
    await proposal.getByText('a turn is running').waitFor({ timeout: 20000 });
    await shown(page, 'assistant-message', 'chunk 6');
    await turnOver(page);
    // A flood is one question: each newer message replaces the one waiting, and none starts a turn.
    const afterTurn = llm.requests.length;
    const flood = Array.from({ length: 40 }, (_, i) => ask(`echo flood ${i}`));
    const replaced = await Promise.all([tooSoon, ...flood.slice(0, 39)]);
    for (const answer of replaced) assert.match(answer.error?.message ?? '', /^Replaced by a newer message/, JSON.stringify(answer));
    assert.equal(await proposal.count(), 1);
    assert.match(await proposal.innerText(), /echo flood 39/);
    await screenshot(page, 'host-app-message');
    await proposal.getByTestId('app-message-dismiss').click();
    assert.deepEqual((await flood[39]).error, { code: -32000, message: 'The user declined to send the message' });
    assert.equal(await proposal.count(), 0);
    assert.equal(llm.requests.length, afterTurn, 'the view started no turn on its own');

    // ui/update-model-context: kept per view, the newest replacing the one before, and given to
    // the model with the next user message only.
    assert.deepEqual((await context({ content: [{ type: 'text', text: 'an older context' }] })).result, {});
    assert.deepEqual((await context({ content: [{ type: 'text', text: 'the counter shows 42' }], structuredContent: { count: 42 } })).result, {});
    const userText = (request) => String(request.body.messages?.findLast((message) => message.role === 'user')?.content ?? '');
    const contextMark = llm.requests.length;
    await send(page, 'echo what does the view say');
    await shown(page, 'assistant-message', 'the counter shows 42');
    await turnOver(page);
    // The page shows it folded under the message, apart from what the person wrote.
    await shown(page, 'user-context', 'the counter shows 42');
    const note = page.getByTestId('user-message').filter({ hasText: 'what does the view say' }).getByTestId('user-context');
    assert.equal(await note.count(), 1);
    await note.locator('summary').click();
    await screenshot(page, 'host-app-context');
    assert.equal(userText(llm.requests[contextMark]), 'echo what does the view say\n\nContext from the view of the tool ' +
      'apps__show_counter (server apps), as it stands now:\nthe counter shows 42\nData: {"count":42}');
    await send(page, 'echo once only');
    await shown(page, 'assistant-message', 'once only');
    await turnOver(page);
    assert.equal(userText(llm.requests.at(-1)), 'echo once only');

    await page.evaluate(() => document.activeElement?.blur());
    await screenshot(page, 'host-app');
    // A reload shows the view again, from the history, with the call's own result. It is the same
    // view: its context replaces the one it sent before the reload.
    assert.deepEqual((await context({ content: [{ type: 'text', text: 'before the reload' }] })).result, {});
    await page.reload();
    const again = page.locator('[data-testid="tool-card"][data-state="complete"]').getByTestId('app-frame');
    await again.waitFor({ timeout: 20000 });
    assert.equal(await again.count(), 1);
    await says(again.contentFrame(), '#count', 'Count: 41');
    assert.equal(await page.getByTestId('user-context').count(), 1, 'the history keeps the context apart too');
    const reloaded = await (await again.elementHandle()).contentFrame();
    const update = { content: [{ type: 'text', text: 'after the reload' }] };
    assert.deepEqual((await askFromView(reloaded, 'ui/update-model-context', update)).result, {});
    const reloadMark = llm.requests.length;
    await send(page, 'echo one view, one context');
    await shown(page, 'assistant-message', 'after the reload');
    await turnOver(page);
    assert.equal(userText(llm.requests[reloadMark]), 'echo one view, one context\n\nContext from the view of the tool ' +
      'apps__show_counter (server apps), as it stands now:\nafter the reload');
    // A new chat takes the view away.
    await page.getByTestId('new-chat').click();
    await page.getByTestId('app-frame').waitFor({ state: 'detached' });
    assert.deepEqual(page.errors, [], 'the page threw no errors');
  });

  test('a call by hand from the server panel shows the view under the result', TEST, async () => {
    const page = await freshPage();
    await page.locator('[data-testid="tool-entry"][data-tool="apps__show_counter"]').click();
    const form = page.locator('[data-testid="tool-form"][data-tool="apps__show_counter"]');
    await form.locator('[data-field="start"] input').fill('7');
    await form.getByTestId('tool-form-submit').click();
    await page.getByTestId('tool-result').filter({ hasText: 'The counter is at 7.' }).waitFor({ timeout: 20000 });
    await checkView(page, page.getByTestId('server-panel').getByTestId('app-frame'), 7);
    await screenshot(page, 'host-app-by-hand');
    assert.deepEqual(page.errors, [], 'the page threw no errors');
  });
});
