// Tests of the fake LLM server's Anthropic Messages API (fake-llm-anthropic.mjs) on raw HTTP: the
// event stream and the whole message, tool use (parallel calls, results), extended thinking with its
// signed blocks, the checks and error texts of the real API, faults, and the claude-* scenarios.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';

let llm;
before(async () => { llm = await startFakeLlm(); });
after(() => llm.close());

const HEADERS = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };
const messages = (body, headers = HEADERS) => fetch(`${llm.url}/v1/messages`, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ model: 'claude-test', max_tokens: 4096, ...body }),
});
const user = (content) => ({ role: 'user', content });

/** The events of an Anthropic SSE body as [{ event, data }]. */
function events(text) {
  assert.ok(text.endsWith('\n\n'));
  return text.split('\n\n').filter(Boolean).map((block) => {
    const match = /^event: ([a-z_]+)\ndata: (.*)$/s.exec(block);
    assert.ok(match, block);
    const data = JSON.parse(match[2]);
    assert.equal(data.type, match[1]);
    return { event: match[1], data };
  });
}
async function stream(body) {
  const response = await messages({ stream: true, ...body });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type'), /^text\/event-stream/);
  return events(await response.text());
}
/** The content blocks a stream builds, put together as a client would (`partial` for unfinished input JSON). */
function assemble(list) {
  const blocks = [];
  for (const { data } of list) {
    if (data.type === 'content_block_start') blocks[data.index] = { ...data.content_block, json: '' };
    if (data.type !== 'content_block_delta') continue;
    const block = blocks[data.index];
    const { delta } = data;
    if (delta.type === 'text_delta') block.text += delta.text;
    if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
    if (delta.type === 'signature_delta') block.signature = delta.signature;
    if (delta.type === 'input_json_delta') block.json += delta.partial_json;
  }
  return blocks.map(({ json, ...block }) => {
    if (block.type !== 'tool_use') return block;
    try { return { ...block, input: JSON.parse(json) }; } catch { return { ...block, partial: json }; }
  });
}
const stopOf = (list) => list.find((e) => e.event === 'message_delta').data.delta.stop_reason;
async function refused(response, status = 400) {
  assert.equal(response.status, status);
  const body = await response.json();
  assert.equal(body.type, 'error');
  assert.match(body.request_id, /^req_/);
  return body.error;
}

