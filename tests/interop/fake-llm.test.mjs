// Tests of the fake LLM server (fake-llm.mjs) itself: the OpenAI and Gemini wire formats, streamed
// and not; the chunk shapes of each OpenAI backend quirk; the validations real providers apply;
// each injected fault; the control endpoints; HTTPS with a test CA; the CLI; many streams at once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { freePort, here, listening, makeTestCertificates, runProcess, startProcess } from './support.mjs';

let llm;
before(async () => { llm = await startFakeLlm(); });
after(() => llm.close());

const KEY = { authorization: 'Bearer test-key' };
const chat = (body, headers = KEY) => fetch(`${llm.url}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'gpt-test', ...body }),
});
const user = (content) => [{ role: 'user', content }];

/** The parsed `data:` payloads of an SSE body ('[DONE]' kept as the string). */
function sse(text) {
  return text.split(/\r?\n\r?\n/).filter((block) => block !== '').map((block) => {
    assert.match(block, /^data: /);
    const data = block.slice(6);
    return data === '[DONE]' ? data : JSON.parse(data);
  });
}
async function chatStream(body) {
  const response = await chat({ stream: true, ...body });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type'), /^text\/event-stream/);
  return sse(await response.text());
}
const deltas = (chunks) => chunks.filter((c) => c !== '[DONE]' && c.choices?.length).map((c) => c.choices[0].delta);
const textOf = (chunks) => deltas(chunks).map((d) => d.content ?? '').join('');
const toolDeltas = (chunks) => deltas(chunks).flatMap((d) => d.tool_calls ?? []);
const finishOf = (chunks) => chunks.filter((c) => c !== '[DONE]' && c.choices?.length).at(-1).choices[0].finish_reason;

const gemini = (model, body, { stream = true, headers = { 'x-goog-api-key': 'test-key' }, query = stream ? '?alt=sse' : '' } = {}) =>
  fetch(`${llm.url}/v1beta/models/${model}:${stream ? 'streamGenerateContent' : 'generateContent'}${query}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
const userTurn = (text) => ({ role: 'user', parts: [{ text }] });
async function geminiStream(model, body) {
  const response = await gemini(model, body);
  assert.equal(response.status, 200, await response.clone().text());
  const text = await response.text();
  assert.ok(text.endsWith('\r\n\r\n'), 'events end with \\r\\n\\r\\n');
  assert.ok(!text.includes('[DONE]'));
  return text.split('\r\n\r\n').slice(0, -1).map((block) => JSON.parse(block.replace(/^data: /, '')));
}
const partsOf = (chunks) => chunks.flatMap((c) => c.candidates[0].content?.parts ?? []);

/** Reads a body until it ends or breaks: { text, error }. */
async function readAll(response) {
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
    return { text, error: null };
  } catch (error) {
    return { text, error };
  }
}

