// Tests of the fake LLM server's scenarios (fake-llm-scenarios.mjs) in the OpenAI-compatible and
// Gemini formats, of the `empty` and `overloaded` faults, gzip, and the model lists with their
// paging: each as the cited provider documents it, checked on the raw HTTP answer.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';

import { startFakeLlm } from './fake-llm.mjs';
import { SCENARIOS, scenarioOf } from './fake-llm-scenarios.mjs';

let llm;
before(async () => { llm = await startFakeLlm(); });
after(() => llm.close());

const KEY = { authorization: 'Bearer test-key' };
const chat = (body, headers = KEY) => fetch(`${llm.url}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'gpt-test', ...body }),
});
const user = (content) => [{ role: 'user', content }];
const sse = (text) => text.split(/\r?\n\r?\n/).filter(Boolean).map((block) => {
  assert.match(block, /^data: /);
  const data = block.slice(6);
  return data === '[DONE]' ? data : JSON.parse(data);
});
async function chatStream(body) {
  const response = await chat({ stream: true, ...body });
  assert.equal(response.status, 200, await response.clone().text());
  return sse(await response.text());
}
const choices = (chunks) => chunks.filter((c) => c !== '[DONE]' && c.choices?.length).map((c) => c.choices[0]);
const joined = (chunks, field) => choices(chunks).map((c) => c.delta[field] ?? '').join('');
const finishOf = (chunks) => choices(chunks).at(-1).finish_reason;
const toolDeltas = (chunks) => choices(chunks).flatMap((c) => c.delta.tool_calls ?? []);
async function problem(response, status) {
  assert.equal(response.status, status);
  return response.json();
}

const gemini = (model, body, { stream = true, query = stream ? '?alt=sse' : '' } = {}) =>
  fetch(`${llm.url}/v1beta/models/${model}:${stream ? 'streamGenerateContent' : 'generateContent'}${query}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' }, body: JSON.stringify(body),
  });
const ask = (text) => ({ contents: [{ role: 'user', parts: [{ text }] }] });
async function geminiChunks(model, body) {
  const response = await gemini(model, body);
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.text()).split('\r\n\r\n').slice(0, -1).map((block) => JSON.parse(block.replace(/^data: /, '')));
}
const partsOf = (chunks) => chunks.flatMap((c) => c.candidates[0].content?.parts ?? []);

