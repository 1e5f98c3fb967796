// `mcpkit host` end to end, around what the user must never lose: real Chromium (Debian's,
// headless) on the host's real page, the fake LLM answering. An answer being written shows whole
// in a second tab and after a reload, and survives the host being killed mid-answer; New chat
// keeps the old chat in a list that the host pages, searches, renames and deletes (every tab
// following), and exports as Markdown and JSON. The same frames and the export are also checked
// over a bare WebSocket and HTTP, where a wrong field is named. Screenshots go to $ARTIFACTS.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { connected, hostTestBed, openPage, screenshot, send, shown, turnOver } from './host-browser.mjs';
import { chat, connectPage, writeConfig } from './host-support.mjs';

const TEST = { timeout: 120000 };

const bed = hostTestBed();
let config;
before(() => { config = writeConfig(bed.work.folder, { mcpServers: {} }); });
const newHost = (options = {}) => bed.host({ config, ...options });
const profile = (viewport) => bed.profile(viewport);

const answerText = (page) => page.getByTestId('assistant-message').last().locator('.markdown').first().innerText();
const rows = (page) => page.getByTestId('conversation');
const rowTitles = (page) => page.locator('[data-testid="conversation"] .conversation-title').allInnerTexts();

async function openChats(page) {
  if (await page.getByTestId('toggle-chats').getAttribute('aria-expanded') !== 'true') await page.getByTestId('toggle-chats').click();
  await page.getByTestId('conversations').waitFor();
}

describe('the answer being written', () => {
  test('a second tab and a reload show it from its first character', TEST, async () => {
    const host = await newHost();
    const context = await profile();
    const first = await openPage(context, host.url);
    await send(first, 'slow 40 100');
    await shown(first, 'assistant-message', 'chunk 6 ');

    const second = await openPage(context, host.url);  // same profile: the same conversation
    await shown(second, 'assistant-message', 'chunk 8 ');
    assert.match(await answerText(second), /^chunk 1 chunk 2 chunk 3 /, 'the second tab starts at the first word');
    await first.reload();
    await connected(first);
    await shown(first, 'assistant-message', 'chunk 12 ');
    assert.match(await answerText(first), /^chunk 1 chunk 2 /, 'the reloaded tab starts at the first word');
    await turnOver(second, 30000);
    assert.match(await answerText(second), /^chunk 1 chunk 2 [\s\S]*chunk 40$/);
    await turnOver(first, 30000);
    assert.equal(await first.getByTestId('assistant-message').count(), 1, 'one answer, not a second copy');
    assert.deepEqual([...first.errors, ...second.errors], []);
  });

  test('a host killed mid-answer keeps what was shown, marked interrupted', TEST, async () => {
    const store = `sqlite:${path.join(bed.work.folder, 'killed.db')}`;
    const host = await newHost({ store });
    const page = await openPage(await profile(), host.url);
    await send(page, 'slow 200 100');
    await shown(page, 'assistant-message', 'chunk 16 ', 30000);
    host.child.kill('SIGKILL');
    await host.child.exited;

    await newHost({ store, port: host.port });  // the page reconnects to it by itself
    await page.getByTestId('turn-notice').filter({ hasText: 'Interrupted' }).waitFor({ timeout: 30000 });
    const kept = await answerText(page);
    // Kept a second after the answer began, at whichever chunk came first after that (the 10th or
    // the 11th, by a few milliseconds), and the kill came at the 16th, before the next keep.
    assert.match(kept, /^chunk 1 chunk 2 chunk 3 chunk 4 chunk 5 chunk 6 chunk 7 chunk 8 chunk 9\b/,
      'the answer as far as a second after it began');
    assert.equal(await page.getByTestId('user-message').count(), 1);
    await screenshot(page, 'host-interrupted-answer');
    assert.deepEqual(page.errors, []);
  });
});

