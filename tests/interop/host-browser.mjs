// The browser side of the host tests: Debian's Chromium (headless) on the real page of
// `mcpkit host`, the steps a user takes there, a TCP proxy that can be switched from one host
// instance to another.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { after, afterEach } from 'node:test';

import { chromium } from 'playwright-core';

import { startFakeLlm } from './fake-llm.mjs';
import { freePort } from './support.mjs';
import { HOST_TOKEN, startHost, workFolder } from './host-support.mjs';

/** Where screenshots go: $ARTIFACTS, or a fresh temporary folder. */
export const artifacts = process.env.ARTIFACTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-host-shots-'));
fs.mkdirSync(artifacts, { recursive: true });

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync'],
  });
}

/** A fresh browser profile (its own localStorage, so its own chat session), wide and light. */
export function newProfile(browser) {
  return browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
}

/**
 * Opens the host's page at `url` in `context` and waits until it is connected and, for each name
 * in `servers`, that server shows as ready. The page's script errors are kept in `page.errors`.
 */
export async function openPage(context, url, { servers = [] } = {}) {
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(String(error)));
  // The host's page needs its token, as the address the host prints carries it.
  const address = new URL(url);
  if (!address.searchParams.has('token')) address.searchParams.set('token', HOST_TOKEN);
  await page.goto(address.href);
  await connected(page, servers);
  return page;
}

/** Waits until the connection banner is gone and the named servers are ready in the panel. */
export async function connected(page, servers = []) {
  await page.getByTestId('connection-banner').waitFor({ state: 'hidden', timeout: 20000 });
  for (const name of servers) {
    await page.locator(`[data-testid="server"][data-name="${name}"][data-state="ready"]`).waitFor({ timeout: 20000 });
  }
}

/** Types `text` into the message box and presses Send. */
export async function send(page, text) {
  await page.getByTestId('message-input').fill(text);
  await page.getByTestId('send').click();
}

/** Waits until no answer is running (the Stop button is gone and the box takes messages again). */
export async function turnOver(page, timeout = 20000) {
  await page.waitForFunction(() => !document.body.classList.contains('turn-running'), null, { timeout });
  await page.getByTestId('stop').waitFor({ state: 'hidden', timeout });
}

/** The assistant message (or other element) with `testid` that contains `text`, once it shows. */
export async function shown(page, testid, text, timeout = 20000) {
  const locator = page.getByTestId(testid).filter({ hasText: text });
  await locator.first().waitFor({ timeout });
  return locator;
}

/** The texts of every element with `testid`, in order. */
export const texts = (page, testid) => page.getByTestId(testid).allInnerTexts();

/** Saves a screenshot of the page as `name`.png in the artifacts folder; returns its path. */
export async function screenshot(page, name) {
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * A TCP proxy on 127.0.0.1 forwarding every connection to `target` (a port). `switchTo(port)`
 * sends new connections elsewhere and drops the open ones, as a load balancer failing over would.
 */
export async function startProxy(target) {
  const open = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    const pair = [client, upstream];
    const drop = () => { for (const socket of pair) { socket.destroy(); open.delete(socket); } };
    for (const socket of pair) {
      open.add(socket);
      socket.on('error', drop);
      socket.on('close', drop);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await freePort();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    switchTo(next) {
      target = next;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What most host tests set up and take down alike, taken down with node:test's afterEach and
 * after: a work folder, the fake LLM (`fake`: startFakeLlm's options; started with the first
 * host, then `bed.llm`), the hosts a test starts (`host(options)`: startHost with the fake), and
 * Chromium, launched on first use, with a profile per `profile(viewport?)` closed after each test.
 */
export function hostTestBed({ fake = {} } = {}) {
  let starting = null;
  const bed = {
    work: workFolder(), llm: null, browser: null, hosts: [], profiles: [],
    async host(options = {}) {
      starting ??= startFakeLlm(fake).then((llm) => { bed.llm = llm; });
      await starting;
      const host = await startHost({ llm: bed.llm, ...options });
      bed.hosts.push(host);
      return host;
    },
    async profile(viewport) {
      bed.browser ??= await launchChromium();
      const context = viewport ? await bed.browser.newContext({ viewport, colorScheme: 'light' }) : await newProfile(bed.browser);
      bed.profiles.push(context);
      return context;
    },
  };
  afterEach(async () => { for (const profile of bed.profiles.splice(0)) await profile.close(); });
  after(async () => {
    await bed.browser?.close();
    for (const host of bed.hosts) await host.stop();
    await bed.llm?.close();
    bed.work.remove();
  });
  return bed;
}
