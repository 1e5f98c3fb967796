// `mcpkit host` against local fake LLMs that speak the real wire formats (fake-llm.mjs): OpenAI
// chat completions with each backend's streaming quirk, Gemini's native API with thought
// signatures, the fenced-JSON fallback, HTTPS with a test CA, and the provider failing (429 with a
// retry delay, 500s, a stream that breaks). Tools come from the real `mcpkit everything` server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { makeTestCertificates } from './support.mjs';

const work = workFolder();
const config = writeConfig(work.folder, { mcpServers: { everything: everythingServer() } });
let llm;

before(async () => { llm = await startFakeLlm(); });
after(async () => { await llm.close(); work.remove(); });

async function withHost(options, body) {
  const host = await startHost({ config, llm, ...options });
  try {
    const page = await connectPage(host.port);
    await page.next('servers', (p) => p.servers.some((s) => s.state === 'ready'));
    await body(page, host);
    page.close();
  } finally {
    await host.stop();
  }
}

const twoCalls = 'call everything__echo {"text":"first"}\ncall everything__echo {"text":"second"}';

describe('OpenAI-compatible streaming, quirk by quirk', () => {
  for (const model of ['gpt-standard', 'quirk-ollama', 'quirk-noindex', 'quirk-noid', 'quirk-stop', 'quirk-vllm']) {
    test(`${model}: two parallel calls are told apart, run, and answered to the model`, async () => {
      await withHost({ model }, async (page) => {
        llm.reset();
        const turn = await chat(page, twoCalls);
        assert.equal(turn.state, 'finished', turn.message);
        const done = page.frames.filter((f) => f.type === 'status' && f.payload.state === 'complete');
        assert.deepEqual(done.map((f) => f.payload.arguments ?? null), [null, null]);
        const started = page.frames.filter((f) => f.type === 'status' && f.payload.state === 'processing');
        assert.deepEqual(started.map((f) => f.payload.arguments.text), ['first', 'second']);
        assert.equal(new Set(started.map((f) => f.payload.callId)).size, 2, 'distinct call ids');
        assert.deepEqual(done.map((f) => f.payload.data.content[0].text), ['first', 'second']);
        // The model got both results back, each under the id of its call (the fake refuses
        // tool messages that answer no call, so a finished turn already proves the pairing).
        assert.match(turn.text, /Tool everything__echo answered: "first"\nTool everything__echo answered: "second"/);
        const second = llm.requests.at(-1).body;
        const tools = second.messages.filter((m) => m.role === 'tool');
        assert.equal(tools.length, 2);
        const calls = second.messages.find((m) => m.tool_calls).tool_calls;
        assert.deepEqual(tools.map((m) => m.tool_call_id), calls.map((c) => c.id));
        const usage = page.frames.filter((f) => f.type === 'usage').at(-1).payload;
        assert.ok(usage.totalTokens > 0, 'token usage counted');
      });
    });
  }

  test('tool declarations: qualified names, the MCP schema as parameters, streamed with usage', async () => {
    await withHost({}, async (page) => {
      llm.reset();
      await chat(page, 'echo hello world');
      const body = llm.requests.at(-1).body;
      assert.equal(body.stream, true);
      assert.deepEqual(body.stream_options, { include_usage: true });
      const echo = body.tools.find((t) => t.function.name === 'everything__echo');
      assert.deepEqual(echo.function.parameters.required, ['text']);
      assert.ok(body.tools.every((t) => /^[a-zA-Z0-9_-]{1,64}$/.test(t.function.name)));
      assert.equal(body.messages[0].role, 'system');
    });
  });
});

