// End to end: the official TS SDK client calls `mcpkit review`, which finds `mcpkit review-panel`
// through its discovery file; headless Chromium shows the rendered review, follows live updates,
// and a click on a reference runs the editor command with that file and line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { eventually, mcpkit, repo } from './support.mjs';
import { startCppPanel, temporaryDirectory } from './review-support.mjs';

const artifacts = process.env.ARTIFACTS ?? path.join(repo, 'build/artifacts');
let directory, panel, client, browser, page, record;

before(async () => {
  directory = temporaryDirectory('review-e2e-');
  fs.mkdirSync(path.join(directory, 'src'));
  fs.writeFileSync(path.join(directory, 'src/server.cpp'),
    '#include <string>\n\nint handle_request(const std::string& body) {\n  return body.size();\n}\n');
  record = path.join(directory, 'opened.txt');
  const discovery = path.join(directory, 'review-panel.json');
  panel = await startCppPanel(path.join(directory, 'review.sock'), {
    discovery,
    editor: `sh -c 'printf "%s:%s\\n" "$1" "$2" >> ${record}' editor {path} {line}`,
  });
  const env = { ...process.env, MCPKIT_REVIEW_DISCOVERY: discovery };
  delete env.DIALECTIC_IPC_PATH;
  client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: mcpkit, args: ['review'], env, cwd: directory, stderr: 'pipe' }));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(panel.url).origin });
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  await client?.close();
  await panel?.stop();
  fs.rmSync(directory, { recursive: true, force: true });
});

test('a review sent through the TS SDK appears rendered, with links that open the editor', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['present_review', 'present-review']);
  const result = await client.callTool({
    name: 'present_review',
    arguments: {
      content: '## Summary\nThe handler is fine.\n\n## Findings\n- `src/server.cpp?int handle_request(` returns a `size_t` as `int` (src/server.cpp:4).\n' +
        '- Lines src/server.cpp:3-5 could be one expression.\n\n## Suggestions\n| what | where |\n|---|---|\n| narrow explicitly | [here](src/server.cpp:4) |\n',
    },
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(result.content[0].text, 'Review successfully displayed in the review panel (mode: replace).');

  await page.goto(panel.url);
  await page.locator('#review').getByRole('heading', { name: 'Findings' }).waitFor();
  assert.equal(await page.locator('#title').textContent(), 'Summary');
  const links = page.locator('article a[href^="/open?"]');
  assert.equal(await links.count(), 4);
  const file = path.join(directory, 'src/server.cpp');
  assert.equal(await links.nth(0).getAttribute('title'), `${file}:3`);  // the search found line 3
  assert.equal(await page.locator('article table').count(), 1);

  await links.nth(1).click();
  await page.getByText('Opened ' + file + ':4').waitFor();
  assert.ok(await eventually(() => fs.existsSync(record) && fs.readFileSync(record, 'utf8') === `${file}:4\n`));
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'review-panel.png'), fullPage: true });
});

test('the page follows update-section and append live, copies, and keeps earlier reviews', async () => {
  await client.callTool({ name: 'present_review', arguments: { content: '- Fixed: src/server.cpp:4 now narrows explicitly', mode: 'update-section', section: 'Findings' } });
  await page.getByText('Fixed:').waitFor();
  assert.equal(await page.getByText('could be one expression').count(), 0);
  await client.callTool({ name: 'present-review', arguments: { content: '## Verdict\nApprove.', mode: 'append' } });
  await page.locator('#review').getByRole('heading', { name: 'Verdict' }).waitFor();

  await page.getByRole('button', { name: 'Copy markdown' }).click();
  await page.getByText('Copied the markdown').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^## Summary\n/);
  assert.match(copied, /- Fixed: src\/server\.cpp:4 now narrows explicitly/);
  assert.match(copied, /## Verdict\nApprove\.$/);

  await client.callTool({ name: 'present_review', arguments: { content: '# Second review\nNothing to add.' } });
  await page.locator('#review').getByRole('heading', { name: 'Second review' }).waitFor();
  const history = page.locator('#history button');
  assert.equal(await history.count(), 2);
  await history.nth(1).click();  // the first review, as it was last shown
  await page.locator('#review').getByRole('heading', { name: 'Verdict' }).waitFor();
  await page.screenshot({ path: path.join(artifacts, 'review-panel-history.png'), fullPage: true });
});

test('the page and its actions refuse requests without the token or from another origin', async () => {
  const url = new URL(panel.url);
  const bare = await fetch(new URL('/', url));
  assert.equal(bare.status, 403);
  const api = await fetch(new URL('/api/review?token=wrong', url));
  assert.equal(api.status, 403);
  const token = url.searchParams.get('token');
  const open = (headers) => fetch(new URL('/open', url), {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ path: path.join(directory, 'src/server.cpp'), line: 1 }),
  });
  assert.equal((await open({ 'X-Review-Token': token, Origin: 'http://evil.example' })).status, 403);
  assert.equal((await open({ Origin: url.origin })).status, 403);
  assert.equal((await open({ 'X-Review-Token': token, Origin: url.origin })).status, 200);
  // DNS rebinding: a page on another name that resolves here sends its own Host.
  const rebound = await new Promise((resolve, reject) => {
    http.get({ host: url.hostname, port: url.port, path: '/api/review?token=' + token, headers: { Host: 'evil.example:' + url.port } },
      (response) => { response.resume(); resolve(response.statusCode); }).on('error', reject);
  });
  assert.equal(rebound, 403);
});
