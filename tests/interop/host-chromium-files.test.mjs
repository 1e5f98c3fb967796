// Pictures and files, end to end: the user attaches a picture and a text file in Chromium (the
// file picker, as a paste or a drop would), sees them in their message, and the model receives
// the picture as a picture and the text after the message; a tool's image result shows in its
// card and reaches the model after the tool results; a model that takes no pictures gets a line
// naming each instead; files over the stated limits are refused, in the page and by the host.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { hostTestBed, openPage, screenshot, send, turnOver } from './host-browser.mjs';
import { connectPage, everythingServer, writeConfig } from './host-support.mjs';

const TEST = { timeout: 60000 };
const bed = hostTestBed();
let config;

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

before(() => {
  config = writeConfig(bed.work.folder, { mcpServers: { everything: everythingServer({ approval: 'auto' }) } });
});

const lastChat = () => bed.llm.requests.filter((request) => request.method === 'POST').at(-1).body;

describe('pictures and files', () => {
  test('an attached picture reaches the model as a picture, a text file as text', TEST, async () => {
    const host = await bed.host({ config, env: { MCPKIT_MODEL_IMAGES: '1' } });
    const page = await openPage(await bed.profile(), host.url, { servers: ['everything'] });
    await page.getByTestId('file-picker').setInputFiles([
      { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('buy milk\nwalk the dog\n') },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-chip"]').length === 2);
    bed.llm.reset();
    await send(page, 'What do you see?');
    await turnOver(page);
    const user = lastChat().messages.filter((message) => message.role === 'user').at(-1);
    assert.ok(Array.isArray(user.content), 'content parts');
    assert.match(user.content[0].text, /^What do you see\?\n\nFile notes\.txt:\n```\nbuy milk\nwalk the dog\n```/);
    assert.equal(user.content[1].type, 'image_url');
    assert.equal(user.content[1].image_url.url, `data:image/png;base64,${PNG.toString('base64')}`);
    await page.getByTestId('message-files').locator('img').waitFor();
    await page.reload();
    await page.getByTestId('message-files').locator('img').waitFor();  // kept in the history
    await screenshot(page, 'host-attached-files');
    assert.deepEqual(page.errors, []);
  });

  test("a tool's image shows in its card and reaches the model after the tool results", TEST, async () => {
    const host = await bed.host({ config, env: { MCPKIT_MODEL_IMAGES: '1' } });
    const page = await openPage(await bed.profile(), host.url, { servers: ['everything'] });
    bed.llm.reset();
    await send(page, 'call everything__test_image_content {}');
    await turnOver(page);
    const card = page.getByTestId('tool-card');
    await card.getByTestId('tool-card-toggle').click();
    await card.locator('img.content-image').waitFor();
    const messages = lastChat().messages;
    const tool = messages.findIndex((message) => message.role === 'tool');
    assert.equal(messages[tool + 1].role, 'user', 'right after the run of tool results');
    assert.equal(messages[tool + 1].content[0].text, 'The pictures the tool results above returned:');
    assert.match(messages[tool + 1].content[1].image_url.url, /^data:image\/png;base64,/);
    assert.deepEqual(page.errors, []);
  });

  test('a model that takes no pictures gets a line naming each', TEST, async () => {
    const host = await bed.host({ config, env: { MCPKIT_MODEL_IMAGES: '0' } });
    const page = await connectPage(host.port);
    bed.llm.reset();
    page.send('message', { text: 'Look', files: [{ name: 'dot.png', mimeType: 'image/png', data: PNG.toString('base64') }] });
    await page.next('turn', (p) => p.state === 'finished', 20000);
    const user = lastChat().messages.filter((message) => message.role === 'user').at(-1);
    assert.match(user.content, /^Look\n\[a picture \(dot\.png\), image\/png, 1 KB: not shown, this model takes no pictures\]$/);
    page.close();
  });

  test('files over the limits, or of other kinds, are refused with the limit said', TEST, async () => {
    const host = await bed.host({ config });
    const socket = await connectPage(host.port);
    const big = Buffer.alloc(701 * 1024).toString('base64');
    const cases = [
      [[{ name: 'big.png', mimeType: 'image/png', data: big }], 'message.payload.files[0].data is over 700 KB'],
      [[{ name: 'x.pdf', mimeType: 'application/pdf', data: 'AAAA' }], 'message.payload.files[0].mimeType must be a picture'],
      [[{ name: 'x.png', mimeType: 'image/png', data: 'not base64!' }], 'message.payload.files[0].data must be the picture'],
      [Array.from({ length: 5 }, (_, i) => ({ name: `${i}.txt`, mimeType: 'text/plain', text: 'x' })), 'message.payload.files holds more than 4 files'],
    ];
    for (const [files, message] of cases) {
      const from = socket.frames.length;
      socket.send('message', { text: 'x', files });
      const error = await socket.next('error', () => true, 15000, from);
      assert.ok(error.message.startsWith(message), error.message);
    }
    socket.close();

    const page = await openPage(await bed.profile(), host.url);
    await page.getByTestId('file-picker').setInputFiles([{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(800 * 1024) }]);
    await page.getByTestId('toast').filter({ hasText: 'huge.png is over 700 KB' }).waitFor();
    assert.equal(await page.getByTestId('file-chip').count(), 0);
    assert.deepEqual(page.errors, []);
  });
});