describe('Gemini native API', () => {
  test('function calls with thought signatures echoed, results in a user turn, schemas as parametersJsonSchema', async () => {
    await withHost({ provider: 'gemini', model: 'gemini-fake' }, async (page) => {
      llm.reset();
      const turn = await chat(page, twoCalls);
      assert.equal(turn.state, 'finished', turn.message);
      assert.match(turn.text, /answered: .*first/);
      const second = llm.requests.at(-1);
      assert.match(second.path, /gemini-fake:streamGenerateContent$/);
      assert.equal(second.query.alt, 'sse');
      const { contents, tools, systemInstruction } = second.body;
      assert.ok(systemInstruction.parts[0].text.length > 0);
      assert.deepEqual(contents.map((c) => c.role), ['user', 'model', 'user']);
      assert.ok(contents[1].parts.every((p) => typeof p.thoughtSignature === 'string'), 'signatures echoed');
      assert.deepEqual(contents[2].parts.map((p) => p.functionResponse.name), ['everything__echo', 'everything__echo']);
      const declarations = tools[0].functionDeclarations;
      const schemaTool = declarations.find((d) => d.name === 'everything__json_schema_2020_12_tool');
      assert.ok(schemaTool.parametersJsonSchema, 'parametersJsonSchema, not the legacy parameters');
      assert.equal(schemaTool.parametersJsonSchema.$schema, undefined, '$schema is dropped');
      assert.equal(declarations.find((d) => d.name === 'everything__test_simple_text').parametersJsonSchema, undefined,
        'a tool without parameters declares none');
      // A second turn sends the whole history again: the signatures must still be there.
      const again = await chat(page, 'echo still here');
      assert.equal(again.state, 'finished', again.message);
    });
  });

  test('--llm-no-stream: whole answers (generateContent; "stream": false), tool calls and text read from them', async () => {
    for (const [provider, model] of [['gemini', 'gemini-fake'], ['openai', 'gpt-standard']]) {
      await withHost({ provider, model, args: ['--llm-no-stream'] }, async (page) => {
        llm.reset();
        const turn = await chat(page, twoCalls);
        assert.equal(turn.state, 'finished', `${provider}: ${turn.message}`);
        assert.match(turn.text, /answered: .*first.*\n.*answered: .*second/s, provider);
        assert.equal(llm.requests.length, 2, provider);
        for (const request of llm.requests) {
          if (provider === 'gemini') {
            assert.match(request.path, /gemini-fake:generateContent$/);
          } else {
            assert.equal(request.body.stream, false);
            assert.equal(request.body.stream_options, undefined, 'OpenAI refuses stream_options without a stream');
          }
        }
        assert.equal((await chat(page, 'echo all at once')).text, 'all at once', provider);
      });
    }
  });

  test('429 with RetryInfo is retried after the delay it asks for', async () => {
    await withHost({ provider: 'gemini', model: 'gemini-fake' }, async (page) => {
      llm.reset();
      llm.failNext([{ status: 429, retryAfter: 1 }]);
      const started = Date.now();
      const turn = await chat(page, 'echo after a pause');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'after a pause');
      assert.equal(llm.requests.length, 2);
      assert.ok(Date.now() - started >= 900, 'waited for the retry delay');
    });
  });
});

describe('models without native tool calling', () => {
  test('--text-tool-calls: tools described in the prompt, fenced JSON read back as a call', async () => {
    await withHost({ args: ['--text-tool-calls'] }, async (page) => {
      llm.reset();
      const turn = await chat(page, 'fenced everything__echo {"text":"from a fence"}');
      assert.equal(turn.state, 'finished', turn.message);
      const done = await page.next('status', (p) => p.state === 'complete');
      assert.equal(done.data.content[0].text, 'from a fence');
      const first = llm.requests[0].body;
      assert.equal(first.tools, undefined, 'no native tools sent');
      assert.match(first.messages[0].content, /everything__echo/);
      assert.match(llm.requests.at(-1).body.messages.at(-1).content, /Tool everything__echo answered: from a fence/);
    });
  });
});