describe('OpenAI chat completions', () => {
  test('streams text in pieces ending with [DONE]; a usage chunk only when asked', async () => {
    const plain = await chatStream({ messages: [{ role: 'system', content: 'ignored' }, ...user('hello fake world')] });
    assert.equal(plain.at(-1), '[DONE]');
    assert.equal(textOf(plain), 'You said: hello fake world');
    assert.ok(deltas(plain).every((d) => (d.content ?? '').length <= 8));
    assert.equal(deltas(plain)[0].role, 'assistant');
    assert.equal(finishOf(plain), 'stop');
    assert.ok(plain.slice(0, -1).every((c) => !('usage' in c)));

    const body = { stream_options: { include_usage: true }, messages: user('hello') };
    const counted = await chatStream(body);
    const usage = counted.at(-2);
    assert.deepEqual(usage.choices, []);
    assert.equal(usage.usage.prompt_tokens, Math.ceil(JSON.stringify({ model: 'gpt-test', stream: true, ...body }).length / 4));
    assert.equal(usage.usage.completion_tokens, Math.ceil('You said: hello'.length / 4));
    assert.equal(usage.usage.total_tokens, usage.usage.prompt_tokens + usage.usage.completion_tokens);
  });

  test('answers in one chat.completion without stream', async () => {
    const response = await chat({ messages: user('call lookup {"q": "x"}') });
    const completion = await response.json();
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.choices[0].finish_reason, 'tool_calls');
    const [call] = completion.choices[0].message.tool_calls;
    assert.match(call.id, /^call_/);
    assert.deepEqual(call.function, { name: 'lookup', arguments: '{"q":"x"}' });
    assert.ok(completion.usage.total_tokens > 0);
    const text = await (await chat({ messages: user('echo a b') })).json();
    assert.equal(text.choices[0].message.content, 'a b');
  });

  test('echo, long, fenced and slow', async () => {
    assert.deepEqual(deltas(await chatStream({ messages: user('echo one two  three') })).map((d) => d.content).filter(Boolean),
      ['one ', 'two  ', 'three']);
    const long = await chatStream({ messages: user('long 50') });
    assert.equal(textOf(long).trim().split(' ').length, 50);
    assert.equal(textOf(await chatStream({ messages: user('fenced fs__read {"path": "/tmp"}') })),
      'I will use the fs__read tool.\n```json\n{"tool": "fs__read", "arguments": {"path": "/tmp"}}\n```');
    const start = Date.now();
    const slow = await chatStream({ messages: user('slow 3 150') });
    assert.ok(Date.now() - start >= 290);
    assert.deepEqual(deltas(slow).map((d) => d.content).filter(Boolean), ['chunk 1 ', 'chunk 2 ', 'chunk 3 ']);
  });

  test('a cancelled slow stream leaves the fake serving', async () => {
    const response = await chat({ stream: true, messages: user('slow 50 100') });
    const reader = response.body.getReader();
    await reader.read();
    await reader.cancel();
    assert.equal(textOf(await chatStream({ messages: user('echo still here') })), 'still here');
  });

  test('standard tool-call chunks: head with id, type, name and "", then ~5-char fragments; preamble text first', async () => {
    const chunks = await chatStream({ messages: user('Let me look.\ncall weather__get {"city": "Paris"}\ncall clock__now {}') });
    assert.equal(textOf(chunks), 'Let me look.');
    const tools = toolDeltas(chunks);
    const heads = tools.filter((t) => t.id);
    assert.equal(heads.length, 2);
    assert.deepEqual(heads.map((h) => [h.index, h.type, h.function.name, h.function.arguments]),
      [[0, 'function', 'weather__get', ''], [1, 'function', 'clock__now', '']]);
    const fragments = tools.filter((t) => !t.id);
    assert.ok(fragments.every((f) => f.function.arguments.length <= 5 && !('name' in f.function) && Number.isInteger(f.index)));
    assert.equal(fragments.filter((f) => f.index === 0).map((f) => f.function.arguments).join(''), '{"city":"Paris"}');
    assert.equal(finishOf(chunks), 'tool_calls');
  });

  test('tool results are answered "Tool <name> answered: …", one line each, cut to 300 characters', async () => {
    const assistant = { role: 'assistant', content: null, tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'weather__get', arguments: '{}' } },
      { id: 'c2', type: 'function', function: { name: 'big', arguments: '{}' } }] };
    const messages = [...user('x'), assistant, { role: 'tool', tool_call_id: 'c1', content: '{ "tempC": 18 }' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'y'.repeat(400) }] }];
    const lines = textOf(await chatStream({ messages })).split('\n');
    assert.equal(lines[0], 'Tool weather__get answered: {"tempC":18}');
    assert.equal(lines[1], `Tool big answered: "${'y'.repeat(299)}`);
  });

  test('quirk-ollama: whole calls, all index 0 with distinct ids, finish "stop"', async () => {
    const chunks = await chatStream({ model: 'quirk-ollama', messages: user('call a {"p": 1}\ncall b {"p": 2}') });
    const tools = toolDeltas(chunks);
    assert.deepEqual(tools.map((t) => [t.index, t.function.name, t.function.arguments]), [[0, 'a', '{"p":1}'], [0, 'b', '{"p":2}']]);
    assert.notEqual(tools[0].id, tools[1].id);
    assert.ok(deltas(chunks).every((d) => d.role === 'assistant'));
    assert.equal(finishOf(chunks), 'stop');
  });

  test('quirk-noindex: one whole call a chunk, no index', async () => {
    const tools = toolDeltas(await chatStream({ model: 'quirk-noindex', messages: user('call a {"p": 1}\ncall b {}') }));
    assert.deepEqual(tools.map((t) => ['index' in t, t.function.name, t.function.arguments, typeof t.id]),
      [[false, 'a', '{"p":1}', 'string'], [false, 'b', '{}', 'string']]);
  });

  test('quirk-noid: no id on tool calls, arguments fragmented', async () => {
    const chunks = await chatStream({ model: 'quirk-noid', messages: user('call a {"path": "/long/enough"}') });
    const tools = toolDeltas(chunks);
    assert.ok(tools.every((t) => !('id' in t) && t.index === 0));
    assert.ok(tools.length > 3);
    assert.equal(tools.map((t) => t.function.arguments).join(''), '{"path":"/long/enough"}');
    assert.equal(finishOf(chunks), 'tool_calls');
    const whole = await (await chat({ model: 'quirk-noid', messages: user('call a {}') })).json();
    assert.ok(!('id' in whole.choices[0].message.tool_calls[0]));
  });

  test('quirk-stop: standard fragments but finish "stop"', async () => {
    const chunks = await chatStream({ model: 'quirk-stop', messages: user('call a {"p": 1}') });
    assert.equal(toolDeltas(chunks)[0].id.startsWith('call_'), true);
    assert.equal(finishOf(chunks), 'stop');
  });

  test('quirk-vllm: a final usage-only chunk with "choices": null', async () => {
    const chunks = await chatStream({ model: 'quirk-vllm', stream_options: { include_usage: true }, messages: user('hi') });
    assert.equal(chunks.at(-2).choices, null);
    assert.ok(chunks.at(-2).usage.completion_tokens > 0);
  });

  test('validates like the real API', async () => {
    const problem = async (body, headers) => {
      const response = await chat(body, headers);
      assert.ok(response.status >= 400);
      const { error } = await response.json();
      assert.equal(typeof error.message, 'string');
      assert.ok('type' in error && 'param' in error && 'code' in error);
      return { status: response.status, ...error };
    };
    assert.equal((await problem({ messages: user('hi') }, {})).status, 401);
    assert.equal((await problem({ messages: user('hi') }, { authorization: 'Bearer wrong' })).code, 'invalid_api_key');
    const tool = (name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
    const badName = await problem({ messages: user('hi'), tools: [tool('ok'), tool('fs.read')] });
    assert.equal(badName.status, 400);
    assert.equal(badName.param, 'tools[1].function.name');
    assert.match(badName.message, /does not match pattern/);
    assert.equal((await problem({ messages: user('hi'), tools: [tool('x'.repeat(65))] })).code, 'string_above_max_length');
    const orphan = await problem({ messages: [...user('hi'), { role: 'tool', tool_call_id: 'nope', content: '1' }] });
    assert.match(orphan.message, /must be a response to a preceeding message with 'tool_calls'/);
    const call = { id: 'c1', type: 'function', function: { name: 'a', arguments: { p: 1 } } };
    const answered = { role: 'tool', tool_call_id: 'c1', content: '1' };
    const objectArgs = await problem({ messages: [...user('hi'), { role: 'assistant', tool_calls: [call] }, answered] });
    assert.equal(objectArgs.param, 'messages[1].tool_calls[0].function.arguments');
    call.function.arguments = '{}';
    const unanswered = await problem({ messages: [...user('hi'), { role: 'assistant', tool_calls: [call] }, ...user('and?')] });
    assert.match(unanswered.message, /did not have response messages: c1/);
    assert.match((await problem({ messages: [{ role: 'robot', content: 'x' }] })).message, /Supported values are/);
  });
});