describe('the list of chats', () => {
  test('New chat keeps the old one; the list opens, searches, renames and deletes', TEST, async () => {
    const host = await newHost();
    const context = await profile();
    const page = await openPage(context, host.url);
    await send(page, 'echo Planning the bananas harvest');
    await turnOver(page);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('user-message').waitFor({ state: 'detached' });
    await send(page, 'echo Apples and pears');
    await turnOver(page);

    await openChats(page);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 2);
    assert.deepEqual(await rowTitles(page), ['echo Apples and pears', 'echo Planning the bananas harvest']);
    assert.equal(await page.locator('[data-testid="conversation"].current .conversation-title').innerText(), 'echo Apples and pears');

    // The older chat opens with its history, on the same connection.
    await rows(page).nth(1).getByTestId('conversation-open').click();
    await shown(page, 'user-message', 'bananas');
    assert.equal(await page.getByTestId('user-message').count(), 1);
    await page.reload();
    await connected(page);
    await shown(page, 'user-message', 'bananas');  // the chat opened is the one a reload shows

    // Search by what the answer said.
    await openChats(page);
    await page.getByTestId('conversation-search').fill('PEARS');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    assert.deepEqual(await rowTitles(page), ['echo Apples and pears']);
    await page.getByTestId('conversation-search').fill('nothing-like-this');
    await page.getByTestId('conversation-status').filter({ hasText: 'No chat mentions' }).waitFor();
    await page.getByTestId('conversation-search').fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 2);

    // A rename shows in another tab's list too.
    const other = await openPage(context, host.url);
    await openChats(other);
    await other.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 2);
    await rows(page).nth(1).locator('summary').click();
    await rows(page).nth(1).getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-title-input').fill('Harvest plan');
    await page.getByTestId('conversation-title-input').press('Enter');
    await page.locator('[data-testid="conversation"] .conversation-title', { hasText: 'Harvest plan' }).waitFor();
    await other.locator('[data-testid="conversation"] .conversation-title', { hasText: 'Harvest plan' }).waitFor();
    await screenshot(page, 'host-conversations');

    // Deleting the chat both tabs show: the list loses it and the tabs start a new chat.
    await rows(page).filter({ hasText: 'Harvest plan' }).locator('summary').click();
    await rows(page).filter({ hasText: 'Harvest plan' }).getByTestId('conversation-delete').click();
    await page.getByTestId('conversation-delete-confirm').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    await other.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    await page.getByTestId('user-message').waitFor({ state: 'detached' });
    assert.deepEqual(await rowTitles(other), ['echo Apples and pears']);
    await send(page, 'echo After the delete');
    await turnOver(page);
    await shown(page, 'assistant-message', 'After the delete');
    assert.deepEqual([...page.errors, ...other.errors], []);
  });

  test('older chats come a page at a time; Ctrl+K searches; a phone shows the list as a drawer', TEST, async () => {
    const host = await newHost();
    const socket = await connectPage(host.port);
    for (let i = 1; i <= 55; ++i) {
      socket.send('open_conversation', {});
      await socket.next('connection', (payload) => payload.state === 'opened');
      await chat(socket, `echo Topic number ${i}`);
    }
    socket.close();

    const page = await openPage(await profile(), host.url);
    await page.keyboard.press('Control+k');
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'conversation-search');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 50);
    assert.equal((await rowTitles(page))[0], 'echo Topic number 55');
    await page.getByTestId('conversation-more').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 55);
    assert.equal((await rowTitles(page)).at(-1), 'echo Topic number 1');
    assert.equal(await page.getByTestId('conversation-more').isHidden(), true, 'no older page after the last');
    await page.keyboard.press('Control+k');  // the search again, from wherever the focus went
    await page.keyboard.type('number 42');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    await page.keyboard.press('Enter');  // opens the first found
    await shown(page, 'user-message', 'Topic number 42');

    const phone = await openPage(await profile({ width: 375, height: 740 }), host.url);
    const header = await phone.locator('.topbar').boundingBox();
    assert.ok(header.height < 60, `the phone header stays on one line (${header.height}px)`);
    await phone.getByTestId('toggle-chats').click();
    await phone.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 50);
    // Slid in whole (the slide takes a fifth of a second), within the phone's width.
    await phone.waitForFunction(() => {
      const box = document.getElementById('conversations').getBoundingClientRect();
      return box.left === 0 && box.right <= window.innerWidth;
    });
    await screenshot(phone, 'host-conversations-phone');
    await phone.keyboard.press('Escape');
    await phone.getByTestId('conversations').waitFor({ state: 'hidden' });
    assert.deepEqual([...page.errors, ...phone.errors], []);
  });

  test('a chat exports as Markdown and as JSON', TEST, async () => {
    const host = await newHost();
    const page = await openPage(await profile(), host.url);
    await send(page, 'echo Notes with ```fences``` inside');
    await turnOver(page);
    await openChats(page);
    await rows(page).first().waitFor();

    await rows(page).first().locator('summary').click();
    const [markdown] = await Promise.all([page.waitForEvent('download'), rows(page).first().getByTestId('conversation-export-md').click()]);
    assert.match(markdown.suggestedFilename(), /^echo-Notes-with-fences-inside\.md$/);
    const text = fs.readFileSync(await markdown.path(), 'utf8');
    assert.match(text, /^# echo Notes with ```fences``` inside\n/);
    assert.match(text, /## You\n\necho Notes with ```fences``` inside\n/);
    assert.match(text, /## Assistant\n\nNotes with ```fences``` inside\n/);

    await rows(page).first().locator('summary').click();
    const [json] = await Promise.all([page.waitForEvent('download'), rows(page).first().getByTestId('conversation-export-json').click()]);
    const document = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
    assert.equal(document.title, 'echo Notes with ```fences``` inside');
    assert.deepEqual(document.messages.map((message) => message.role), ['user', 'assistant']);
    assert.equal(document.messages[1].content, 'Notes with ```fences``` inside');
    assert.deepEqual(page.errors, []);
  });
});

describe('edits and answers asked again', () => {
  test('Up edits the last message, Regenerate asks again, and every version can be brought back', TEST, async () => {
    const host = await newHost();
    const page = await openPage(await profile(), host.url);
    await send(page, 'echo first try');
    await turnOver(page);
    await page.getByTestId('message-input').press('ArrowUp');
    const box = page.getByTestId('edit-box');
    await box.waitFor();
    assert.equal(await box.inputValue(), 'echo first try');
    await box.fill('echo second try');
    await box.press('Enter');
    await shown(page, 'assistant-message', 'second try');
    await turnOver(page);
    assert.deepEqual(await page.getByTestId('user-message').locator('.bubble-text').allInnerTexts(), ['echo second try']);
    assert.equal(await page.getByTestId('assistant-message').count(), 1, 'the first answer went with its message');
    const asked = bed.llm.requests.filter((request) => request.method === 'POST').at(-1).body.messages;
    assert.deepEqual(asked.filter((message) => message.role === 'user').map((message) => message.content), ['echo second try'],
      'the model sees the edited message, not the earlier version');
    const userVersions = page.getByTestId('user-message').getByTestId('version-count');
    assert.equal(await userVersions.innerText(), '2 / 2');

    await page.getByTestId('user-message').getByTestId('version-previous').click();
    await shown(page, 'assistant-message', 'first try');
    assert.equal(await userVersions.innerText(), '1 / 2');
    await page.getByTestId('user-message').getByTestId('version-next').click();
    await shown(page, 'assistant-message', 'second try');

    // Copy gives the answer's markdown.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('assistant-message').hover();
    await page.getByTestId('copy-answer').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'second try');
    await page.getByTestId('regenerate').click();
    const answerVersions = page.getByTestId('assistant-message').getByTestId('version-count');
    await answerVersions.filter({ hasText: '2 / 2' }).waitFor();
    await turnOver(page);
    await screenshot(page, 'host-versions');
    await page.reload();
    await connected(page);
    await answerVersions.filter({ hasText: '2 / 2' }).waitFor();
    assert.equal(await userVersions.innerText(), '2 / 2', 'kept across a reload');
    assert.deepEqual(page.errors, []);
  });
});

