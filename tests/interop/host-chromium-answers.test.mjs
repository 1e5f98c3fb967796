// `mcpkit host` end to end, around the answer: real Chromium (Debian's, headless) on the host's
// real page, against the fake LLM's documented provider behaviours (fake-llm-scenarios.mjs) and
// faults. What the person sees: the model's reasoning folded above its answer and kept apart from
// it; a failing provider counted down through its retries, then one plain error box with the
// provider's own words folded under it; an answer cut by the output limit, with its notice; and
// the model picker (the provider's list, a choice the next request uses and a second tab follows,
// a phone-width header that does not spill; without a list, the configured name). Each survives a
// reload where it is part of the conversation. Screenshots go to $ARTIFACTS (or a temporary folder).
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { artifacts, connected, launchChromium, newProfile, openPage, screenshot, send, shown, turnOver } from './host-browser.mjs';
import { startHost, workFolder, writeConfig } from './host-support.mjs';

const TEST = { timeout: 90000 };
const MODELS = ['fake-model', 'gpt-standard', 'gemini-fake', 'claude-fake'];

const work = workFolder();
let llm;
let config;
let browser;
const hosts = [];
const profiles = [];

before(async () => {
  llm = await startFakeLlm({ models: MODELS });
  config = writeConfig(work.folder, { mcpServers: {} });
  browser = await launchChromium();
});

afterEach(async () => {
  for (const profile of profiles.splice(0)) await profile.close();
});

after(async () => {
  await browser?.close();
  for (const host of hosts) await host.stop();
  await llm?.close();
  work.remove();
  console.log(`screenshots in ${artifacts}`);
});

/** A host whose configured model is `model` (a `scenario-<name>` puts on a provider behaviour). */
async function hostFor(model, fake = llm) {
  const host = await startHost({ config, llm: fake, model });
  hosts.push(host);
  return host;
}

/** A new profile (so a new chat session) with the host's page open, `viewport` its size. */
async function freshPage(host, viewport) {
  const profile = viewport ? await browser.newContext({ viewport, colorScheme: 'light' }) : await newProfile(browser);
  profiles.push(profile);
  return openPage(profile, host.url);
}

/** Ends a test: the screenshot, and no script error on the page. */
async function finish(page, name) {
  await screenshot(page, name);
  assert.deepEqual(page.errors, [], 'the page threw no errors');
}

const markdownOf = (locator) => locator.locator('.markdown').first().innerText();
const lastChat = () => llm.requests.filter((request) => request.method === 'POST').at(-1);
const isOpen = (locator) => locator.evaluate((node) => node.open);

/**
 * Keeps, in window.seen, every text an element with `testid` showed and the most of them shown at
 * once: things that come and go within a second (a retry's countdown) are then checked afterwards.
 */
function watch(page, testid, selector = '') {
  return page.evaluate(({ testid, selector }) => {
    window.seen = { texts: [], most: 0 };
    const look = () => {
      const nodes = document.querySelectorAll(`[data-testid="${testid}"]${selector}`);
      window.seen.most = Math.max(window.seen.most, nodes.length);
      for (const node of nodes) if (!window.seen.texts.includes(node.textContent)) window.seen.texts.push(node.textContent);
    };
    new MutationObserver(look).observe(document.getElementById('transcript'), { childList: true, subtree: true, characterData: true });
  }, { testid, selector });
}
const seen = (page) => page.evaluate(() => window.seen);

describe('the model\'s reasoning', () => {
  let host;
  before(async () => { host = await hostFor('scenario-reasoning-field'); });

  test('is folded above the answer, kept out of its text, and folded again after a reload', TEST, async () => {
    const page = await freshPage(host);
    await watch(page, 'reasoning', ' > summary');
    await send(page, 'echo the answer itself');
    const answer = await shown(page, 'assistant-message', 'the answer itself');
    await turnOver(page);

    const check = async (when) => {
      assert.equal(await answer.count(), 1, when);
      const fold = answer.getByTestId('reasoning');
      assert.equal(await fold.count(), 1, `${when}: one fold`);
      assert.equal(await isOpen(fold), false, `${when}: folded`);
      assert.equal((await fold.locator('summary').innerText()).trim(), 'Thought', when);
      assert.equal((await markdownOf(answer)).trim(), 'the answer itself', `${when}: the answer's text is the answer alone`);
      assert.equal(await fold.locator('.reasoning-text').isVisible(), false, `${when}: the reasoning is not on screen`);
      await fold.locator('summary').click();
      assert.equal(await isOpen(fold), true, when);
      assert.match(await fold.locator('.reasoning-text').innerText(), /^Let me think about this\. The user asked something; I will answer it\./,
        when);
      assert.equal((await markdownOf(answer)).trim(), 'the answer itself', `${when}: opening it changes the answer not`);
    };
    await check('live');
    // While it streamed, before the answer's text began, it said so.
    assert.deepEqual((await seen(page)).texts, ['Thinking…', 'Thought']);
    await screenshot(page, 'host-reasoning');

    await page.reload();
    await connected(page);
    await shown(page, 'assistant-message', 'the answer itself');
    await check('after a reload');
    await finish(page, 'host-reasoning-reloaded');
  });
});