describe('the provider failing', () => {
  test('500 three times, then an answer: retried 1 s apart', async () => {
    await withHost({}, async (page) => {
      llm.reset();
      llm.failNext([{ status: 500 }, { status: 503 }, { status: 500 }]);
      const turn = await chat(page, 'echo finally');
      assert.equal(turn.state, 'finished', turn.message);
      assert.equal(turn.text, 'finally');
      assert.equal(llm.requests.length, 4);
    });
  });

  test('failing past the retries: each wait shown, then one plain message with the details apart', async () => {
    await withHost({}, async (page, host) => {
      llm.reset();
      llm.failNext([{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }]);
      const turn = await chat(page, 'echo never');
      assert.equal(turn.state, 'failed');
      assert.equal(turn.message, 'The model server failed (HTTP 500). Try again in a moment.');
      assert.match(turn.details, /^openai answered 500: The server had an error/);
      assert.doesNotMatch(turn.message + turn.details, /127\.0\.0\.1|\{/, 'no internal address, no raw JSON');
      assert.equal(turn.text, '', 'said once: no fallback sentence beside the failure');
      const waits = turn.frames.filter((f) => f.type === 'retrying').map((f) => f.payload);
      assert.deepEqual(waits.map((w) => [w.attempt, w.attempts, w.delayMs]), [[2, 4, 1000], [3, 4, 1000], [4, 4, 1000]]);
      assert.equal(waits[0].reason, turn.message);
      // A reload shows the failure the same way: one failed answer in the history.
      const again = await connectPage(host.port, { sessionId: page.connection.sessionId });
      const failed = (await again.next('history')).messages.at(-1);
      again.close();
      assert.equal(failed.role, 'assistant');
      assert.equal(failed.isError, true);
      assert.equal(failed.ending, turn.message);
      assert.equal(failed.endingDetails, turn.details);
      assert.equal(failed.content, '');
      // The conversation goes on afterwards.
      assert.equal((await chat(page, 'echo recovered')).text, 'recovered');
    });
  });

  test('a stream dropped before any text is retried; one dropped after text fails the turn', async () => {
    await withHost({}, async (page) => {
      llm.reset();
      llm.failNext([{ drop: true, afterChunks: 0 }]);
      const retried = await chat(page, 'echo whole answer');
      assert.equal(retried.state, 'finished', retried.message);
      assert.equal(retried.text, 'whole answer');

      llm.failNext([{ drop: true, afterChunks: 2 }]);
      const broken = await chat(page, 'echo one two three four five');
      assert.equal(broken.state, 'failed');
      assert.match(broken.message, /broke off/);
    });
  });

  test('an answer silent past --llm-idle-timeout is broken off; a long one that keeps talking is not', async () => {
    await withHost({ args: ['--llm-idle-timeout', '1'] }, async (page) => {
      llm.reset();
      // A chunk every 300 ms, 3 s in all: longer than the limit, never silent for it.
      const steady = await chat(page, 'slow 10 300');
      assert.equal(steady.state, 'finished', steady.message);
      assert.equal(steady.text.trim(), Array.from({ length: 10 }, (_, i) => `chunk ${i + 1}`).join(' '));
      // 2.5 s of silence after the first chunk: cut by the limit (the stream would have ended
      // well at 5 s), and not retried (text was shown).
      const stalled = await chat(page, 'slow 3 2500');
      assert.equal(stalled.state, 'failed');
      assert.equal(stalled.message, 'The model server went silent, so the answer was broken off.');
      assert.match(stalled.details, /broke off: nothing came for 1000 ms/);
      assert.equal(llm.requests.length, 2);
    });
  });

  test('a provider that floods: text past 32 MiB, or more than 1000 tool calls, ends the turn with a reason', async () => {
    await withHost({}, async (page) => {
      llm.reset();
      llm.failNext([{ flood: 'calls' }]);
      const calls = await chat(page, 'echo never');
      assert.equal(calls.state, 'failed');
      assert.match(calls.message, /more than 1000 tool calls at once; none of them was run/);
      assert.equal(calls.frames.filter((f) => f.type === 'status' && f.payload.state === 'processing').length, 0, 'no call ran');

      llm.failNext([{ flood: 'text' }]);
      const text = await chat(page, 'echo never');
      assert.equal(text.state, 'failed');
      assert.match(text.message, /answer grew past 32 MiB and was cut there/, text.details);
      assert.equal(llm.requests.length, 2, 'not retried');
      assert.equal((await chat(page, 'echo still here')).text, 'still here');
    });
  });

  test('a wrong API key: not retried, the error says which variable to check', async () => {
    // The fake accepts only 'test-key'.
    const host = await startHost({ config, llm: { url: llm.url, apiKey: 'wrong-key' } });
    try {
      const page = await connectPage(host.port);
      llm.reset();
      const turn = await chat(page, 'echo hi');
      page.close();
      assert.equal(turn.state, 'failed');
      assert.equal(turn.message, 'The model server refused the API key. Check OPENAI_API_KEY and start the host again.');
      assert.match(turn.details, /^openai answered 401: Incorrect API key provided/);
      assert.equal(llm.requests.length, 1, 'a refusal is not retried');
    } finally {
      await host.stop();
    }
  });
});

describe('HTTPS to the LLM', () => {
  test('served with a test CA: trusted with --llm-ca-file, refused without it', async () => {
    makeTestCertificates(work.folder);
    const secure = await startFakeLlm({
      tls: { key: fs.readFileSync(path.join(work.folder, 'good.key')), cert: fs.readFileSync(path.join(work.folder, 'good.pem')) },
    });
    try {
      const trusted = await startHost({ config, llm: secure, args: ['--llm-ca-file', path.join(work.folder, 'ca.pem')] });
      try {
        const page = await connectPage(trusted.port);
        const turn = await chat(page, 'echo over tls');
        assert.equal(turn.state, 'finished', turn.message);
        assert.equal(turn.text, 'over tls');
      } finally {
        await trusted.stop();
      }
      const untrusted = await startHost({ config, llm: secure });
      try {
        const page = await connectPage(untrusted.port);
        const turn = await chat(page, 'echo over tls');
        assert.equal(turn.state, 'failed');
        assert.match(turn.message, /certificate/i);
      } finally {
        await untrusted.stop();
      }
    } finally {
      await secure.close();
    }
  });
});