describe('Gemini generateContent', () => {
  test('streams text as SSE with \\r\\n\\r\\n and no [DONE]; cumulative usage; finishReason last', async () => {
    const chunks = await geminiStream('gemini-test',
      { systemInstruction: { parts: [{ text: 'ignored' }] }, contents: [userTurn('echo a b c')] });
    assert.deepEqual(partsOf(chunks).map((p) => p.text), ['a ', 'b ', 'c']);
    assert.ok(chunks.every((c) => c.candidates[0].content.role === 'model' && c.modelVersion === 'gemini-test'));
    assert.equal(chunks.at(-1).candidates[0].finishReason, 'STOP');
    assert.ok(chunks.slice(0, -1).every((c) => !c.candidates[0].finishReason));
    const counts = chunks.map((c) => c.usageMetadata.candidatesTokenCount);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b));
    const last = chunks.at(-1).usageMetadata;
    assert.equal(last.totalTokenCount, last.promptTokenCount + last.candidatesTokenCount);
  });

  test('answers in one GenerateContentResponse, and as a JSON array without alt=sse', async () => {
    const body = { contents: [userTurn('hello')] };
    const whole = await (await gemini('gemini-test', body, { stream: false })).json();
    assert.deepEqual(whole.candidates[0].content.parts, [{ text: 'You said: hello' }]);
    assert.equal(whole.candidates[0].finishReason, 'STOP');
    const array = await (await gemini('gemini-test', body, { query: '' })).json();
    assert.ok(Array.isArray(array) && array.length > 1);
    assert.equal(partsOf(array).map((p) => p.text).join(''), 'You said: hello');
  });

  test('function calls come whole, with unique thought signatures, which must come back', async () => {
    const ask = userTurn('call a {"x": 1, "y": [2]}\ncall a {"x": 1, "y": [2]}');
    const chunks = await geminiStream('gemini-test', { contents: [ask] });
    const calls = partsOf(chunks).filter((p) => p.functionCall);
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[0].functionCall, { name: 'a', args: { x: 1, y: [2] } });
    assert.match(calls[0].thoughtSignature, /^[A-Za-z0-9+/]+=*$/);
    assert.notEqual(calls[0].thoughtSignature, calls[1].thoughtSignature);
    const results = { role: 'user', parts: calls.map(() => ({ functionResponse: { name: 'a', response: { ok: true } } })) };
    // The host may rewrite args with other key order: the call is still recognised.
    const echoed = calls.map((p) => ({ functionCall: { name: 'a', args: { y: [2], x: 1 } }, thoughtSignature: p.thoughtSignature }));
    const answer = await geminiStream('gemini-test', { contents: [ask, { role: 'model', parts: echoed }, results] });
    assert.equal(partsOf(answer).map((p) => p.text).join(''), 'Tool a answered: {"ok":true}\nTool a answered: {"ok":true}');

    const unsigned = { role: 'model', parts: [{ functionCall: calls[0].functionCall }] };
    const missing = await gemini('gemini-test', { contents: [ask, unsigned, results] });
    assert.equal(missing.status, 400);
    assert.match((await missing.json()).error.message, /^Function call is missing a thought_signature/);
    const swapped = [{ functionCall: { name: 'b', args: {} }, thoughtSignature: calls[0].thoughtSignature }];
    assert.equal((await gemini('gemini-test', { contents: [ask, { role: 'model', parts: swapped }, results] })).status, 400);
    // Calls the fake never made (a hand-written history) need no signature.
    const foreign = { role: 'model', parts: [{ functionCall: { name: 'other', args: {} } }] };
    assert.equal((await gemini('gemini-test', { contents: [ask, foreign, results] })).status, 200);
  });

  test('ids on calls for models named with-ids; malformed args end with MALFORMED_FUNCTION_CALL', async () => {
    const [part] = partsOf(await geminiStream('gemini-with-ids', { contents: [userTurn('call a {}')] })).filter((p) => p.functionCall);
    assert.match(part.functionCall.id, /^fc_/);
    const bad = await geminiStream('gemini-test', { contents: [userTurn('call a {not json')] });
    assert.equal(bad.at(-1).candidates[0].finishReason, 'MALFORMED_FUNCTION_CALL');
  });

  test('validates like the real API', async () => {
    const problem = async (body, options) => {
      const response = await gemini('gemini-test', body, options);
      const { error } = await response.json();
      assert.equal(error.code, response.status);
      return error;
    };
    const hi = [userTurn('hi')];
    assert.equal((await problem({ contents: hi }, { headers: {} })).status, 'PERMISSION_DENIED');
    const wrong = await problem({ contents: hi }, { headers: { 'x-goog-api-key': 'wrong' } });
    assert.equal(wrong.details[0].reason, 'API_KEY_INVALID');
    assert.equal((await gemini('gemini-test', { contents: hi }, { headers: {}, query: '?alt=sse&key=test-key' })).status, 200);
    const role = await problem({ contents: [...hi, { role: 'function', parts: [{ functionResponse: { name: 'a', response: {} } }] }] });
    assert.deepEqual([role.code, role.status, role.message], [400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.']);
    const declare = (declaration) => ({ contents: hi, tools: [{ functionDeclarations: [declaration] }] });
    assert.match((await problem(declare({ name: '1abc' }))).message, /Invalid function name/);
    assert.match((await problem(declare({ name: 'a'.repeat(65) }))).message, /Invalid function name/);
    const legacy = await problem(declare({ name: 'fs__read', parameters: { $schema: 'x', type: 'object' } }));
    assert.match(legacy.message, /^Invalid JSON payload received. Unknown name "\$schema"/);
    const strict = { type: 'object', properties: { p: { type: 'object', additionalProperties: false } } };
    const nested = await problem(declare({ name: 'f', parameters: strict }));
    assert.ok(nested.message.includes(
      `Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters.properties[0].value'`), nested.message);
    const modern = declare({ name: 'fs.read-1', parametersJsonSchema: { $schema: 'x', type: 'object', additionalProperties: false } });
    assert.equal((await gemini('gemini-test', modern)).status, 200);
    const notObject = await problem({ contents: [...hi, { role: 'model', parts: [{ functionCall: { name: 'never_called', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'never_called', response: [1] } }] }] });
    assert.match(notObject.message, /function_response\.response/);
  });
});