describe('a provider that keeps failing', () => {
  let host;
  before(async () => { host = await hostFor('fake-model'); });

  test('the retries count down, then one plain error box with the provider\'s words folded, also after a reload', TEST, async () => {
    const page = await freshPage(host);
    await watch(page, 'retrying');
    // The host tries four times, a second apart: four 500s fail the turn.
    llm.failNext([{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }]);
    await send(page, 'echo never answered');
    const box = page.getByTestId('turn-error');
    await box.waitFor({ timeout: 20000 });
    await turnOver(page);

    const retries = await seen(page);
    assert.ok(retries.texts.some((text) => /Retrying in \d+ s \(attempt 2 of 4\)/.test(text)), JSON.stringify(retries.texts));
    assert.ok(retries.texts.some((text) => /\(attempt 4 of 4\)/.test(text)), JSON.stringify(retries.texts));
    assert.equal(retries.most, 1, 'one retry notice at a time, not a pile');
    assert.equal(await page.getByTestId('retrying').count(), 0, 'the notice goes when the turn ends');

    const check = async (when) => {
      assert.equal(await box.count(), 1, `${when}: exactly one error box`);
      assert.equal(await box.getAttribute('role'), 'alert');
      const said = await box.innerText();
      assert.match(said, /failed \(HTTP 500\)/, when);
      assert.doesNotMatch(said, /[{]|127\.0\.0\.1/, `${when}: plain words, no JSON or address`);
      assert.equal(said.match(/failed \(HTTP 500\)/g).length, 1, `${when}: said once`);
      const details = box.getByTestId('turn-error-details');
      assert.equal(await isOpen(details), false, `${when}: the details are folded`);
      await details.locator('summary').click();
      assert.match(await details.innerText(), /openai answered 500/, when);
      // Nothing was written: no empty answer bubble beside the box.
      assert.equal(await page.getByTestId('assistant-message').count(), 0, when);
    };
    await check('live');
    await screenshot(page, 'host-failed');

    await page.reload();
    await connected(page);
    await page.getByTestId('user-message').filter({ hasText: 'echo never answered' }).waitFor();
    await box.first().waitFor();
    await check('after a reload');

    // The chat goes on.
    await send(page, 'echo answered now');
    await shown(page, 'assistant-message', 'answered now');
    await turnOver(page);
    assert.equal(await box.count(), 1);
    await finish(page, 'host-failed-reloaded');
  });
});

describe('an answer cut by the output limit', () => {
  let host;
  before(async () => { host = await hostFor('scenario-length'); });

  test('keeps the text that came and says why it ended', TEST, async () => {
    const page = await freshPage(host);
    await send(page, 'echo one two three four');
    const answer = await shown(page, 'assistant-message', 'one two');
    await turnOver(page);
    const check = async (when) => {
      assert.equal((await markdownOf(answer)).trim(), 'one two', when);
      const notice = page.getByTestId('turn-notice');
      assert.equal(await notice.count(), 1, when);
      assert.match(await notice.innerText(), /output limit reached/, when);
      assert.equal(await page.getByTestId('turn-error').count(), 0, `${when}: not a failure`);
    };
    await check('live');
    await page.reload();
    await connected(page);
    await shown(page, 'assistant-message', 'one two');
    await check('after a reload');
    await finish(page, 'host-output-limit');
  });
});

describe('the model picker', () => {
  let host;
  before(async () => { host = await hostFor('fake-model'); });

  const pickerOf = (page) => page.getByTestId('model-picker');
  const listed = (page, state = 'listed') => page.waitForFunction((value) =>
    document.querySelector('[data-testid="model-picker"]')?.dataset.list === value, state, { timeout: 20000 });
  const optionsOf = (page) => pickerOf(page).locator('option').evaluateAll((options) => options.map((option) => option.value));
  const showing = (page, model) => page.waitForFunction((value) =>
    document.querySelector('[data-testid="model-picker"]')?.value === value, model, { timeout: 20000 });

  test('lists the provider\'s models; a choice is the next request\'s model, and the other tab follows', TEST, async () => {
    const profile = await newProfile(browser);
    profiles.push(profile);
    const first = await openPage(profile, host.url);
    const second = await openPage(profile, host.url);
    for (const page of [first, second]) {
      await listed(page);
      assert.deepEqual(await optionsOf(page), MODELS);
      assert.equal(await pickerOf(page).inputValue(), 'fake-model');
      assert.equal(await pickerOf(page).getAttribute('aria-label'), 'Model');
    }

    await send(first, 'echo by the default');
    await shown(first, 'assistant-message', 'by the default');
    await turnOver(first);
    assert.equal(lastChat().body.model, 'fake-model');

    await pickerOf(first).selectOption('gpt-standard');
    await showing(second, 'gpt-standard');
    await send(first, 'echo by the chosen one');
    const answer = await shown(first, 'assistant-message', 'by the chosen one');
    await turnOver(first);
    assert.equal(lastChat().body.model, 'gpt-standard');
    assert.equal(await answer.getByTestId('answer-model').innerText(), 'gpt-standard', 'the answer names the model that wrote it');
    await shown(second, 'assistant-message', 'by the chosen one');
    await screenshot(first, 'host-model-picker');

    // The choice is the conversation's: a reload keeps it; picking the default again goes back to it.
    await second.reload();
    await connected(second);
    await listed(second);
    assert.equal(await pickerOf(second).inputValue(), 'gpt-standard');
    await pickerOf(second).selectOption('fake-model');
    await showing(first, 'fake-model');
    await send(first, 'echo by the default again');
    await shown(first, 'assistant-message', 'by the default again');
    await turnOver(first);
    assert.equal(lastChat().body.model, 'fake-model');
    await finish(second, 'host-model-picker-second');
    assert.deepEqual(first.errors, []);
  });

  test('on a phone-width screen the header keeps to one line', TEST, async () => {
    const page = await freshPage(host, { width: 360, height: 740 });
    await listed(page);
    const header = await page.locator('header.topbar').evaluate((bar) => {
      // What shows: a phone's header hides the title but for screen readers (a 1 px box).
      const boxes = [...bar.children].filter((child) => child.offsetParent !== null && child.offsetWidth > 1)
        .map((child) => child.getBoundingClientRect());
      const middles = boxes.map((box) => box.top + box.height / 2);
      return {
        overflow: bar.scrollWidth - bar.clientWidth,
        spread: Math.max(...middles) - Math.min(...middles),
        right: Math.max(...boxes.map((box) => box.right)),
        picker: bar.querySelector('[data-testid="model-picker"]').getBoundingClientRect().width,
      };
    });
    assert.ok(header.overflow <= 0, `the header spills by ${header.overflow}px`);
    assert.ok(header.right <= 360, `something ends at ${header.right}px`);
    assert.ok(header.spread <= 2, `one line: the middles of its parts differ by ${header.spread}px`);
    assert.ok(header.picker >= 48, `the picker is wide enough to read and click (${header.picker}px)`);
    await finish(page, 'host-model-picker-phone');
  });

  describe('when the provider has no list', () => {
    let bare;
    let local;
    before(async () => {
      bare = await startFakeLlm({ models: false });
      local = await hostFor('local-model', bare);
    });
    after(async () => { await bare?.close(); });

    test('shows the configured model, says why in its tooltip, and the chat works', TEST, async () => {
      const page = await freshPage(local);
      await listed(page, 'unavailable');
      assert.deepEqual(await optionsOf(page), ['local-model']);
      assert.equal(await pickerOf(page).inputValue(), 'local-model');
      assert.ok(await pickerOf(page).isEnabled());
      assert.ok((await pickerOf(page).getAttribute('title')).length > 0, 'the reason is in the tooltip');
      await send(page, 'echo still chatting');
      await shown(page, 'assistant-message', 'still chatting');
      await turnOver(page);
      assert.equal(bare.requests.filter((request) => request.method === 'POST').at(-1).body.model, 'local-model');
      await finish(page, 'host-model-picker-unlisted');
    });
  });
});

describe('small things people notice', () => {
  let host;
  before(async () => { host = await hostFor('fake-model'); });

  test('Esc stops an answer being written; what it wrote so far stays, marked stopped', TEST, async () => {
    const page = await freshPage(host);
    // 40 pieces, 250 ms apart: ten seconds unless stopped.
    await send(page, 'slow 40 250');
    const answer = await shown(page, 'assistant-message', 'chunk 2');
    await page.keyboard.press('Escape');
    await page.getByTestId('turn-stopped').waitFor({ timeout: 5000 });
    await turnOver(page, 5000);
    const kept = await markdownOf(answer);
    assert.match(kept, /^chunk 1 chunk 2/);
    assert.doesNotMatch(kept, /chunk 40/, 'stopped well before the end');
    await finish(page, 'host-esc-stopped');
  });

  test('a tool no server lists is named "server › tool", not by its internal qualified name', TEST, async () => {
    const page = await freshPage(host);
    await send(page, 'call files__write_file {"path":"notes.txt"}');
    const card = page.getByTestId('tool-card');
    await card.waitFor();
    await turnOver(page);
    assert.equal((await card.locator('.tool-name').innerText()).trim(), 'write_file');
    assert.equal((await card.locator('.tool-server').innerText()).trim(), 'files');
    assert.match(await card.locator('header').innerText(), /files\s*›\s*write_file/);
    assert.equal(await card.getAttribute('aria-label'), 'Tool call files › write_file');
    assert.doesNotMatch(await card.locator('header').innerText(), /files__write_file/);
    await finish(page, 'host-unknown-tool-named');
  });
});