describe('Anthropic Messages', () => {
  test('streams message_start, ping, block events, message_delta and message_stop; usage in both', async () => {
    const list = await stream({ system: 'Be brief.', messages: [user('echo hello there')] });
    assert.deepEqual(list.map((e) => e.event), ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop']);
    const { message } = list[0].data;
    assert.match(message.id, /^msg_/);
    assert.deepEqual([message.type, message.role, message.model, message.content, message.stop_reason], ['message', 'assistant', 'claude-test',
      [], null]);
    assert.ok(message.usage.input_tokens > 0);
    assert.deepEqual(assemble(list), [{ type: 'text', text: 'hello there' }]);
    const end = list.at(-2).data;
    assert.deepEqual(end.delta, { stop_reason: 'end_turn', stop_sequence: null });
    assert.ok(end.usage.output_tokens > 0);
  });

  test('answers one message without stream', async () => {
    const message = await (await messages({ messages: [user([{ type: 'text', text: 'echo one two' }])] })).json();
    assert.deepEqual([message.type, message.stop_reason, message.content], ['message', 'end_turn', [{ type: 'text', text: 'one two' }]]);
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
  });

  test('parallel tool use: several tool_use blocks in one message, input_json_delta fragments, stop "tool_use"', async () => {
    const list = await stream({ messages: [user('Checking.\ncall weather__get {"city": "Paris"}\ncall clock__now {}')] });
    const blocks = assemble(list);
    assert.equal(blocks[0].text, 'Checking.');
    assert.deepEqual(blocks.slice(1).map((b) => [b.type, b.name, b.input]), [['tool_use', 'weather__get', { city: 'Paris' }],
      ['tool_use', 'clock__now', {}]]);
    assert.ok(blocks.slice(1).every((b) => /^toolu_/.test(b.id)));
    const start = list.find((e) => e.data.content_block?.type === 'tool_use').data.content_block;
    assert.deepEqual(start.input, {});
    assert.ok(list.filter((e) => e.data.delta?.type === 'input_json_delta').every((e) => e.data.delta.partial_json.length <= 5));
    assert.equal(stopOf(list), 'tool_use');

    const [, weather, clock] = blocks;
    const assistant = { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, ...[weather, clock].map(({ type, id, name, input }) =>
      ({ type, id, name, input }))] };
    const results = user([{ type: 'tool_result', tool_use_id: weather.id, content: '{"tempC": 18}' },
      { type: 'tool_result', tool_use_id: clock.id, content: [{ type: 'text', text: 'noon' }] }]);
    const answer = assemble(await stream({ messages: [user('x'), assistant, results] }));
    assert.equal(answer[0].text, 'Tool weather__get answered: {"tempC":18}\nTool clock__now answered: "noon"');
  });

  test('extended thinking: a signed thinking block first, which must come back unchanged before the tool results', async () => {
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    const ask = user('call everything__echo {"text":"x"}');
    const list = await stream({ thinking, messages: [ask] });
    const [thought, call] = assemble(list);
    assert.equal(thought.type, 'thinking');
    assert.ok(thought.thinking.length > 10 && thought.signature.length > 20);
    assert.equal(list[2].data.content_block.type, 'thinking');
    assert.equal(list.filter((e) => e.data.delta?.type === 'signature_delta').length, 1);
    assert.equal(call.type, 'tool_use');
    const result = user([{ type: 'tool_result', tool_use_id: call.id, content: 'Echo: x' }]);
    const back = (content) => [ask, { role: 'assistant', content }, result];
    const { type, id, name, input } = call;
    const toolUse = { type, id, name, input };
    assert.equal(assemble(await stream({ thinking, messages: back([thought, toolUse]) }))[1].text, 'Tool everything__echo answered: "Echo: x"');

    const dropped = await refused(await messages({ thinking, messages: back([toolUse]) }));
    assert.deepEqual(dropped, { type: 'invalid_request_error', message: 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, '
      + 'but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the '
      + 'lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this '
      + 'requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking' });
    const edited = await refused(await messages({ thinking, messages: back([{ ...thought, thinking: `${thought.thinking} ` }, toolUse]) }));
    assert.equal(edited.message, 'messages.1.content.0: Invalid `signature` in `thinking` block');
    // Without thinking the same history is fine, and no thinking block is sent.
    assert.equal(assemble(await stream({ messages: back([toolUse]) }))[0].type, 'text');
    const whole = await (await messages({ thinking, messages: [user('echo hi')] })).json();
    assert.deepEqual(whole.content.map((b) => b.type), ['thinking', 'text']);
    assert.ok(whole.content[0].signature.length > 20);
  });

  test('pause_turn continues when the paused content comes back as the last assistant message', async () => {
    const ask = user('echo found it');
    const paused = await (await messages({ model: 'scenario-claude-pause-turn', messages: [ask] })).json();
    assert.equal(paused.stop_reason, 'pause_turn');
    assert.deepEqual(paused.content.map((b) => b.type), ['text', 'server_tool_use', 'web_search_tool_result']);
    assert.equal(paused.content[1].input.query, 'echo found it');
    const resumed = await stream({ model: 'scenario-claude-pause-turn', messages: [ask, { role: 'assistant', content: paused.content }] });
    assert.deepEqual([assemble(resumed)[0].text, stopOf(resumed)], ['found it', 'end_turn']);
    assert.equal(stopOf(await stream({ model: 'scenario-claude-pause-turn', messages: [ask] })), 'pause_turn');
  });

  test('claude-max-tokens and claude-refusal: the text so far, then their stop reasons', async () => {
    const cut = await stream({ model: 'scenario-claude-max-tokens', messages: [user('echo a b c d')] });
    assert.deepEqual([assemble(cut)[0].text, stopOf(cut)], ['a b ', 'max_tokens']);
    const call = await stream({ model: 'scenario-claude-max-tokens', messages: [user('call a {"path":"/some/where"}')] });
    assert.equal(assemble(call)[0].partial, '{"path":"/s'); // half of the 22 characters
    assert.equal(stopOf(call), 'max_tokens');
    const refusal = await stream({ model: 'scenario-claude-refusal', messages: [user('echo a b c d')] });
    assert.equal(stopOf(refusal), 'refusal');
    assert.equal(refusal.find((e) => e.event === 'message_delta').data.delta.stop_details.type, 'refusal');
    assert.equal(assemble(refusal)[0].text, 'a b ');
    const unknown = await refused(await messages({ model: 'scenario-nope', messages: [user('hi')] }), 404);
    assert.deepEqual(unknown, { type: 'not_found_error', message: 'model: scenario-nope' });
  });
});