describe('nothing lost on the way', () => {
  test('a host killed while an answer is asked again still has the earlier answer', TEST, async () => {
    const store = `sqlite:${path.join(bed.work.folder, 'regenerate.db')}`;
    const host = await newHost({ store });
    const page = await connectPage(host.port);
    const first = await chat(page, 'slow 20 20', { ms: 30000 });
    const answer = first.frames.find((frame) => frame.type === 'text').payload.messageId;
    page.send('regenerate', { messageId: answer });
    await page.next('text', (p) => p.messageId !== answer, 15000);
    host.child.kill('SIGKILL');
    await host.child.exited;
    const again = await newHost({ store, port: host.port });
    const back = await connectPage(again.port, { sessionId: page.connection.sessionId });
    const history = (await back.next('history')).messages;
    assert.deepEqual(history.map((message) => message.role), ['user', 'assistant']);
    assert.match(history[1].content, /^chunk 1 [\s\S]*chunk 20 $/, 'the earlier answer, whole');
    back.close();
  });

  test('a chat deleted while its answer is written stays deleted, and its page hears no more of it', TEST, async () => {
    const host = await newHost();
    const page = await connectPage(host.port);
    const id = page.connection.sessionId;
    page.send('message', { text: 'slow 40 50' });
    await page.next('text', () => true, 15000);
    page.send('delete_conversation', { sessionId: id });
    await page.next('conversation', (p) => p.sessionId === id && p.deleted);
    page.send('open_conversation', {});
    const opened = page.frames.length;
    await page.next('connection', (p) => p.state === 'opened');
    await page.next('history', () => true, 15000, opened);  // the new chat's greeting
    const after = page.frames.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(page.frames.slice(after).filter((frame) => ['text', 'turn', 'history'].includes(frame.type)), [],
      'nothing of the deleted chat reaches the new one');
    page.send('list_conversations', { requestId: 'after-delete' });
    const list = await page.next('conversations', (p) => p.requestId === 'after-delete');
    assert.ok(!list.items.some((item) => item.sessionId === id), 'not listed again');
    page.close();
  });
});