describe('faults and control', () => {
  test('429 in each format: retry-after header or RetryInfo', async () => {
    llm.failNext([{ status: 429, retryAfter: 3 }, { status: 429, retryAfter: 2 }]);
    const openai = await chat({ messages: user('hi') });
    assert.equal(openai.status, 429);
    assert.equal(openai.headers.get('retry-after'), '3');
    assert.equal((await openai.json()).error.code, 'rate_limit_exceeded');
    const google = await gemini('gemini-test', { contents: [userTurn('hi')] });
    assert.equal(google.status, 429);
    const { error } = await google.json();
    assert.equal(error.status, 'RESOURCE_EXHAUSTED');
    assert.deepEqual(error.details, [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }]);
  });

  test('500 and 503, consumed one per request, in order', async () => {
    llm.failNext([{ status: 500 }, { status: 503 }]);
    assert.equal((await chat({ messages: user('hi') })).status, 500);
    const unavailable = await gemini('gemini-test', { contents: [userTurn('hi')] });
    assert.equal(unavailable.status, 503);
    assert.equal((await unavailable.json()).error.status, 'UNAVAILABLE');
    assert.equal((await chat({ messages: user('hi') })).status, 200);
  });

  test('drop after 2 events breaks the stream; a dropped plain answer is cut short', async () => {
    llm.failNext([{ drop: true, afterChunks: 2 }, { drop: true, afterChunks: 2 }, { drop: true }]);
    const openai = await readAll(await chat({ stream: true, messages: user('long 20') }));
    assert.ok(openai.error);
    assert.equal(sse(openai.text).length, 2);
    const google = await readAll(await gemini('gemini-test', { contents: [userTurn('long 20')] }));
    assert.ok(google.error);
    assert.equal(google.text.split('\r\n\r\n').length - 1, 2);
    await assert.rejects((await chat({ messages: user('hi') })).json());
  });

  test('the HTTP control endpoints: /_control, /_requests, /_reset', async () => {
    const control = (what, body) => fetch(`${llm.url}/${what}`, { method: body ? 'POST' : 'GET', body: body && JSON.stringify(body) });
    assert.equal((await control('_reset', {})).status, 200);
    assert.deepEqual(await (await control('_control', { failNext: [{ status: 503 }] })).json(), { queued: 1 });
    assert.equal((await control('_control', { failNext: [{ nonsense: 1 }] })).status, 400);
    assert.equal((await gemini('gemini-x', { contents: [userTurn('hi')] }, { query: '?alt=sse&key=test-key' })).status, 503);
    const [recorded] = await (await control('_requests')).json();
    assert.deepEqual([recorded.method, recorded.path, recorded.query],
      ['POST', '/v1beta/models/gemini-x:streamGenerateContent', { alt: 'sse', key: 'test-key' }]);
    assert.equal(recorded.headers['content-type'], 'application/json');
    assert.deepEqual(recorded.body, { contents: [userTurn('hi')] });
    assert.equal(llm.requests.length, 1);
    llm.failNext({ status: 500 });
    await control('_reset', {});
    assert.equal(llm.requests.length, 0);
    assert.equal((await chat({ messages: user('hi') })).status, 200);
    assert.throws(() => llm.failNext([{ status: 'soon' }]), TypeError);
  });

  test('100 concurrent streams', async () => {
    const texts = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      chatStream({ model: i % 2 ? 'quirk-ollama' : 'gpt-test', messages: user(`echo stream ${i} done`) }).then(textOf)));
    texts.forEach((text, i) => assert.equal(text, `stream ${i} done`));
  });
});

