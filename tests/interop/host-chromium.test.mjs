// `mcpkit host` end to end: real Chromium (Debian's, headless) driving the host's real page,
// against the fake LLM and real MCP servers (`mcpkit everything` as "everything", asking before
// every call that is not read-only; the official server-everything as "ev"). Each test is one
// thing a user does and checks what the user then sees: a streamed answer, a tool card through
// approval, elicitation, sampling, an attached resource, stop, reload, a second tab, no LLM, and
// a fail-over between two host instances sharing one Redis. A screenshot per test goes to
// $ARTIFACTS (or a temporary folder); host-chat.png is the README's picture.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import {
  artifacts, connected, launchChromium, newProfile, openPage, screenshot, send, shown, startProxy, texts,
  turnOver,
} from './host-browser.mjs';
import { everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { here, startRedis } from './support.mjs';

const serverEverything = path.join(here, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SESSION_KEY = 'mcpkit.host.sessionId';
const TEST = { timeout: 90000 };

const work = workFolder();
let llm;
let host;
let browser;
const profiles = [];

before(async () => {
  llm = await startFakeLlm();
  const config = writeConfig(work.folder, {
    mcpServers: {
      everything: everythingServer(),
      ev: { command: process.execPath, args: [serverEverything] },
    },
  });
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

/** A new profile (so a new chat session) with the host's page open and its servers ready. */
async function freshPage(url = host.url, servers = ['everything', 'ev']) {
  const profile = await newProfile(browser);
  profiles.push(profile);
  return openPage(profile, url, { servers });
}

/** Ends a test: the screenshot, and no script error on the page. */
async function finish(page, name) {
  await screenshot(page, name);
  assert.deepEqual(page.errors, [], 'the page threw no errors');
}

const markdownOf = (locator) => locator.locator('.markdown').first().innerText();
/** What the user's messages say (their bubbles, without the Edit button beside them). */
const bubbleTexts = (page) => page.locator('[data-testid="user-message"] .bubble-text').allInnerTexts();
const completedCard = (page) => page.locator('[data-testid="tool-card"][data-state="complete"]');
/** A done card folds to its line: opened, its details (the result, the decision) can be read. */
async function openCard(card) {
  if (await card.getAttribute('data-expanded') !== 'true') await card.getByTestId('tool-card-toggle').click();
  return card;
}

describe('mcpkit host in Chromium', () => {
  test('a message is answered, streamed into an assistant message, and the tokens are counted', TEST, async () => {
    const page = await freshPage();
    await send(page, 'slow 5 200');
    await shown(page, 'user-message', 'slow 5 200');
    // Part of the answer is on screen while the rest is still coming.
    await page.waitForFunction(() => {
      const answer = document.querySelector('[data-testid="assistant-message"]');
      return answer?.dataset.streaming === 'true' && /chunk 1/.test(answer.textContent) && !/chunk 5/.test(answer.textContent);
    }, null, { timeout: 20000 });
    await page.getByTestId('stop').waitFor();
    await turnOver(page);
    const answer = page.getByTestId('assistant-message');
    assert.equal(await answer.count(), 1);
    assert.equal((await markdownOf(answer)).trim(), 'chunk 1 chunk 2 chunk 3 chunk 4 chunk 5');
    assert.equal(await answer.getAttribute('data-streaming'), null, 'the answer no longer shows as streaming');
    const usage = page.getByTestId('token-usage');
    assert.ok(Number(await usage.getAttribute('data-total')) > 0);
    assert.match(await usage.innerText(), /^[\d,]+ tokens$/);
    await finish(page, 'host-streaming');
  });

  test('a tool call waits for approval, then its card completes with the result', TEST, async () => {
    const page = await freshPage();
    await send(page, 'call everything__greet {"name":"Ada"}');
    const asking = page.locator('[data-testid="tool-card"][data-state="approval"]');
    await asking.waitFor();
    assert.match(await asking.innerText(), /Allow everything to run greet\?/);
    await page.getByTestId('approval-once').click();
    const card = completedCard(page);
    await card.waitFor();
    assert.equal(await card.getAttribute('data-error'), 'false');
    const shownCard = await (await openCard(card)).innerText();
    assert.match(shownCard, /Hello, Ada!/);
    assert.match(shownCard, /Allowed once/);
    await shown(page, 'assistant-message', 'Tool everything__greet answered');
    await turnOver(page);
    await page.evaluate(() => document.activeElement?.blur()); // no focus ring in the README's picture
    await finish(page, 'host-chat');
  });

  test('a denied call looks denied, not failed, live and after a reload', TEST, async () => {
    const page = await freshPage();
    await send(page, 'call everything__greet {"name":"Eve"}');
    await page.locator('[data-testid="tool-card"][data-state="approval"]').waitFor();
    await page.getByTestId('approval-deny').click();
    await turnOver(page);
    const check = async (when) => {
      const card = completedCard(page);
      await card.waitFor();
      assert.equal(await card.getAttribute('data-refused'), 'true', when);
      assert.equal(await card.getAttribute('data-error'), 'false', `${when}: nothing failed`);
      assert.equal(await card.evaluate((node) => node.classList.contains('is-error')), false, when);
      assert.equal((await card.locator('.tool-state').innerText()).trim(), 'not run', when);
      assert.match(await (await openCard(card)).innerText(), /The user declined this call/, when);
    };
    await check('live');
    await page.reload();
    await connected(page, ['everything', 'ev']);
    await check('after a reload');
    await finish(page, 'host-denied');
  });

  test('elicitation: the server asks, the user fills the form, the tool gets the answer', TEST, async () => {
    const page = await freshPage();
    await send(page, 'call everything__test_elicitation {"message":"Who?"}');
    // test_elicitation is not read-only: the host asks first.
    await page.getByTestId('approval-once').click();
    const form = page.getByTestId('elicitation-form');
    await form.waitFor();
    assert.match(await page.getByTestId('elicitation').innerText(), /Who\?/);
    await form.locator('[data-field="username"] input').fill('Ada Lovelace');
    await form.locator('[data-field="email"] input').fill('ada@example.com');
    await page.getByTestId('elicitation-accept').click();
    const card = completedCard(page);
    await card.waitFor();
    const result = await (await openCard(card)).innerText();
    assert.match(result, /action=accept/);
    assert.match(result, /Ada Lovelace/);
    assert.match(result, /ada@example\.com/);
    assert.equal(await page.getByTestId('elicitation').getAttribute('data-state'), 'accept');
    await turnOver(page);
    await finish(page, 'host-elicitation');
  });

  test('sampling: the server asks the model through the host, the user approves', TEST, async () => {
    const page = await freshPage();
    // server-everything lists its sampling tool once it knows the host can sample.
    await page.locator('[data-testid="tool-entry"][data-tool="ev__trigger-sampling-request"]').waitFor({ timeout: 20000 });
    await send(page, 'call ev__trigger-sampling-request {"prompt":"echo sampled","maxTokens":20}');
    await page.getByTestId('approval-once').click();
    const request = page.getByTestId('sampling-request');
    await request.waitFor();
    assert.match(await request.innerText(), /echo sampled/);
    assert.match(await request.innerText(), /at most 20 tokens/);
    await page.getByTestId('sampling-approve').click();
    const card = completedCard(page);
    await card.waitFor();
    assert.equal(await card.getAttribute('data-error'), 'false');
    assert.match(await (await openCard(card)).innerText(), /LLM sampling result/i);
    assert.equal(await request.getAttribute('data-state'), 'approve');
    await turnOver(page);
    await finish(page, 'host-sampling');
  });

  test('a resource attached in the server panel goes to the model with the message', TEST, async () => {
    const page = await freshPage();
    const box = page.locator('[data-testid="resource-attach"][data-server="everything"][data-uri="test://static-text"]');
    await box.check();
    await page.getByTestId('attachment-chip').filter({ hasText: 'static-text' }).waitFor();
    const mark = llm.requests.length;
    await send(page, 'echo about the file');
    await shown(page, 'user-message', 'everything: test://static-text');
    await shown(page, 'assistant-message', 'about the file');
    await turnOver(page);
    const asked = llm.requests.slice(mark).map((request) => request.body.messages.filter((m) => m.role === 'user').at(-1)?.content);
    assert.ok(asked.some((content) => /about the file\s+Attached resource test:\/\/static-text:\s*This is the content of the static text resource\./.test(content)),
      JSON.stringify(asked));
    assert.equal(await box.isChecked(), false, 'the attachment is for one message');
    assert.equal(await page.getByTestId('attachment-chip').count(), 0);
    await finish(page, 'host-attachment');
  });

  test('stop ends the answer mid-stream', TEST, async () => {
    const page = await freshPage();
    await send(page, 'slow 50 200');
    const answer = await shown(page, 'assistant-message', 'chunk 2');
    await page.getByTestId('stop').click();
    await page.getByTestId('turn-stopped').waitFor();
    await turnOver(page);
    assert.equal(await answer.getAttribute('data-streaming'), null);
    assert.equal(await answer.locator('.markdown').getAttribute('aria-busy'), 'false');
    const atStop = await markdownOf(answer);
    assert.doesNotMatch(atStop, /chunk 50/);
    // The chat goes on, and the stopped answer did not grow meanwhile.
    await send(page, 'echo still here');
    await shown(page, 'assistant-message', 'still here');
    await turnOver(page);
    assert.equal(await markdownOf(page.getByTestId('assistant-message').first()), atStop);
    await finish(page, 'host-stopped');
  });

  test('a reload shows the same conversation (the session is kept in localStorage)', TEST, async () => {
    const page = await freshPage();
    await send(page, 'call everything__echo {"text":"kept across reloads"}');
    await shown(page, 'assistant-message', 'Tool everything__echo answered');
    await turnOver(page);
    const session = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
    assert.ok(session);
    await page.reload();
    await connected(page, ['everything']);
    await shown(page, 'assistant-message', 'Tool everything__echo answered');
    assert.deepEqual(await bubbleTexts(page), ['call everything__echo {"text":"kept across reloads"}']);
    const card = completedCard(page);
    assert.equal(await card.count(), 1);
    assert.match(await card.innerText(), /kept across reloads/);
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY), session);
    await finish(page, 'host-reload');
  });

  test('a second tab on the session sees the first tab\'s message and the answer as it streams', TEST, async () => {
    const profile = await newProfile(browser);
    profiles.push(profile);
    const first = await openPage(profile, host.url, { servers: ['everything'] });
    const second = await openPage(profile, host.url, { servers: ['everything'] });
    const sessionOf = (page) => page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
    assert.equal(await sessionOf(second), await sessionOf(first));
    await send(first, 'slow 5 100');
    await shown(second, 'user-message', 'slow 5 100');
    await shown(second, 'assistant-message', 'chunk 5');
    await turnOver(second);
    await turnOver(first);
    for (const page of [first, second]) {
      assert.deepEqual(await bubbleTexts(page), ['slow 5 100'], 'the message shows once in each tab');
      assert.equal((await markdownOf(page.getByTestId('assistant-message'))).trim(), 'chunk 1 chunk 2 chunk 3 chunk 4 chunk 5');
    }
    await screenshot(first, 'host-two-tabs-first');
    await finish(second, 'host-two-tabs-second');
  });
});

describe('mcpkit host in Chromium, against a hostile page', () => {
  test('a page of another local port cannot frame the chat (clickjacking)', TEST, async () => {
    // The attacker's page, on a port of its own, frames the live chat with its token (the worst
    // case: the token leaked) nearly invisible, as the outside test did.
    const attacker = http.createServer((request, response) => {
      response.setHeader('Content-Type', 'text/html');
      response.end(`<!doctype html><p>Win a prize: click twice!</p>
        <iframe id="chat" style="opacity:0.01;width:1200px;height:800px" src="${host.pageUrl}"></iframe>`);
    });
    await new Promise((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const profile = await newProfile(browser);
      profiles.push(profile);
      const page = await profile.newPage();
      const refused = page.waitForEvent('console', { predicate: (message) => /frame-ancestors|X-Frame-Options/.test(message.text()), timeout: 15000 });
      await page.goto(`http://127.0.0.1:${attacker.address().port}/`);
      await refused;
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      assert.ok(frame, 'the iframe exists');
      // Chromium shows its error page in the frame instead of the chat: nothing there to click.
      assert.equal(await frame.locator('[data-testid="message-input"]').count(), 0);
      assert.equal(await frame.locator('[data-testid="tool-entry"]').count(), 0);
    } finally {
      attacker.close();
    }
  });
});

describe('mcpkit host in Chromium, without an LLM', () => {
  let bare;
  before(async () => {
    bare = await startHost({ config: writeConfig(work.folder, { mcpServers: { everything: everythingServer() } }, 'bare.json') });
  });
  after(async () => { await bare?.stop(); });

  test('the page says no model is configured, and a tool can still be called by hand', TEST, async () => {
    const page = await freshPage(bare.url, ['everything']);
    const notice = page.getByTestId('llm-notice');
    await notice.waitFor();
    assert.match(await notice.innerText(), /No language model is configured/);
    await page.locator('[data-testid="tool-entry"][data-tool="everything__greet"]').click();
    const form = page.locator('[data-testid="tool-form"][data-tool="everything__greet"]');
    await form.locator('[data-field="name"] input').fill('Grace');
    await form.getByTestId('tool-form-submit').click();
    // The server asks before its tools run (approval "ask"): by hand too, a second click runs it.
    const question = page.getByTestId('tool-form-question');
    await question.waitFor();
    assert.match(await question.innerText(), /everything asks before greet runs/);
    assert.equal(await page.getByTestId('tool-result').count(), 0, 'nothing ran before the confirming click');
    await page.getByTestId('tool-form-confirm').click();
    const result = page.getByTestId('tool-result').filter({ hasText: 'Hello, Grace!' });
    await result.waitFor();
    assert.equal(await result.getAttribute('data-error'), 'false');
    await finish(page, 'host-no-llm');
  });
});

describe('mcpkit host in Chromium, two instances sharing Redis', () => {
  let redis;
  let proxy;
  const hosts = [];
  before(async () => {
    redis = await startRedis();
    const config = writeConfig(work.folder, { mcpServers: {} }, 'none.json');
    for (let i = 0; i < 2; i += 1) hosts.push(await startHost({ config, llm, store: redis.url }));
    proxy = await startProxy(hosts[0].port);
  });
  after(async () => {
    await proxy?.close();
    for (const instance of hosts) await instance.stop();
    await redis?.stop();
  });

  test('when the instance dies, the page reconnects through the proxy and the chat goes on', TEST, async () => {
    const [a, b] = hosts;
    const page = await freshPage(proxy.url, []);
    await send(page, 'echo said before the fail-over');
    await shown(page, 'assistant-message', 'said before the fail-over');
    await turnOver(page);
    const session = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);

    a.child.kill('SIGKILL');
    await a.child.exited;
    await page.getByTestId('connection-banner').waitFor({ state: 'visible' });
    proxy.switchTo(b.port);
    await connected(page);
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY), session, 'the same session, on B');
    assert.deepEqual(await bubbleTexts(page), ['echo said before the fail-over']);
    assert.equal(await page.getByTestId('toast').count(), 0, 'no "a new chat started" notice');

    const mark = llm.requests.length;
    await send(page, 'echo said after the fail-over');
    await shown(page, 'assistant-message', 'said after the fail-over');
    await turnOver(page);
    assert.deepEqual(await bubbleTexts(page), ['echo said before the fail-over', 'echo said after the fail-over']);
    // B answered with the whole conversation, as A had kept it in Redis.
    const history = llm.requests.slice(mark).at(-1).body.messages.map((m) => m.content);
    assert.ok(history.includes('echo said before the fail-over') && history.includes('said before the fail-over'), JSON.stringify(history));
    await finish(page, 'host-failover');
  });
});
