// `mcpkit host` against the provider behaviours that used to break it, each one a scenario of the
// fake LLM written from the provider's documentation (the citations are in fake-llm-scenarios.mjs):
// current OpenAI models' parameters, DeepSeek's reasoning_content, Gemini 3's thought signatures
// through the OpenAI-compatible layer, answers cut short (refusal, length, content filter, SAFETY,
// RECITATION, MAX_TOKENS), empty and compressed streams, characters split between events, billing
// 429s, usage where Groq puts it, reasoning kept out of the answer, and Anthropic's Messages API.
// Every turn must end with text or a stated reason.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';

const work = workFolder();
const config = writeConfig(work.folder, {
  mcpServers: { everything: everythingServer({ approval: 'auto' }) },
});
let llm;

before(async () => { llm = await startFakeLlm(); });
after(async () => { await llm.close(); work.remove(); });

async function withHost(options, body) {
  const host = await startHost({ config, llm, ...options });
  try {
    const page = await connectPage(host.port);
    await page.next('servers', (p) => p.servers.some((s) => s.state === 'ready'));
    llm.reset();
    await body(page, host);
    page.close();
  } finally {
    await host.stop();
  }
}

const echoCall = (text) => `call everything__echo ${JSON.stringify({ text })}`;
const toolResults = (turn) => turn.frames.filter((f) => f.type === 'status' && f.payload.state === 'complete')
  .map((f) => f.payload.data.content[0].text);
const posts = () => llm.requests.filter((r) => r.method === 'POST');

describe('current models take the request as sent', () => {
  test('gpt-5/o-series: nothing optional sent unless configured', async () => {
    await withHost({ model: 'scenario-gpt5-params' }, async (page) => {
      const turn = await chat(page, 'echo hello');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(posts().length, 1);
      const body = posts()[0].body;
      for (const name of ['temperature', 'max_tokens', 'max_completion_tokens']) assert.equal(body[name], undefined, name);
    });
  });

  test('gpt-5/o-series: --max-tokens and --temperature refused one by one, left out, and remembered for the model', async () => {
    await withHost({ model: 'scenario-gpt5-params', args: ['--max-tokens', '1000', '--temperature', '0.7'] }, async (page) => {
      const turn = await chat(page, 'echo hello');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'hello');
      const sent = posts().map((r) => [r.body.max_tokens, r.body.max_completion_tokens, r.body.temperature]);
      assert.deepEqual(sent, [[1000, undefined, 0.7], [undefined, 1000, 0.7], [undefined, 1000, undefined]]);
      llm.reset();
      assert.equal((await chat(page, 'echo again')).text, 'again');
      assert.equal(posts().length, 1, 'remembered: no refusal the second time');
      assert.equal(posts()[0].body.max_completion_tokens, 1000);
      assert.equal(posts()[0].body.temperature, undefined);
    });
  });

  test('DeepSeek thinking with tools: reasoning shown apart and sent back with the calls it led to', async () => {
    await withHost({ model: 'scenario-deepseek-thinking' }, async (page) => {
      const turn = await chat(page, echoCall('deep'));
      assert.equal(turn.state, 'finished', turn.message);
      assert.deepEqual(toolResults(turn), ['deep']);
      assert.ok(turn.reasoning.length > 0, 'reasoning reported');
      assert.ok(!turn.text.includes(turn.reasoning.slice(0, 20)), 'reasoning is not answer text');
      // A later turn sends the whole history: the fake refuses it without reasoning_content.
      const next = await chat(page, 'echo and then');
      assert.equal(next.state, 'finished', next.message);
      const assistants = posts().at(-1).body.messages.filter((m) => m.role === 'assistant');
      assert.ok(assistants.every((m) => typeof m.reasoning_content === 'string'), 'every answer of the tool stretch');
    });
  });

  test('Gemini 3 through the OpenAI-compatible layer: each call\'s thought signature goes back', async () => {
    await withHost({ model: 'scenario-gemini3-compat' }, async (page) => {
      const turn = await chat(page, echoCall('signed'));
      assert.equal(turn.state, 'finished', turn.message);
      assert.deepEqual(toolResults(turn), ['signed']);
      const call = posts().at(-1).body.messages.find((m) => m.tool_calls).tool_calls[0];
      assert.equal(typeof call.extra_content.google.thought_signature, 'string');
    });
  });
});