describe('Anthropic checks', () => {
  const hi = [user('hi')];
  test('the key and the version header', async () => {
    assert.deepEqual(await refused(await messages({ messages: hi }, { 'anthropic-version': '2023-06-01' }), 401),
      { type: 'authentication_error', message: 'x-api-key header is required' });
    assert.deepEqual(await refused(await messages({ messages: hi }, { ...HEADERS, 'x-api-key': 'wrong' }), 401),
      { type: 'authentication_error', message: 'invalid x-api-key' });
    assert.equal((await refused(await messages({ messages: hi }, { 'x-api-key': 'test-key' }))).message, 'anthropic-version: header is required');
    assert.match((await refused(await messages({ messages: hi }, { ...HEADERS, 'anthropic-version': 'latest' }))).message, /is not a valid version/);
  });

  test('the body, as the real API words it', async () => {
    const message = async (body) => (await refused(await fetch(`${llm.url}/v1/messages`, { method: 'POST', headers: HEADERS,
      body: JSON.stringify(body) }))).message;
    assert.equal(await message({ max_tokens: 10, messages: hi }), 'model: Field required');
    assert.equal(await message({ model: 'c', messages: hi }), 'max_tokens: Field required');
    assert.equal(await message({ model: 'c', max_tokens: 0, messages: hi }), 'max_tokens: Input should be greater than or equal to 1');
    const base = { model: 'c', max_tokens: 10 };
    assert.equal(await message({ ...base, messages: [] }), 'messages: at least one message is required');
    assert.match(await message({ ...base, messages: [{ role: 'system', content: 'x' }, ...hi] }), /^messages: Unexpected role "system"\. The Messages API/);
    assert.equal(await message({ ...base, messages: [{ role: 'tool', content: 'x' }] }), "messages.0.role: Input should be 'user' or 'assistant'");
    assert.equal(await message({ ...base, messages: hi, temperature: 1.5 }), 'temperature: Input should be less than or equal to 1');
    const tool = (name, schema = { type: 'object' }) => ({ name, description: 'd', input_schema: schema });
    assert.equal(await message({ ...base, messages: hi, tools: [tool('ok'), tool('fs.read')] }),
      "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
    assert.equal(await message({ ...base, messages: hi, tools: [tool('a', { type: 'string' })] }), "tools.0.custom.input_schema.type: Input should be 'object'");
    assert.equal(await message({ ...base, messages: hi, tools: [tool('a'), tool('a')] }), 'tools: Tool names must be unique.');
    const thinking = { ...base, max_tokens: 4096, messages: hi };
    assert.equal(await message({ ...thinking, thinking: { type: 'enabled', budget_tokens: 500 } }),
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    assert.equal(await message({ ...thinking, thinking: { type: 'enabled', budget_tokens: 4096 } }),
      '`max_tokens` must be greater than `thinking.budget_tokens`.');
    assert.match(await message({ ...thinking, temperature: 0.5, thinking: { type: 'enabled', budget_tokens: 1024 } }),
      /^`temperature` may only be set to 1 when thinking is enabled\./);
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'a', input: {} }] };
    assert.equal(await message({ ...base, messages: [...hi, use, user('and?')] }), 'messages.1: `tool_use` ids were found without `tool_result` '
      + 'blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.');
    assert.equal(await message({ ...base, messages: [...hi, { role: 'assistant', content: 'ok' }, user([{ type: 'tool_result', tool_use_id: 'toolu_9',
      content: 'x' }])] }), 'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must '
      + 'have a corresponding `tool_use` block in the previous message.');
  });

  test('faults: 429 with retry-after, 529 overloaded, 500 api_error, and overloaded mid-stream', async () => {
    llm.failNext([{ status: 429, retryAfter: 7 }, { status: 529 }, { status: 500 }, { overloaded: true, afterChunks: 3 }]);
    const limited = await messages({ messages: hi });
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal((await refused(limited, 429)).type, 'rate_limit_error');
    assert.deepEqual(await refused(await messages({ messages: hi }), 529), { type: 'overloaded_error', message: 'Overloaded' });
    assert.equal((await refused(await messages({ messages: hi }), 500)).type, 'api_error');
    const list = events(await (await messages({ stream: true, messages: [user('long 20')] })).text());
    assert.deepEqual(list.map((e) => e.event), ['message_start', 'ping', 'content_block_start', 'error']);
    assert.deepEqual(list.at(-1).data, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});