/** A raw POST with exactly these headers (fetch would add Accept-Encoding and undo the gzip). */
const rawPost = (path, body, headers) => new Promise((resolve, reject) => {
  const request = http.request(`${llm.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
    const parts = [];
    response.on('data', (chunk) => parts.push(chunk));
    response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(parts) }));
  });
  request.on('error', reject);
  request.end(JSON.stringify(body));
});

describe('the scenario table', () => {
  test('every scenario names its format and cites a URL with what it says; scenarioOf reads the model name', () => {
    for (const [name, entry] of Object.entries(SCENARIOS)) {
      assert.ok(['openai', 'gemini', 'anthropic'].includes(entry.format), name);
      assert.ok(entry.cite.length > 0 && entry.cite.every((c) => /^https:\/\//.test(c.url) && c.says.length > 20), name);
    }
    assert.equal(scenarioOf('gpt-4o'), null);
    assert.equal(scenarioOf('scenario-length').format, 'openai');
    assert.deepEqual(scenarioOf('scenario-nope'), { name: 'nope', unknown: true });
  });

  test('an unknown scenario, or one of another format, is a 404 model not found in the request format', async () => {
    const openai = await problem(await chat({ model: 'scenario-nope', messages: user('hi') }), 404);
    assert.equal(openai.error.code, 'model_not_found');
    assert.match(openai.error.message, /^The model `scenario-nope` does not exist/);
    assert.equal((await problem(await chat({ model: 'scenario-safety', messages: user('hi') }), 404)).error.code, 'model_not_found');
    const google = await problem(await gemini('scenario-refusal', ask('hi')), 404);
    assert.deepEqual([google.error.code, google.error.status], [404, 'NOT_FOUND']);
    assert.match(google.error.message, /^models\/scenario-refusal is not found for API version v1beta/);
  });
});

describe('OpenAI-compatible scenarios', () => {
  test('gpt5-params: max_tokens and a temperature other than 1 are refused as OpenAI words it', async () => {
    const body = { model: 'scenario-gpt5-params', messages: user('echo hi') };
    const tokens = await problem(await chat({ ...body, max_tokens: 100 }), 400);
    assert.deepEqual(tokens.error, { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
      + "'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' });
    const heat = await problem(await chat({ ...body, temperature: 0.7 }), 400);
    assert.deepEqual(heat.error, { message: "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) "
      + 'value is supported.', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' });
    assert.equal(joined(await chatStream({ ...body, max_completion_tokens: 100, temperature: 1 }), 'content'), 'hi');
  });

  test('deepseek-thinking: reasoning_content first; a tool turn without it comes back 400', async () => {
    const model = 'scenario-deepseek-thinking';
    const chunks = await chatStream({ model, messages: user('call everything__echo {"text":"x"}') });
    const thinking = choices(chunks).filter((c) => c.delta.reasoning_content);
    assert.ok(thinking.length > 1 && thinking[0].delta.role === 'assistant' && thinking[0].delta.content === null);
    assert.ok(choices(chunks).indexOf(thinking.at(-1)) < choices(chunks).findIndex((c) => c.delta.tool_calls));
    const reasoning = joined(chunks, 'reasoning_content');
    const [head] = toolDeltas(chunks);
    const call = { id: head.id, type: 'function', function: { name: 'everything__echo', arguments: '{"text":"x"}' } };
    const history = (assistant) => [...user('call everything__echo {"text":"x"}'), { role: 'assistant', content: null, tool_calls: [call], ...assistant },
      { role: 'tool', tool_call_id: head.id, content: 'Echo: x' }];
    assert.equal(joined(await chatStream({ model, messages: history({ reasoning_content: reasoning }) }), 'content'), 'Tool everything__echo '
      + 'answered: "Echo: x"');
    const missing = await problem(await chat({ model, messages: history({}) }), 400);
    assert.deepEqual(missing.error, { message: 'Missing `reasoning_content` field in the assistant message at message index 1. For more '
      + 'information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls', type: 'invalid_request_error',
    param: null, code: 'invalid_request_error' });
    // The rule holds for every earlier turn with tool calls, its final answer included (the docs' "all subsequent requests").
    const later = [...history({ reasoning_content: reasoning }), { role: 'assistant', content: 'done' }, ...user('echo again')];
    assert.match((await problem(await chat({ model, messages: later }), 400)).error.message, /at message index 3\./);
    const plain = [...user('echo a'), { role: 'assistant', content: 'a' }, ...user('echo b')];
    assert.equal((await chat({ model, messages: plain })).status, 200);
    const whole = await (await chat({ model, messages: user('echo hi') })).json();
    assert.equal(whole.choices[0].message.reasoning_content, reasoning);
  });

  test('gemini3-compat: the first call carries a thought signature that must come back in the current turn', async () => {
    const model = 'scenario-gemini3-compat';
    const asked = user('call everything__echo {"text":"x"}\ncall everything__echo {"text":"y"}');
    const heads = toolDeltas(await chatStream({ model, messages: asked })).filter((t) => t.id);
    assert.match(heads[0].extra_content.google.thought_signature, /^[A-Za-z0-9+/]+=*$/);
    assert.equal(heads[1].extra_content, undefined, 'only the first of parallel calls is signed');
    const calls = heads.map((head, i) => ({ id: head.id, type: 'function', function: { name: 'everything__echo', arguments: `{"text":"${'xy'[i]}"}` },
      ...(head.extra_content ? { extra_content: head.extra_content } : {}) }));
    const turn = (toolCalls) => [...asked, { role: 'assistant', content: null, tool_calls: toolCalls },
      ...toolCalls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: 'ok' }))];
    assert.equal((await chat({ model, messages: turn(calls) })).status, 200);
    const unsigned = calls.map(({ extra_content: _, ...call }) => call);
    const refused = await problem(await chat({ model, messages: turn(unsigned) }), 400);
    assert.ok(Array.isArray(refused));
    assert.equal(refused[0].error.status, 'INVALID_ARGUMENT');
    assert.equal(refused[0].error.message, 'Function call is missing a thought_signature in functionCall parts. This is required for tools to '
      + 'work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call '
      + '`default_api:everything__echo` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.');
    // Earlier turns are not validated.
    assert.equal((await chat({ model, messages: [...turn(unsigned), { role: 'assistant', content: 'ok' }, ...user('echo hi')] })).status, 200);
    const whole = await (await chat({ model, messages: user('call a {}') })).json();
    assert.ok(whole.choices[0].message.tool_calls[0].extra_content.google.thought_signature);
  });

  test('refusal: the refusal streams in delta.refusal with content null, finish "stop"', async () => {
    const chunks = await chatStream({ model: 'scenario-refusal', messages: user('call a {}') });
    assert.equal(joined(chunks, 'refusal'), "I'm sorry, I can't help with that.");
    assert.deepEqual(choices(chunks)[0].delta, { role: 'assistant', content: null, refusal: '' });
    assert.ok(choices(chunks).every((c) => !c.delta.content && !c.delta.tool_calls));
    assert.equal(finishOf(chunks), 'stop');
    const whole = await (await chat({ model: 'scenario-refusal', messages: user('hi') })).json();
    assert.deepEqual(whole.choices[0].message, { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." });
  });

  test('length: half the text, or a call whose arguments stop short, then finish "length"', async () => {
    const text = await chatStream({ model: 'scenario-length', messages: user('echo one two three four') });
    assert.deepEqual([joined(text, 'content'), finishOf(text)], ['one two ', 'length']);
    const call = await chatStream({ model: 'scenario-length', messages: user('call a {"path":"/a/long/path"}') });
    const args = toolDeltas(call).map((t) => t.function.arguments).join('');
    assert.ok('{"path":"/a/long/path"}'.startsWith(args) && args.length < 23);
    assert.equal(finishOf(call), 'length');
  });

  test('content-filter: Azure prompt_filter_results first, then some text and finish "content_filter"', async () => {
    const chunks = await chatStream({ model: 'scenario-content-filter', messages: user('echo a b c d') });
    assert.deepEqual(chunks[0].choices, []);
    assert.equal(chunks[0].prompt_filter_results[0].content_filter_results.hate.severity, 'safe');
    assert.equal(joined(chunks, 'content'), 'a b ');
    const last = choices(chunks).at(-1);
    assert.equal(last.finish_reason, 'content_filter');
    assert.deepEqual(last.content_filter_results.violence, { filtered: true, severity: 'medium' });
  });

  test('reasoning-field: delta.reasoning before the content', async () => {
    const chunks = await chatStream({ model: 'scenario-reasoning-field', messages: user('echo hi') });
    const all = choices(chunks);
    assert.deepEqual(Object.keys(all[0].delta), ['role', 'content', 'reasoning']);
    assert.ok(all.findLastIndex((c) => c.delta.reasoning) < all.findIndex((c) => c.delta.content));
    assert.match(joined(chunks, 'reasoning'), /^Let me think/);
    assert.equal(joined(chunks, 'content'), 'hi');
  });

  test('groq-usage: no top-level usage even when asked; x_groq.usage with timings on the last chunk', async () => {
    const chunks = await chatStream({ model: 'scenario-groq-usage', stream_options: { include_usage: true }, messages: user('echo hi') });
    const data = chunks.filter((c) => c !== '[DONE]');
    assert.ok(data.every((c) => !('usage' in c)));
    assert.match(data[0].x_groq.id, /^req_/);
    const { usage } = data.at(-1).x_groq;
    assert.equal(data.at(-1).choices[0].finish_reason, 'stop');
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    for (const field of ['queue_time', 'prompt_time', 'completion_time', 'total_time']) assert.equal(typeof usage[field], 'number');
  });

  test('split-surrogates: an emoji is cut between its UTF-16 halves, in text and in call arguments', async () => {
    const response = await chat({ model: 'scenario-split-surrogates', stream: true, messages: user('echo hi') });
    const raw = await response.text();
    const events = raw.split('\n\n').filter(Boolean);
    const high = events.findIndex((event) => event.includes('\\ud83d"'));
    assert.ok(high >= 0, raw);
    assert.match(events[high], /"content":"[^"]*\\ud83d"/);
    assert.match(events[high + 1], /"content":"\\ude00/);
    assert.equal(joined(sse(raw), 'content'), 'hi 😀 done');
    const call = await chat({ model: 'scenario-split-surrogates', stream: true, messages: user('call everything__echo {"text":"smile 😀"}') });
    const rawCall = await call.text();
    const fragments = rawCall.split('\n\n').filter((event) => event.includes('"arguments"'));
    const at = fragments.findIndex((event) => /"arguments":"[^"]*\\ud83d"/.test(event));
    assert.ok(at >= 0 && /"arguments":"\\ude00/.test(fragments[at + 1]), rawCall);
    assert.equal(toolDeltas(sse(rawCall)).map((t) => t.function.arguments).join(''), '{"text":"smile 😀"}');
  });

  test('insufficient-quota: always 429 insufficient_quota, before anything else is looked at', async () => {
    const quota = await problem(await chat({ model: 'scenario-insufficient-quota', messages: [] }), 429);
    assert.deepEqual(quota, { error: { message: 'You exceeded your current quota, please check your plan and billing details. For more '
      + 'information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', type: 'insufficient_quota',
    param: null, code: 'insufficient_quota' } });
  });

  test('gzip: compressed when Accept-Encoding allows it (or is absent), plain otherwise', async () => {
    const body = { model: 'scenario-gzip', stream: true, messages: user('echo zipped words here') };
    for (const headers of [{}, { 'accept-encoding': 'gzip, deflate' }, { 'accept-encoding': '*' }]) {
      const answer = await rawPost('/v1/chat/completions', body, { ...KEY, ...headers });
      assert.equal(answer.headers['content-encoding'], 'gzip', JSON.stringify(headers));
      assert.equal(joined(sse(zlib.gunzipSync(answer.body).toString()), 'content'), 'zipped words here');
    }
    for (const headers of [{ 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, identity' }, { 'accept-encoding': '' }]) {
      const answer = await rawPost('/v1/chat/completions', body, { ...KEY, ...headers });
      assert.equal(answer.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.equal(joined(sse(answer.body.toString()), 'content'), 'zipped words here');
    }
    const whole = await rawPost('/v1/chat/completions', { ...body, stream: false }, KEY);
    assert.equal(JSON.parse(zlib.gunzipSync(whole.body)).choices[0].message.content, 'zipped words here');
  });
});

describe('Gemini scenarios', () => {
  test('safety: text, then a chunk with no content, finishReason SAFETY and one blocked rating', async () => {
    const chunks = await geminiChunks('scenario-safety', ask('echo a b c d'));
    assert.equal(partsOf(chunks).map((p) => p.text).join(''), 'a b ');
    const last = chunks.at(-1).candidates[0];
    assert.equal(last.finishReason, 'SAFETY');
    assert.equal(last.content, undefined);
    assert.deepEqual(last.safetyRatings.filter((r) => r.blocked), [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }]);
    const whole = await (await gemini('scenario-safety', ask('echo a b'), { stream: false })).json();
    assert.equal(whole.candidates[0].finishReason, 'SAFETY');
  });

  test('recitation: finishReason RECITATION, no text, citation sources', async () => {
    const [chunk] = await geminiChunks('scenario-recitation', ask('echo a b'));
    assert.equal(chunk.candidates[0].finishReason, 'RECITATION');
    assert.equal(chunk.candidates[0].content, undefined);
    assert.ok(chunk.candidates[0].citationMetadata.citationSources[0].uri);
  });

  test('thinking-max-tokens: one chunk, MAX_TOKENS, a model content with no parts, thoughts counted', async () => {
    const body = { ...ask('echo a'), generationConfig: { maxOutputTokens: 512 } };
    const chunks = await geminiChunks('scenario-thinking-max-tokens', body);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0].candidates[0], { content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 });
    assert.equal(chunks[0].usageMetadata.thoughtsTokenCount, 512);
    const whole = await (await gemini('scenario-thinking-max-tokens', body, { stream: false })).json();
    assert.deepEqual(whole.candidates[0].content, { role: 'model' });
  });

  test('thoughts: thought parts before the answer; merged apart without streaming', async () => {
    const parts = partsOf(await geminiChunks('scenario-thoughts', ask('echo hi there')));
    const firstAnswer = parts.findIndex((p) => !p.thought);
    assert.ok(firstAnswer > 0 && parts.slice(0, firstAnswer).every((p) => p.thought === true && p.text));
    assert.equal(parts.slice(firstAnswer).map((p) => p.text).join(''), 'hi there');
    const whole = await (await gemini('scenario-thoughts', ask('echo hi there'), { stream: false })).json();
    assert.deepEqual(whole.candidates[0].content.parts.map((p) => !!p.thought), [true, false]);
    assert.ok(whole.usageMetadata.thoughtsTokenCount > 0);
  });
});

describe('faults: empty and overloaded', () => {
  test('empty: a 200 with the stream content type and no events, in each format', async () => {
    // Queued through the control endpoint, as a test in another process would.
    const queued = await fetch(`${llm.url}/_control`, { method: 'POST', body: JSON.stringify({ failNext: [{ empty: true }, { empty: true },
      { empty: true }, { empty: true }] }) });
    assert.deepEqual(await queued.json(), { queued: 4 });
    assert.equal((await fetch(`${llm.url}/_control`, { method: 'POST', body: '{"failNext": [{"empty": 1}]}' })).status, 400);
    const openai = await chat({ stream: true, messages: user('hi') });
    assert.deepEqual([openai.status, openai.headers.get('content-type'), await openai.text()], [200, 'text/event-stream; charset=utf-8', '']);
    const plain = await chat({ messages: user('hi') });
    assert.deepEqual([plain.status, plain.headers.get('content-type'), await plain.text()], [200, 'application/json; charset=utf-8', '']);
    const google = await gemini('gemini-x', ask('hi'));
    assert.deepEqual([google.status, google.headers.get('content-type'), await google.text()], [200, 'text/event-stream; charset=utf-8', '']);
    const anthropic = await fetch(`${llm.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'c', max_tokens: 10, stream: true, messages: user('hi') }) });
    assert.deepEqual([anthropic.status, await anthropic.text()], [200, '']);
  });

  test('overloaded mid-stream: n events, the format\'s error event, a clean end; without streaming the overloaded status', async () => {
    llm.failNext([{ overloaded: true, afterChunks: 2 }, { overloaded: true, afterChunks: 1 }, { overloaded: true }]);
    const events = sse(await (await chat({ stream: true, messages: user('long 20') })).text());
    assert.equal(events.length, 3);
    assert.deepEqual(events[2], { error: { message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null } });
    const google = await (await gemini('gemini-x', ask('long 20'))).text();
    assert.deepEqual(JSON.parse(google.split('\r\n\r\n')[1].slice(6)).error.status, 'UNAVAILABLE');
    assert.equal((await chat({ messages: user('hi') })).status, 503);
  });
});

