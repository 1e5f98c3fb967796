// devconsole end to end: real Chromium (Debian's, new headless mode) with the mcpkit extension
// (extensions/chrome/dist) loaded, against the real daemon, on a test site served here. Each
// capture kind and each command, from the official TS SDK client and from `mcpkit client`; then
// cancellation, a daemon restart under a running extension, and the extension killed mid-command.
// Screenshots are saved in $ARTIFACTS.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { eventually, mcpkit, repo, runProcess, sleep } from './support.mjs';
import { launchBrowser, startSite } from './devconsole-browser.mjs';
import { call, connectClient, DEVCONSOLE_TOKEN, startDevConsole } from './devconsole-support.mjs';

const artifacts = process.env.ARTIFACTS ?? path.join(repo, 'build/artifacts');

describe('devconsole in real Chromium with the mcpkit extension', () => {
  let daemon;
  let site;
  let siteBase;
  let browser;
  let page;
  let tabId;
  let client;
  before(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    daemon = await startDevConsole(['--extension-timeout-ms', '2500', '--long-poll-ms', '1200']);
    site = await startSite();
    siteBase = `http://127.0.0.1:${site.address().port}`;
    browser = await launchBrowser(daemon.base);
    page = await browser.context.newPage();
    await page.goto(`${siteBase}/blank.html`);
    tabId = await browser.worker.evaluate(async (url) => (await chrome.tabs.query({ url })).at(0)?.id, `${siteBase}/blank.html`);
    await browser.worker.evaluate((id) => globalThis.devconsole.trackTab(id), tabId);
    client = await connectClient(daemon.base);
    assert.ok(await eventually(async () => {
      const health = await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json();
      return health.capture.extension_connected && health.capture.tracked_tab_id === tabId;
    }, 15000), 'the extension connects and reports the tracked tab');
    await page.goto(`${siteBase}/app.html`);
  });
  after(async () => {
    await client?.close();
    await browser?.context.close().catch(() => {});
    site?.close();
    await daemon?.stop();
  });

  test('console entries of every level, from page load on, with arguments serialized safely', async () => {
    let logs;
    assert.ok(await eventually(async () => {
      logs = await call(client, 'observe', { what: 'logs', limit: 100 });
      return logs.entries.some((entry) => entry.message?.startsWith('app: cycle'));
    }, 15000), JSON.stringify(logs));
    const levels = new Set(logs.entries.filter((entry) => entry.type === 'console').map((entry) => entry.level));
    for (const level of ['debug', 'log', 'info', 'warn', 'error']) assert.ok(levels.has(level), `level ${level}`);
    const loading = logs.entries.find((entry) => entry.message?.startsWith('app: loading'));
    assert.ok(loading, 'a log made while the page loads is kept');
    assert.equal(loading.tabId, tabId);
    const cycle = JSON.stringify(logs.entries.find((entry) => entry.message?.startsWith('app: cycle')).args);
    assert.match(cycle, /Circular/);
    assert.match(cycle, /button#btn/);
  });

  test('uncaught errors and unhandled rejections are errors with stacks', async () => {
    let errors;
    assert.ok(await eventually(async () => {
      errors = await call(client, 'observe', { what: 'errors' });
      return errors.entries.some((e) => /uncaught boom/.test(e.message)) && errors.entries.some((e) => /unhandled rejection/.test(e.message));
    }, 10000), JSON.stringify(errors?.entries));
    const boom = errors.entries.find((entry) => /uncaught boom/.test(entry.message));
    assert.equal(boom.type, 'exception');
    assert.match(boom.stack ?? '', /app\.html/);
  });

  test('fetch and XHR bodies with status and timing; failures in the logs', async () => {
    let bodies;
    assert.ok(await eventually(async () => {
      bodies = await call(client, 'observe', { what: 'network_bodies' });
      return bodies.count >= 3;
    }, 10000), JSON.stringify(bodies));
    const data = bodies.entries.find((entry) => entry.url.endsWith('/data.json'));
    assert.equal(data.status, 200);
    assert.equal(typeof data.duration, 'number');
    const extracted = await call(client, 'observe', { what: 'network_bodies', url: 'data.json', body_path: 'data.items[0].id' });
    assert.equal(extracted.entries.at(-1).extracted, 7);
    const xhr = bodies.entries.find((entry) => entry.url.endsWith('/echo'));
    assert.equal(xhr.method, 'POST');
    assert.match(xhr.response_body, /"sent":true/);
    const failed = await call(client, 'observe', { what: 'logs', min_level: 'error' });
    assert.ok(failed.entries.some((entry) => entry.type === 'network' && entry.status === 404));
  });

  test('WebSocket frames both ways', async () => {
    let frames;
    assert.ok(await eventually(async () => {
      frames = await call(client, 'observe', { what: 'websocket_events' });
      return frames.entries.some((e) => e.data === 'echo: ping from page');
    }, 10000), JSON.stringify(frames));
    assert.ok(frames.entries.some((e) => e.direction === 'outgoing' && e.data === 'ping from page'));
    assert.ok(frames.entries.some((e) => e.event === 'open'));
    const status = await call(client, 'observe', { what: 'websocket_status' });
    assert.equal(status.open, 1);
  });

  test('user actions and Web Vitals', async () => {
    await page.click('#btn');
    await page.fill('#name', 'Ada');
    let actions;
    assert.ok(await eventually(async () => {
      actions = await call(client, 'observe', { what: 'actions' });
      return actions.entries.some((a) => a.type === 'click') && actions.entries.some((a) => a.type === 'input' || a.type === 'change');
    }, 10000), JSON.stringify(actions));
    const click = actions.entries.find((a) => a.type === 'click');
    assert.equal(click.selectors.id, 'btn');
    let vitals;
    assert.ok(await eventually(async () => {
      vitals = await call(client, 'observe', { what: 'vitals' });
      return vitals.count > 0;
    }, 15000), JSON.stringify(vitals));
    assert.ok(vitals.pages[0].timing, JSON.stringify(vitals.pages[0]));
  });

  test('commands: execute_js, click, type, get_text, wait_for, list_interactive', async () => {
    const title = await call(client, 'interact', { what: 'execute_js', script: 'document.title' });
    assert.equal(title.status, 'complete', JSON.stringify(title));
    assert.equal(title.result.result, 'devconsole test app');
    const clicked = await call(client, 'interact', { what: 'click', selector: 'text=clicked 1' });
    assert.equal(clicked.status, 'complete', JSON.stringify(clicked));
    assert.equal(await page.evaluate(() => window.clicks), 2);
    const typed = await call(client, 'interact', { what: 'type', selector: 'label=Name', text: 'Grace', clear: true });
    assert.equal(typed.status, 'complete', JSON.stringify(typed));
    assert.equal(await page.inputValue('#name'), 'Grace');
    const text = await call(client, 'interact', { what: 'get_text', selector: '#title' });
    assert.match(JSON.stringify(text.result), /Test app/);
    const waited = await call(client, 'interact', { what: 'wait_for', selector: '#late', timeout_ms: 5000 });
    assert.equal(waited.result.found, true, JSON.stringify(waited));
    const listed = await call(client, 'interact', { what: 'list_interactive' });
    assert.ok(JSON.stringify(listed.result).includes('btn'));
    const missing = await call(client, 'interact', { what: 'click', selector: '#nope' });
    assert.equal(missing.isError, true);
    assert.match(JSON.stringify(missing), /element_not_found/);
  });

  test('looking closer: dom, accessibility, forms, computed styles, page, tabs, storage', async () => {
    const dom = await call(client, 'analyze', { what: 'dom', selector: 'button' });
    assert.equal(dom.status, 'complete', JSON.stringify(dom));
    assert.equal(dom.result.count, 1);
    const a11y = await call(client, 'analyze', { what: 'accessibility' });
    assert.ok(a11y.result.violations.some((v) => /alt/.test(v.rule + v.message)), JSON.stringify(a11y.result.violations));
    const forms = await call(client, 'analyze', { what: 'forms' });
    const password = forms.result.forms[0].fields.find((field) => field.type === 'password');
    assert.equal(password.value, '[redacted]', 'password values never leave the page');
    const styles = await call(client, 'analyze', { what: 'computed_styles', selector: '#btn' });
    assert.equal(styles.status, 'complete', JSON.stringify(styles));
    const info = await call(client, 'observe', { what: 'page' });
    assert.equal(info.result.title, 'devconsole test app');
    const tabs = await call(client, 'observe', { what: 'tabs' });
    assert.ok(JSON.stringify(tabs.result).includes(String(tabId)));
    const waterfall = await call(client, 'observe', { what: 'network_waterfall' });
    assert.match(JSON.stringify(waterfall.result), /data\.json/);
  });

  test('a screenshot is a resource, not inline base64', async () => {
    const shot = await call(client, 'observe', { what: 'screenshot', format: 'png' });
    assert.equal(shot.status, 'complete', JSON.stringify(shot).slice(0, 500));
    assert.ok(!JSON.stringify(shot).includes('base64,'), 'no image inline');
    const link = shot.content.find((item) => item.type === 'resource_link');
    const read = await client.readResource({ uri: link.uri });
    const image = Buffer.from(read.contents[0].blob, 'base64');
    assert.equal(image.subarray(1, 4).toString(), 'PNG');
    fs.writeFileSync(path.join(artifacts, 'devconsole-app.png'), image);
  });

  test('mcpkit client drives the same daemon', async () => {
    const result = await runProcess(mcpkit, ['client', '--no-oauth', '--url', `${daemon.base}/mcp`,
      '--header', `Authorization: Bearer ${DEVCONSOLE_TOKEN}`, 'call', 'interact',
      JSON.stringify({ what: 'execute_js', script: 'document.querySelector("#btn").textContent' })]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).structuredContent.result.result, 'clicked 2');
  });

  test('navigate, then a strict-CSP page: execute_js refused with the reason, DOM actions still work', async () => {
    const moved = await call(client, 'interact', { what: 'navigate', url: `${siteBase}/second.html` });
    assert.equal(moved.status, 'complete', JSON.stringify(moved));
    // The extension waited for the new page to load; Playwright hears of it over a connection of
    // its own, which may come a moment later (CI under ASan saw it still on the old URL).
    assert.equal(moved.result.url, `${siteBase}/second.html`, JSON.stringify(moved));
    await page.waitForURL(`${siteBase}/second.html`, { timeout: 10000 });
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/strict.html` });
    const refused = await call(client, 'interact', { what: 'execute_js', script: '1 + 1' });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused), /csp_blocked/);
    assert.match(JSON.stringify(refused), /Content-Security-Policy/);
    const text = await call(client, 'interact', { what: 'get_text', selector: '#p' });
    assert.match(JSON.stringify(text.result), /no eval here/);
    const shot = await call(client, 'interact', { what: 'screenshot' });
    const link = shot.content.find((item) => item.type === 'resource_link');
    const read = await client.readResource({ uri: link.uri });
    fs.writeFileSync(path.join(artifacts, 'devconsole-strict.jpg'), Buffer.from(read.contents[0].blob, 'base64'));
  });

  test('cancelling a call cancels the command in the page', async () => {
    await call(client, 'interact', { what: 'navigate', url: `${siteBase}/app.html` });
    const controller = new AbortController();
    const running = call(client, 'interact', { what: 'wait_for', selector: '#never', timeout_ms: 20000 }, { signal: controller.signal });
    await sleep(800);
    controller.abort();
    await assert.rejects(running);
    let failed;
    assert.ok(await eventually(async () => {
      failed = await call(client, 'observe', { what: 'failed_commands' });
      return failed.entries.some((entry) => entry.status === 'cancelled' && entry.type === 'dom_action');
    }), JSON.stringify(failed));
  });

  test('the daemon restarted under a running extension: it reconnects by itself', async () => {
    const port = daemon.port;
    await client.close();
    await daemon.stop();
    daemon = await startDevConsole(['--extension-timeout-ms', '2500', '--long-poll-ms', '1200'], { port });
    client = await connectClient(daemon.base);
    assert.ok(await eventually(async () => (await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json()).capture.extension_connected, 15000),
      'the extension came back to the new daemon on the same port');
    const again = await call(client, 'interact', { what: 'execute_js', script: 'document.title' });
    assert.equal(again.status, 'complete', JSON.stringify(again));
  });

  test('the extension killed mid-command: the command expires as extension_disconnected', async () => {
    const waiting = call(client, 'interact', { what: 'execute_js', script: 'new Promise((resolve) => setTimeout(resolve, 4000))' });
    await sleep(500);
    // The whole browser dies at once (SIGKILL), so the extension can say nothing more.
    const { execFileSync } = await import('node:child_process');
    const pids = execFileSync('pgrep', ['-P', String(process.pid), 'chromium']).toString().trim().split('\n');
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    const answer = await waiting;
    assert.equal(answer.status, 'expired', JSON.stringify(answer));
    assert.equal(answer.error, 'extension_disconnected');
  });
});
