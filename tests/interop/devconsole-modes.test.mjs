// devconsole: the modes beyond plain capture and commands, in real Chromium with the mcpkit
// extension against the real daemon: storage writes and saved page states, element handles from
// list_interactive, overlays and subtitles, IndexedDB, link checks, noise rules, saved sequences,
// session diffs, the audit log, SARIF and the HAR of what was captured.
import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, startSite } from './devconsole-browser.mjs';
import { call, connectClient, post, startDevConsole } from './devconsole-support.mjs';
import { eventually } from './support.mjs';

describe('devconsole modes in real Chromium', () => {
  let daemon;
  let site;
  let siteBase;
  let browser;
  let page;
  let client;
  before(async () => {
    daemon = await startDevConsole();
    site = await startSite();
    siteBase = `http://127.0.0.1:${site.address().port}`;
    // public.test stands for a site on the internet (the browser alone resolves it, to the test site).
    browser = await launchBrowser(daemon.base, ['--host-resolver-rules=MAP public.test 127.0.0.1']);
    page = await browser.context.newPage();
    await page.goto(`${siteBase}/second.html`);
    const tabId = await browser.worker.evaluate(async (url) => (await chrome.tabs.query({ url })).at(0)?.id, `${siteBase}/second.html`);
    await browser.worker.evaluate((id) => globalThis.devconsole.trackTab(id), tabId);
    client = await connectClient(daemon.base);
    assert.ok(await eventually(async () => (await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json()).capture.tracked_tab_id === tabId, 15000));
  });
  after(async () => {
    await client?.close();
    await browser?.context.close().catch(() => {});
    site?.close();
    await daemon?.stop();
  });

  test('storage writes, then a saved page state restored after the page changed it', async () => {
    for (const step of [
      { what: 'set_storage', key: 'theme', value: 'dark' },
      { what: 'set_storage', storage_type: 'sessionStorage', key: 'draft', value: 'hello' },
      { what: 'set_cookie', name: 'seen', value: 'yes' },
    ]) {
      const done = await call(client, 'interact', step);
      assert.equal(done.status, 'complete', JSON.stringify(done));
    }
    const read = await call(client, 'observe', { what: 'storage' });
    assert.equal(read.result.local_storage.items.theme, 'dark');
    assert.equal(read.result.session_storage.items.draft, 'hello');
    assert.equal(read.result.cookies.seen, 'yes');
    const missing = await call(client, 'interact', { what: 'set_storage', value: 'x' });
    assert.equal(missing.isError, true);
    assert.match(JSON.stringify(missing), /missing_key/);

    const saved = await call(client, 'interact', { what: 'save_state', snapshot_name: 'before' });
    assert.equal(saved.status, 'ok', JSON.stringify(saved));
    await page.evaluate(() => { localStorage.setItem('theme', 'light'); localStorage.setItem('extra', '1'); sessionStorage.clear(); });
    const restored = await call(client, 'interact', { what: 'state_load', snapshot_name: 'before' });
    assert.equal(restored.isError, false, JSON.stringify(restored));
    assert.deepEqual(await page.evaluate(() => [localStorage.getItem('theme'), localStorage.getItem('extra'), sessionStorage.getItem('draft')]),
      ['dark', null, 'hello']);
    const states = await call(client, 'interact', { what: 'list_states' });
    assert.deepEqual(states.states.map((state) => state.name), ['before']);
  });

  test('element handles from list_interactive, then a click by element_id', async () => {
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/app.html` });
    const listed = await call(client, 'interact', { what: 'list_interactive' });
    const button = JSON.stringify(listed.result).match(/"element_id":"([^"]+)"[^}]*Click me|Click me[^}]*"element_id":"([^"]+)"/);
    assert.ok(button, JSON.stringify(listed.result).slice(0, 800));
    const clicked = await call(client, 'interact', { what: 'click', element_id: button[1] ?? button[2] });
    assert.equal(clicked.status, 'complete', JSON.stringify(clicked));
    assert.equal(await page.evaluate(() => window.clicks), 1);
  });

  test('a subtitle, and a modal dismissed', async () => {
    const shown = await call(client, 'interact', { what: 'subtitle', text: 'Checking the signup form' });
    assert.equal(shown.status, 'complete', JSON.stringify(shown));
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/modal.html` });
    assert.equal(await page.locator('#modal').count(), 1);
    const dismissed = await call(client, 'interact', { what: 'dismiss_top_overlay' });
    assert.equal(dismissed.status, 'complete', JSON.stringify(dismissed));
    assert.equal(await page.locator('#modal').count(), 0);
  });

  test('IndexedDB: databases, stores and records', async () => {
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/second.html` });
    await page.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('shop', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('carts', { keyPath: 'id' });
      open.onsuccess = () => {
        const transaction = open.result.transaction('carts', 'readwrite');
        transaction.objectStore('carts').put({ id: 1, items: ['apple'] });
        transaction.oncomplete = () => { open.result.close(); resolve(); };
      };
    }));
    const databases = await call(client, 'observe', { what: 'indexeddb' });
    assert.ok(databases.result.result.databases.some((db) => db.name === 'shop'), JSON.stringify(databases.result));
    const records = await call(client, 'observe', { what: 'indexeddb', database: 'shop', store: 'carts' });
    assert.deepEqual(records.result.result.records, [{ id: 1, items: ['apple'] }]);
    const absent = await call(client, 'observe', { what: 'indexeddb', database: 'nope' });
    assert.equal(absent.isError, true);
  });

  test('link_health finds the broken link of the page; link_validation checks given URLs', async () => {
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/links.html` });
    const health = await call(client, 'analyze', { what: 'link_health' });
    assert.equal(health.count, 2, JSON.stringify(health));
    assert.equal(health.broken, 1);
    assert.equal(health.links.find((link) => link.url.endsWith('/missing.json')).status, 404);
    const given = await call(client, 'analyze', { what: 'link_validation', urls: [`${siteBase}/data.json`, 'http://127.0.0.1:1/'] });
    assert.deepEqual(given.links.map((link) => link.ok), [true, false]);
  });

  test('link_health of a page on the internet reaches no internal address, however a link names it', async () => {
    const port = site.address().port;
    // The machine's own name: not "localhost", not an address, and yet it resolves to loopback.
    const name = os.hostname();
    const { address } = await dns.lookup(name);
    assert.match(address, /^127\.|^::1$/, `this test needs ${name} to resolve to loopback, as /etc/hosts has it`);
    const links = [`http://${name}:${port}/data.json`, `http://127.0.0.1:${port}/data.json`];
    await call(client, 'interact', { what: 'navigate',
      url: `http://public.test:${port}/outward.html?${links.map((link) => `to=${encodeURIComponent(link)}`).join('&')}` });
    const health = await call(client, 'analyze', { what: 'link_health' });
    assert.equal(health.skipped, 1, JSON.stringify(health));  // the address literal, by its text
    assert.equal(health.count, 1, JSON.stringify(health));
    assert.equal(health.links[0].ok, false);
    assert.match(health.links[0].error, /not allowed/);
  });

  test('noise rules hide matching entries from reads and say how many', async () => {
    const entries = [];
    for (let i = 0; i < 12; i++) entries.push({ level: 'log', message: `[analytics] ping ${i}`, tabId: 0 });
    entries.push({ level: 'warn', message: 'real problem', tabId: 0 });
    await post(daemon.base, '/logs', { entries });
    const added = await call(client, 'configure', { what: 'noise_rule', noise_action: 'add', message_regex: '^\\[analytics\\]', reason: 'third party' });
    assert.equal(added.count, 1, JSON.stringify(added));
    const logs = await call(client, 'observe', { what: 'logs', scope: 'all', limit: 1000 });
    assert.ok(!logs.entries.some((entry) => entry.message.startsWith('[analytics]')));
    assert.equal(logs.metadata.noise_filtered, 12);
    const bad = await call(client, 'configure', { what: 'noise_rule', noise_action: 'add', message_regex: '(' });
    assert.match(bad.message, /not a valid regular expression/);
    await call(client, 'configure', { what: 'noise_rule', noise_action: 'reset' });
    await post(daemon.base, '/logs', { entries: Array.from({ length: 10 }, (_, i) => ({ level: 'info', message: `heartbeat ${i} ok`, tabId: 0 })) });
    const detected = await call(client, 'configure', { what: 'noise_rule', noise_action: 'auto_detect' });
    assert.ok(detected.rules.some((rule) => rule.message_regex.startsWith('^heartbeat')), JSON.stringify(detected.rules));
  });

  test('a saved sequence replays through interact, step by step', async () => {
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/app.html` });
    const saved = await call(client, 'configure', {
      what: 'save_sequence', name: 'signup',
      steps: [{ what: 'type', selector: '#name', text: 'Ada', clear: true }, { what: 'click', selector: '#btn' }, { what: 'click', selector: '#gone' }],
    });
    assert.equal(saved.steps, 3);
    const replayed = await call(client, 'configure', { what: 'replay_sequence', name: 'signup' });
    assert.deepEqual(replayed.steps.map((step) => step.ok), [true, true, false], JSON.stringify(replayed));
    assert.equal(replayed.isError, true, 'a failed step makes the replay an error');
    assert.equal(await page.inputValue('#name'), 'Ada');
    const stopped = await call(client, 'configure', { what: 'replay_sequence', name: 'signup', stop_after_step: 1 });
    assert.equal(stopped.steps.length, 1);
  });

  test('session diffs, the audit log, SARIF and HAR', async () => {
    await call(client, 'configure', { what: 'diff_sessions', verif_session_action: 'capture', name: 'a' });
    await post(daemon.base, '/logs', { entries: [{ level: 'error', message: 'TypeError: x is undefined', tabId: 0 }] });
    await call(client, 'configure', { what: 'diff_sessions', verif_session_action: 'capture', name: 'b' });
    const diff = await call(client, 'configure', { what: 'diff_sessions', verif_session_action: 'compare', compare_a: 'a', compare_b: 'b' });
    assert.deepEqual(diff.diff.new_errors, ['TypeError: x is undefined']);
    assert.equal(diff.verdict, 'regressed');
    const audit = await call(client, 'configure', { what: 'audit_log', tool_name: 'interact' });
    assert.ok(audit.entries.some((entry) => entry.what === 'navigate' && entry.status === 'complete'), JSON.stringify(audit.entries.slice(-3)));
    const sarif = await call(client, 'generate', { what: 'sarif' });
    assert.equal(sarif.isError, false, JSON.stringify(sarif));
    const report = JSON.parse((await client.readResource({ uri: sarif.uri })).contents[0].text);
    assert.equal(report.version, '2.1.0');
    assert.ok(report.runs[0].results.length > 0, 'the app page has accessibility findings');
  });
});
