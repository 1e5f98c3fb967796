// What the model receives when the servers have many tools or a tool answers at length, checked
// at the model's boundary (the requests the fake LLM records) with a real server (official
// TypeScript SDK, host-many-tools-server.mjs): with 300 tools the model gets search_tools and the
// tools it used or found, at most 64 definitions, and what it finds it can call on its next step;
// a 1 MiB result reaches it as a head-and-tail preview that says how to read the rest, and
// read_tool_result reads any part of it, while the page gets the whole result.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { launchChromium, newProfile, openPage, screenshot, send, turnOver } from './host-browser.mjs';
import { chat, connectPage, startHost, workFolder, writeConfig } from './host-support.mjs';

const TEST = { timeout: 60000 };
const here = path.dirname(fileURLToPath(import.meta.url));
const manyTools = (count) => ({
  command: process.execPath, args: [path.join(here, 'host-many-tools-server.mjs'), String(count)], trustAnnotations: true,
});

const work = workFolder();
let llm;
const hosts = [];

before(async () => {
  llm = await startFakeLlm();
});

let browser;
after(async () => {
  await browser?.close();
  for (const host of hosts) await host.stop();
  await llm?.close();
  work.remove();
});

/** A host with one server `name` of `count` tools, and a page on it once that server is ready. */
async function hostWith(name, count) {
  const config = writeConfig(work.folder, { mcpServers: { [name]: manyTools(count) } }, `${name}.json`);
  const host = await startHost({ config, llm });
  hosts.push(host);
  const page = await connectPage(host.port);
  await page.next('servers', (p) => p.servers.some((server) => server.name === name && server.state === 'ready'), 30000);
  return page;
}

const chats = () => llm.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions'));
const offered = (request) => (request.body.tools ?? []).map((tool) => tool.function.name);
const toolMessage = (request) => request.body.messages.filter((message) => message.role === 'tool').at(-1);

describe('many tools', () => {
  let page;
  before(async () => { page = await hostWith('many', 300); });

  test('with 300 tools the model gets search_tools, at most 64 definitions, and calls what it found next', TEST, async () => {
    llm.reset();
    const found = await chat(page, 'call search_tools {"query": "convert currency euros"}');
    assert.equal(found.state, 'finished');
    const [first, afterSearch] = chats();
    assert.ok(offered(first).length <= 64, `the first request offers ${offered(first).length} tools`);
    assert.ok(offered(first).includes('search_tools'));
    assert.ok(!offered(first).includes('many__maintenance_100'), 'not every tool');
    assert.match(toolMessage(afterSearch).content, /many__convert_currency: Convert an amount of money/);
    assert.ok(offered(afterSearch).includes('many__convert_currency'), 'what was found is offered on the next step');
    const card = found.frames.find((frame) => frame.type === 'status' && frame.payload.state === 'complete');
    assert.equal(card.payload.tool, 'search_tools');

    llm.reset();
    const converted = await chat(page, 'call many__convert_currency {"amount": 2, "from": "EUR", "to": "JPY"}');
    assert.match(converted.text, /2 EUR is 320.00 JPY/);
    assert.ok(offered(chats()[0]).includes('many__convert_currency'));

    // Used once, it stays offered; the list stays within 64.
    llm.reset();
    await chat(page, 'echo thanks');
    assert.ok(offered(chats()[0]).includes('many__convert_currency'), 'a tool used recently stays offered');
    assert.ok(offered(chats()[0]).length <= 64);
  });

  test('a search that finds nothing says so, and one without words is refused', TEST, async () => {
    llm.reset();
    await chat(page, 'call search_tools {"query": "zzqx"}');
    assert.match(toolMessage(chats()[1]).content, /^No tool matches "zzqx" among the 300 tools/);
    llm.reset();
    const refused = await chat(page, 'call search_tools {"query": "!"}');
    const card = refused.frames.find((frame) => frame.type === 'status' && frame.payload.state === 'complete');
    assert.equal(card.payload.isError, true);
  });

  test('with 10 tools every definition goes and there is no search_tools', TEST, async () => {
    const few = await hostWith('few', 10);
    llm.reset();
    await chat(few, 'echo hello');
    const names = offered(chats()[0]);
    assert.equal(names.length, 10);
    assert.ok(!names.includes('search_tools'));
    few.close();
  });
});

describe('long results', () => {
  test('a 1 MiB result reaches the model as a preview under 200 KB, and read_tool_result reads on', TEST, async () => {
    const page = await hostWith('big', 10);
    llm.reset();
    const big = await chat(page, 'call big__big_result {"bytes": 1048576}', { ms: 30000 });
    const card = big.frames.find((frame) => frame.type === 'status' && frame.payload.state === 'complete');
    assert.equal(card.payload.data.content[0].text.length, 1048576, 'the page gets the whole result');
    const request = chats()[1];
    const size = Number(request.headers['content-length'] ?? JSON.stringify(request.body).length);
    assert.ok(size < 200 * 1024, `the model's request is ${size} bytes`);
    const preview = toolMessage(request).content;
    assert.match(preview, /^line 000000 /);
    assert.match(preview, /\[The result is 1048576 bytes, too long to give whole: bytes 12288 to 1044480 are left out here\. Call read_tool_result with \{"id": "[^"]+", "offset": 12288\}/);
    assert.match(preview, /line 010485 \.+$/, 'the tail is there, to the last byte');
    assert.ok(offered(request).includes('read_tool_result'));

    llm.reset();
    const id = card.payload.callId;
    await chat(page, `call read_tool_result {"id": "${id}", "offset": 500000, "length": 1000}`);
    const part = toolMessage(chats()[1]).content;
    assert.match(part, /^Bytes 500000 to 501000 of 1048576:\nline 005000 \.+\nline 005001 /);
    assert.match(part, /\[547576 bytes follow: offset 501000\.\]$/);

    llm.reset();
    const wrong = await chat(page, 'call read_tool_result {"id": "no-such-call"}');
    assert.match(toolMessage(chats()[1]).content, /No tool result in this conversation has the id "no-such-call"/);
    assert.equal(wrong.frames.find((frame) => frame.type === 'status' && frame.payload.state === 'complete').payload.isError, true);
    page.close();
  });
});

describe('on the page', () => {
  test('search_tools and a 1 MiB result show as cards; the whole result is there, folded', TEST, async () => {
    const config = writeConfig(work.folder, { mcpServers: { many: manyTools(300) } }, 'page.json');
    const host = await startHost({ config, llm });
    hosts.push(host);
    browser = await launchChromium();
    const page = await openPage(await newProfile(browser), host.url, { servers: ['many'] });
    await send(page, 'call search_tools {"query": "weather forecast"}');
    await turnOver(page);
    const search = page.getByTestId('tool-card').first();
    assert.match(await search.locator('header').innerText(), /host\s*›\s*search_tools\s*weather forecast/);
    await search.getByTestId('tool-card-toggle').click();
    await search.locator('.tool-result', { hasText: 'many__weather_forecast' }).waitFor();

    await send(page, 'call many__big_result {"bytes": 1048576}');
    await turnOver(page, 30000);
    const big = page.getByTestId('tool-card').last();
    assert.equal(await big.getAttribute('data-expanded'), 'false', 'folded');
    await big.getByTestId('tool-card-toggle').click();
    const shown = await big.locator('.tool-result').evaluate((node) => node.textContent.length);
    assert.ok(shown >= 1048576, `the whole result is on the page (${shown} characters)`);
    await screenshot(page, 'host-long-result');
    assert.deepEqual(page.errors, []);
  });
});