describe('HTTPS and the command line', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-llm-'));
  before(() => makeTestCertificates(work));
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  test('serves HTTPS with a certificate from the test CA', async () => {
    const read = (name) => fs.readFileSync(path.join(work, name), 'utf8');
    const secure = await startFakeLlm({ tls: { key: read('good.key'), cert: read('good.pem') } });
    try {
      assert.match(secure.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const post = (agent) => new Promise((resolve, reject) => {
        const request = https.request(`${secure.url}/v1/chat/completions`, { method: 'POST', agent, headers: KEY }, (response) => {
          let text = '';
          response.on('data', (chunk) => { text += chunk; });
          response.on('end', () => resolve(JSON.parse(text)));
        });
        request.on('error', reject);
        request.end(JSON.stringify({ model: 'm', messages: user('echo over tls') }));
      });
      const answer = await post(new https.Agent({ ca: read('ca.pem') }));
      assert.equal(answer.choices[0].message.content, 'over tls');
      await assert.rejects(post(new https.Agent()), /self-signed|unable to verify|certificate/i);
    } finally {
      await secure.close();
    }
  });

  test('the CLI prints its URL and serves fetch over TLS (NODE_EXTRA_CA_CERTS)', async () => {
    const cli = spawn(process.execPath, [path.join(here, 'fake-llm.mjs'), '--port', '0',
      '--tls-cert', path.join(work, 'good.pem'), '--tls-key', path.join(work, 'good.key')], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise((resolve, reject) => {
        let out = '';
        cli.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /^fake-llm listening on (https:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
          if (match) resolve(match[1]);
        });
        cli.on('exit', (code) => reject(new Error(`fake-llm exited ${code}`)));
      });
      const script = `const r = await fetch(${JSON.stringify(`${url}/v1beta/models/g:generateContent`)}, { method: 'POST',
        headers: { 'x-goog-api-key': 'test-key' }, body: JSON.stringify({ contents: [{ parts: [{ text: 'echo via cli' }] }] }) });
        console.log((await r.json()).candidates[0].content.parts[0].text);`;
      const run = await runProcess(process.execPath, ['--input-type=module', '-e', script],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(work, 'ca.pem') } });
      assert.equal(run.stdout.trim(), 'via cli', run.stderr);
    } finally {
      cli.kill();
    }
  });
});