describe('model lists', () => {
  const get = (path, headers) => fetch(`${llm.url}${path}`, { headers });
  test('OpenAI, Anthropic and Gemini shapes, with the key each expects', async () => {
    const openai = await (await get('/v1/models', KEY)).json();
    assert.deepEqual(openai.data.map((m) => m.id), ['fake-model', 'gpt-standard', 'gemini-fake', 'claude-fake']);
    assert.deepEqual(Object.keys(openai.data[0]).sort(), ['created', 'id', 'object', 'owned_by']);
    assert.equal(openai.object, 'list');
    assert.equal((await get('/v1/models', {})).status, 401);
    const anthropic = await (await get('/v1/models', { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' })).json();
    assert.deepEqual(anthropic.data[0], { type: 'model', id: 'fake-model', display_name: 'Fake Model', created_at: '2025-01-01T00:00:00.000Z' });
    assert.deepEqual([anthropic.has_more, anthropic.first_id, anthropic.last_id], [false, 'fake-model', 'claude-fake']);
    assert.equal((await get('/v1/models', { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' })).status, 401);
    const google = await (await get('/v1beta/models', { 'x-goog-api-key': 'test-key' })).json();
    assert.equal(google.models[2].name, 'models/gemini-fake');
    assert.deepEqual(google.models[2].supportedGenerationMethods, ['generateContent', 'countTokens']);
    assert.equal(google.nextPageToken, undefined);
    assert.equal((await get('/v1beta/models', {})).status, 403);
    assert.ok(llm.requests.some((r) => r.method === 'GET' && r.path === '/v1beta/models'));
  });

  test('paging: Gemini pageSize/pageToken and Anthropic limit/after_id/before_id; models: false answers 404', async () => {
    const many = await startFakeLlm({ models: Array.from({ length: 120 }, (_, i) => `m${i}`) });
    try {
      const google = async (query) => (await fetch(`${many.url}/v1beta/models?key=test-key${query}`)).json();
      const first = await google('');
      assert.equal(first.models.length, 50);
      const seen = [...first.models];
      for (let page = first; page.nextPageToken;) {
        page = await google(`&pageToken=${page.nextPageToken}`);
        seen.push(...page.models);
      }
      assert.deepEqual(seen.map((m) => m.name), Array.from({ length: 120 }, (_, i) => `models/m${i}`));
      assert.equal((await google('&pageSize=7')).models.length, 7);
      const anthropic = async (query) => (await fetch(`${many.url}/v1/models${query}`,
        { headers: { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' } })).json();
      const page1 = await anthropic('');
      assert.deepEqual([page1.data.length, page1.has_more, page1.last_id], [20, true, 'm19']);
      const last = await anthropic('?limit=100&after_id=m19');
      assert.deepEqual([last.data.length, last.has_more, last.first_id], [100, false, 'm20']);
      const back = await anthropic('?limit=5&before_id=m20');
      assert.deepEqual([back.first_id, back.last_id, back.has_more], ['m15', 'm19', true]);
    } finally {
      await many.close();
    }
    const none = await startFakeLlm({ models: false });
    try {
      assert.equal((await fetch(`${none.url}/v1/models`, { headers: KEY })).status, 404);
      assert.equal((await fetch(`${none.url}/v1beta/models?key=test-key`)).status, 404);
    } finally {
      await none.close();
    }
  });
});