describe('the frames and the export, checked', () => {
  test('wrong fields are named; the export needs the token and a known chat', TEST, async () => {
    const host = await newHost();
    const socket = await connectPage(host.port);
    const problems = [
      ['list_conversations', {}, 'list_conversations.payload.requestId is missing'],
      ['list_conversations', { requestId: 'r1', after: 'yesterday' }, 'list_conversations.payload.after must be'],
      ['rename_conversation', { sessionId: socket.connection.sessionId, title: '  \n ' }, 'rename_conversation.payload.title is empty'],
      ['rename_conversation', { sessionId: 42, title: 'x' }, 'rename_conversation.payload.sessionId must be a string'],
      ['open_conversation', { sessionId: 'session-that-never-was' }, 'open_conversation.payload.sessionId names no conversation'],
      ['delete_conversation', {}, 'delete_conversation.payload.sessionId is missing'],
      ['edit_message', { messageId: 'nope', text: 'x' }, 'edit_message.payload.messageId names none of your messages'],
      ['edit_message', { messageId: 'nope', text: '  ' }, 'edit_message.payload.text is empty'],
      ['regenerate', { messageId: 'nope' }, 'regenerate.payload.messageId names no answer'],
      ['show_version', { messageId: 'nope', version: -1 }, 'show_version.payload.version must be a whole number'],
      ['show_version', { messageId: 'nope', version: 1 }, 'show_version.payload names no such version'],
    ];
    for (const [type, payload, message] of problems) {
      const from = socket.frames.length;
      socket.send(type, payload);
      const error = await socket.next('error', () => true, 15000, from);
      assert.ok(error.message.startsWith(message), `${type}: ${error.message}`);
    }
    // The connection is still the page's: a chat goes on.
    const answered = await chat(socket, 'echo still here');
    assert.equal(answered.text, 'still here');

    const id = socket.connection.sessionId;
    const exported = await fetch(`${host.url}/conversations/${id}/export?format=json`, { headers: host.auth });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get('content-disposition'), /^attachment; filename="echo-still-here\.json"$/);
    assert.equal((await exported.json()).messages.length, 2);
    assert.equal((await fetch(`${host.url}/conversations/${id}/export?format=md`)).status, 401, 'not without the token');
    assert.equal((await fetch(`${host.url}/conversations/${id}/export?format=pdf`, { headers: host.auth })).status, 400);
    assert.equal((await fetch(`${host.url}/conversations/nobody/export`, { headers: host.auth })).status, 404);
    socket.close();
  });
});