describe("the benchmark's C++ fake (bench/host-load, HOST_LOAD)", () => {
  // bench/run-host.sh drives both hosts with `host_load fake-llm`, which must answer as this fake
  // does: the same events, bytes and all, but for the random ids and the clock.
  test('streams the same events as this fake for text, tool calls and tool results', async () => {
    assert.ok(process.env.HOST_LOAD, 'HOST_LOAD names the host_load binary (set by CTest)');
    const port = await freePort();
    const native = startProcess(process.env.HOST_LOAD, ['fake-llm', '--port', String(port), '--api-key', 'test-key']);
    try {
      await listening(native, port, 'host_load fake-llm');
      const tools = [{ type: 'function', function: { name: 'everything__echo', description: 'Echoes', parameters: { type: 'object' } } }];
      const callId = 'call_given';
      const bodies = [
        { messages: [{ role: 'system', content: 'Be brief.' }, ...user('echo alpha  beta gamma')] },
        { messages: user('call everything__echo {"text": "unique-42"}'), tools, tool_choice: 'auto' },
        { messages: [...user('call everything__echo {"text":"unique-42"}'),
          { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'everything__echo', arguments: '{"text":"unique-42"}' } }] },
          { role: 'tool', tool_call_id: callId, content: 'Echo: unique-42' }], tools },
        { messages: user('what is this?') },
      ];
      // Ids and timestamps are the only parts allowed to differ.
      const normal = (text) => text.replace(/chatcmpl-[0-9a-f]+/g, 'chatcmpl-ID').replace(/call_[0-9a-f]{24}/g, 'call_ID')
        .replace(/"created":\d+/g, '"created":0');
      for (const body of bodies) {
        const request = JSON.stringify({ model: 'fake-model', stream: true, stream_options: { include_usage: true }, temperature: 0.7, ...body });
        const answers = [];
        for (const url of [llm.url, `http://127.0.0.1:${port}`]) {
          const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...KEY }, body: request });
          assert.equal(response.status, 200);
          answers.push({ type: response.headers.get('content-type'), text: normal(await response.text()) });
        }
        assert.deepEqual(answers[1], answers[0], `for ${request}`);
        assert.ok(sse(answers[0].text).length >= 4);
      }
    } finally {
      native.kill();
      await native.exited;
    }
  });
});