describe('answers that end short say why, and keep what arrived', () => {
  const cases = [
    ['refusal', 'openai', /^The model refused: .+/, false],
    ['length', 'openai', /^The model stopped: output limit reached\.$/, true],
    ['content-filter', 'openai', /^The provider's content filter ended the answer\.$/, true],
    ['safety', 'gemini', /^The provider's safety filter ended the answer \(SAFETY\)\.$/, true],
    ['recitation', 'gemini', /RECITATION/, false],
    ['thinking-max-tokens', 'gemini', /thinking used the whole output limit/, false],
    ['claude-max-tokens', 'anthropic', /^The model stopped: output limit reached\.$/, true],
    ['claude-refusal', 'anthropic', /^The model refused/, false],
    ['claude-pause-turn', 'anthropic', /pause_turn/, false],
  ];
  for (const [scenario, provider, notice, withText] of cases) {
    test(`${provider} ${scenario}`, async () => {
      await withHost({ provider, model: `scenario-${scenario}` }, async (page, host) => {
        const turn = await chat(page, 'echo one two three four five six seven eight');
        assert.equal(turn.state, 'finished', turn.message);
        assert.match(turn.notice ?? '', notice);
        if (withText) assert.ok(turn.text.length > 0, 'the text that arrived is kept');
        const again = await connectPage(host.port, { sessionId: page.connection.sessionId });
        const answer = (await again.next('history')).messages.at(-1);
        again.close();
        assert.equal(answer.ending, turn.notice, 'the reason is part of the history');
        assert.equal(answer.content, turn.text);
      });
    });
  }
});

describe('streams that used to break the parser or end silently', () => {
  test('an emoji cut between its UTF-16 halves, in text and in tool arguments, is joined', async () => {
    await withHost({ model: 'scenario-split-surrogates' }, async (page) => {
      const said = await chat(page, 'echo hi');
      assert.equal(said.state, 'finished', said.message);
      assert.equal(said.text, 'hi 😀 done');
      assert.equal(posts().length, 1, 'read at once, not retried');
      const called = await chat(page, echoCall('smile 😀 and 🎉'));
      assert.equal(called.state, 'finished', called.message);
      assert.deepEqual(toolResults(called), ['smile 😀 and 🎉']);
    });
  });

  test('a gateway that compresses: the host asks for identity and reads the stream', async () => {
    await withHost({ model: 'scenario-gzip' }, async (page) => {
      const turn = await chat(page, 'echo not compressed');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'not compressed');
      assert.equal(posts()[0].headers['accept-encoding'], 'identity');
    });
  });

  test('HTTP 200 with an empty stream is a failure, retried with the wait shown', async () => {
    await withHost({}, async (page) => {
      llm.failNext([{ empty: true }]);
      const turn = await chat(page, 'echo second time');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'second time');
      const wait = turn.frames.find((f) => f.type === 'retrying').payload;
      assert.deepEqual([wait.attempt, wait.attempts, wait.reason], [2, 4, 'The model server sent an empty answer.']);
    });
  });

  test('a billing 429 (insufficient_quota) is said plainly and not retried', async () => {
    await withHost({ model: 'scenario-insufficient-quota' }, async (page) => {
      const turn = await chat(page, 'echo hi');
      assert.equal(turn.state, 'failed');
      assert.match(turn.message, /quota is used up\. Check its plan and billing/);
      assert.match(turn.details, /insufficient_quota/);
      assert.equal(posts().length, 1);
      assert.equal(turn.frames.filter((f) => f.type === 'retrying').length, 0);
    });
  });

  test('usage read where Groq puts it (x_groq.usage)', async () => {
    await withHost({ model: 'scenario-groq-usage' }, async (page) => {
      const turn = await chat(page, 'echo counted');
      assert.equal(turn.state, 'finished', turn.message);
      const usage = page.frames.filter((f) => f.type === 'usage').at(-1).payload;
      assert.ok(usage.totalTokens > 0 && usage.completionTokens > 0, JSON.stringify(usage));
    });
  });

  test('reasoning in `reasoning` (OpenRouter, vLLM) and Gemini thought parts stays out of the answer', async () => {
    for (const [provider, model] of [['openai', 'scenario-reasoning-field'], ['gemini', 'scenario-thoughts']]) {
      await withHost({ provider, model }, async (page) => {
        const turn = await chat(page, 'echo the answer');
        assert.equal(turn.state, 'finished', `${provider}: ${turn.message}`);
        assert.equal(turn.text, 'the answer', provider);
        assert.ok(turn.reasoning.length > 0, `${provider}: reasoning reported apart`);
      });
    }
  });

  test('--text-tool-calls: the fenced call is not shown as answer text', async () => {
    await withHost({ args: ['--text-tool-calls'] }, async (page) => {
      const turn = await chat(page, 'fenced everything__echo {"text":"from a fence"}');
      assert.equal(turn.state, 'finished', turn.message);
      assert.deepEqual(toolResults(turn), ['from a fence']);
      assert.doesNotMatch(turn.text, /```|"tool"/);
      assert.match(turn.text, /I will use the everything__echo tool\./);
    });
  });
});

describe("Anthropic's Messages API", () => {
  test('streamed text, parallel tool use and tool results, with the documented headers', async () => {
    await withHost({ provider: 'anthropic', model: 'claude-fake' }, async (page) => {
      const turn = await chat(page, `${echoCall('first')}\n${echoCall('second')}`);
      assert.equal(turn.state, 'finished', turn.message);
      assert.deepEqual(toolResults(turn), ['first', 'second']);
      const last = posts().at(-1);
      assert.equal(last.path, '/v1/messages');
      assert.equal(last.headers['anthropic-version'], '2023-06-01');
      assert.equal(last.headers['x-api-key'], 'test-key');
      assert.equal(last.body.stream, true);
      assert.ok(last.body.max_tokens > 0);
      const results = last.body.messages.at(-1).content;
      assert.deepEqual(results.map((b) => b.type), ['tool_result', 'tool_result'], 'both results in one user message');
      const usage = page.frames.filter((f) => f.type === 'usage').at(-1).payload;
      assert.ok(usage.promptTokens > 0 && usage.completionTokens > 0);
    });
  });

  test('extended thinking: reasoning shown apart, signed thinking blocks sent back unchanged with the calls', async () => {
    await withHost({ provider: 'anthropic', model: 'claude-fake', args: ['--thinking-budget', '2048'] }, async (page) => {
      const turn = await chat(page, echoCall('thought through'));
      assert.equal(turn.state, 'finished', turn.message);
      assert.deepEqual(toolResults(turn), ['thought through']);
      assert.ok(turn.reasoning.length > 0);
      const assistant = posts().at(-1).body.messages.find((m) => m.role === 'assistant');
      assert.equal(assistant.content[0].type, 'thinking');
      assert.equal(typeof assistant.content[0].signature, 'string');
      assert.equal((await chat(page, 'echo next turn')).state, 'finished');
    });
  });

  test('overloaded (529, and mid-stream) and 429 with retry-after are retried', async () => {
    await withHost({ provider: 'anthropic', model: 'claude-fake' }, async (page) => {
      llm.failNext([{ status: 529 }, { overloaded: true, afterChunks: 1 }, { status: 429, retryAfter: 1 }]);
      const turn = await chat(page, 'echo at last');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'at last');
      const reasons = turn.frames.filter((f) => f.type === 'retrying').map((f) => f.payload.reason);
      assert.deepEqual(reasons, ['Anthropic is overloaded. Try again in a moment.', 'Anthropic failed mid-answer: Overloaded',
        'Anthropic is limiting requests (too many, or too large). Wait a little and send again.']);
    });
  });

  test('a server\'s sampling request is answered through it', async () => {
    await withHost({ provider: 'anthropic', model: 'claude-fake' }, async (page) => {
      page.send('message', { text: 'call everything__test_sampling {"prompt":"echo sampled words"}' });
      const request = await page.next('sampling_request');
      page.send('sampling', { requestId: request.requestId, decision: 'approve' });
      const turn = await page.next('turn', (p) => p.state !== 'started');
      assert.equal(turn.state, 'finished', turn.message);
      const done = page.frames.filter((f) => f.type === 'status' && f.payload.state === 'complete').at(-1).payload;
      assert.match(done.data.content[0].text, /LLM response: sampled words/);
      assert.ok(posts().some((r) => r.path === '/v1/messages' && JSON.stringify(r.body.messages).includes('echo sampled words')));
    });
  });
});

describe('the model picker', () => {
  for (const provider of ['openai', 'gemini', 'anthropic']) {
    test(`${provider}: the provider's models listed, one picked for this conversation`, async () => {
      await withHost({ provider, model: provider === 'anthropic' ? 'claude-fake' : 'fake-model' }, async (page, host) => {
        const fallback = page.frames.find((f) => f.type === 'servers').payload.llm.model;
        assert.equal(page.frames.filter((f) => f.type === 'model').length, 0, 'the default needs no frame of its own');
        page.send('list_models', { requestId: 'models-1' });
        const listed = await page.next('models', (p) => p.requestId === 'models-1');
        assert.equal(listed.error, undefined, listed.error);
        assert.ok(listed.models.some((m) => m.id === 'gpt-standard'), JSON.stringify(listed.models));
        page.send('set_model', { model: 'gpt-standard' });
        assert.equal((await page.next('model', (p) => p.model === 'gpt-standard')).default, fallback);
        assert.equal((await chat(page, 'echo picked')).state, 'finished');
        const post = posts().at(-1);
        const used = provider === 'gemini' ? post.path.match(/models\/([^:]+):/)[1] : post.body.model;
        assert.equal(used, 'gpt-standard');
        // Another tab, or a reload, joins the conversation on its model.
        const other = await connectPage(host.port, { sessionId: page.connection.sessionId });
        assert.equal((await other.next('model')).model, 'gpt-standard');
        other.close();
      });
    });
  }

  test('the pick outlives a restart: the conversation goes on with the model that last answered', async () => {
    const store = `sqlite:${work.folder}/picks.db`;
    const first = await startHost({ config, llm, store });
    let sessionId;
    try {
      const page = await connectPage(first.port);
      sessionId = page.connection.sessionId;
      page.send('set_model', { model: 'gpt-standard' });
      await page.next('model', (p) => p.model === 'gpt-standard');
      assert.equal((await chat(page, 'echo remembered')).state, 'finished');
      page.close();
    } finally {
      await first.stop();
    }
    const second = await startHost({ config, llm, store });
    try {
      const page = await connectPage(second.port, { sessionId });
      assert.equal((await page.next('model')).model, 'gpt-standard');
      llm.reset();
      assert.equal((await chat(page, 'echo still')).state, 'finished');
      assert.equal(posts().at(-1).body.model, 'gpt-standard');
      page.close();
    } finally {
      await second.stop();
    }
  });

  test('a server with no models list: the configured model still works, the page is told why', async () => {
    const bare = await startFakeLlm({ models: false });
    const host = await startHost({ config, llm: bare });
    try {
      const page = await connectPage(host.port);
      page.send('list_models', { requestId: 'models-2' });
      const listed = await page.next('models', (p) => p.requestId === 'models-2');
      assert.deepEqual(listed.models, []);
      assert.match(listed.error, /configured model \(fake-model\) still works/);
      assert.equal((await chat(page, 'echo still fine')).text, 'still fine');
      page.send('set_model', { model: '../../etc' });
      assert.match((await page.next('error')).message, /model/);
      page.close();
    } finally {
      await host.stop();
      await bare.close();
    }
  });
});
