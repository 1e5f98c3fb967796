// The host's MCP coordinator with real servers, seen from the page: approval per call (once,
// always, deny; closed in the other tabs once answered, and when the turn stops; automatic for read-only tools and "approval": "auto" servers), arguments checked
// against the tool's schema and unknown tools answered to the model, timeouts, a server that
// crashes mid-call (restarted, the call retried once), the circuit breaker opening and closing,
// a server that never finishes starting (its stderr in the error), and calls by hand.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { eventually, here } from './support.mjs';

const serverEverything = path.join(here, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const work = workFolder();
const stateFile = path.join(work.folder, 'flaky-state');
// The fault server's tools say readOnlyHint; this test believes it (trustAnnotations), so they run
// without a question.
const faultServer = (extra = {}) => ({
  command: process.execPath, args: [path.join(here, 'host-fault-server.mjs'), '--state', stateFile],
  trustAnnotations: true, ...extra,
});
let llm;
let host;
let page;

before(async () => {
  fs.writeFileSync(stateFile, 'fail');
  llm = await startFakeLlm();
  const config = writeConfig(work.folder, {
    mcpServers: {
      everything: everythingServer(),
      auto: everythingServer({ approval: 'auto', allowedTools: ['echo', 'greet'] }),
      limited: faultServer({ rateLimitPerMinute: 2 }),
      faults: faultServer({ timeoutMs: 2000, circuitBreaker: { failures: 3, resetMs: 4000 } }),
      // The npm reference server: not ours, so its readOnlyHint (get-env says it) is not believed;
      // and it sees the basic environment plus its own env, or everything with inheritEnv.
      ev: { command: process.execPath, args: [serverEverything], env: { OWN_SETTING: 'mine' } },
      evwide: { command: process.execPath, args: [serverEverything], inheritEnv: true, approval: 'auto' },
      // "a" + "_write" and "a_" + "write" read alike as server__tool: each must stay its own.
      a: faultServer({ args: [...faultServer().args, '--tool', '_write'] }),
      a_: faultServer({ args: [...faultServer().args, '--tool', 'write'] }),
      dup: { command: process.execPath, args: [path.join(here, 'host-duplicate-tools-server.mjs')] },
      slowstart: { command: 'sh', args: ['-c', 'echo booting the slow server >&2; sleep 30'], initTimeout: 700 },
      missing: { command: '/nonexistent/mcp-server' },
    },
  });
  // Secrets the host holds: they must not reach its servers (OPENAI_API_KEY is set by startHost).
  host = await startHost({ config, llm, env: { GITHUB_TOKEN: 'ghp_host_secret', LC_TIME: 'C.UTF-8' } });
  page = await connectPage(host.port);
  await page.next('servers', (p) => ['everything', 'auto', 'faults', 'limited', 'ev', 'evwide', 'a', 'a_', 'dup'].every(
    (name) => p.servers.find((s) => s.name === name)?.state === 'ready'));
});

after(async () => {
  page?.close();
  await host?.stop();
  await llm?.close();
  work.remove();
});

const lastCompleted = () => page.frames.filter((f) => f.type === 'status' && f.payload.state === 'complete').at(-1).payload;
const resultText = (payload) => payload.data.content.map((c) => c.text).join('\n');

describe('approval', () => {
  test('a question closes in the other tabs once answered, and in every tab when its turn stops', async () => {
    const other = await connectPage(host.port, { sessionId: page.connection.sessionId });
    page.send('message', { text: 'call everything__greet {"name":"Tab"}' });
    const ask = await page.next('approval_request');
    await other.next('approval_request', (p) => p.callId === ask.callId);
    page.send('approval', { callId: ask.callId, decision: 'once' });
    assert.equal((await other.next('question_closed', (p) => p.id === ask.callId)).reason, 'answered');
    assert.equal((await page.next('turn', (p) => p.state !== 'started')).state, 'finished');

    page.send('message', { text: 'call everything__greet {"name":"Stopped"}' });
    const stopped = await page.next('approval_request');
    page.send('stop', {});
    for (const tab of [page, other])
      assert.equal((await tab.next('question_closed', (p) => p.id === stopped.callId)).reason, 'stopped');
    assert.equal((await page.next('turn', (p) => p.state !== 'started')).state, 'stopped');
    other.close();
  });

  test('a tool that is not read-only waits for the user: once, then deny, then always', async () => {
    page.send('message', { text: 'call everything__greet {"name":"Ada"}' });
    const ask = await page.next('approval_request');
    assert.equal(ask.tool, 'everything__greet');
    assert.equal(ask.server, 'everything');
    assert.deepEqual(ask.arguments, { name: 'Ada' });
    page.send('approval', { callId: ask.callId, decision: 'once' });
    const done = await page.next('turn', (p) => p.state !== 'started');
    assert.equal(done.state, 'finished');
    assert.match(resultText(lastCompleted()), /Ada/);

    page.send('message', { text: 'call everything__greet {"name":"Bob"}' });
    const second = await page.next('approval_request');
    page.send('approval', { callId: second.callId, decision: 'deny' });
    await page.next('turn', (p) => p.state !== 'started');
    assert.equal(lastCompleted().isError, true);
    assert.match(resultText(lastCompleted()), /declined/);
    // The model was told, and answered.
    assert.match(llm.requests.at(-1).body.messages.at(-1).content, /declined/);

    page.send('message', { text: 'call everything__greet {"name":"Cy"}' });
    const third = await page.next('approval_request');
    page.send('approval', { callId: third.callId, decision: 'always' });
    await page.next('turn', (p) => p.state !== 'started');
    const turn = await chat(page, 'call everything__greet {"name":"Di"}');
    assert.equal(turn.state, 'finished');
    assert.ok(!page.frames.some((f, i) => f.type === 'approval_request' && !page.taken.has(i)), 'no question after "always"');
    assert.match(resultText(lastCompleted()), /Di/);
  });

  test('read-only tools of servers marked trustAnnotations and "approval": "auto" servers run without asking', async () => {
    const asked = page.frames.filter((f) => f.type === 'approval_request').length;
    await chat(page, 'call everything__echo {"text":"read-only"}');
    await chat(page, 'call auto__greet {"name":"Eve"}');
    assert.equal(page.frames.filter((f) => f.type === 'approval_request').length, asked);
    assert.match(resultText(lastCompleted()), /Eve/);
  });

  test('annotations do not grant trust: a read-only tool of any other server asks', async () => {
    page.send('message', { text: 'call ev__get-env {}' });
    const ask = await page.next('approval_request');
    assert.equal(ask.tool, 'ev__get-env');
    page.send('approval', { callId: ask.callId, decision: 'once' });
    assert.equal((await page.next('turn', (p) => p.state !== 'started')).state, 'finished');
  });

  test("a server sees a basic environment and its own env, never the host's keys (inheritEnv: everything)", async () => {
    // The call just made: ev's environment.
    const seen = JSON.parse(resultText(lastCompleted()));
    assert.equal(seen.OWN_SETTING, 'mine', 'its own env');
    assert.ok(seen.PATH && seen.HOME, 'PATH and HOME');
    assert.equal(seen.LC_TIME, 'C.UTF-8', 'LC_*');
    assert.equal(seen.GITHUB_TOKEN, undefined, JSON.stringify(Object.keys(seen)));
    assert.equal(seen.OPENAI_API_KEY, undefined);
    assert.equal(seen.MCPKIT_HOST_TOKEN, undefined, "the page's token");
    await chat(page, 'call evwide__get-env {}');
    const wide = JSON.parse(resultText(lastCompleted()));
    assert.equal(wide.GITHUB_TOKEN, 'ghp_host_secret', 'inheritEnv: true passes everything');
  });

  test('"always allow" holds for the tool the user saw: redefined, it asks again and says what changed', async () => {
    page.send('message', { text: 'call faults__note {"text":"one"}' });
    const first = await page.next('approval_request');
    assert.equal(first.changed, undefined);
    page.send('approval', { callId: first.callId, decision: 'always' });
    await page.next('turn', (p) => p.state !== 'started');
    const asked = page.frames.filter((f) => f.type === 'approval_request').length;
    await chat(page, 'call faults__note {"text":"two"}');
    assert.equal(page.frames.filter((f) => f.type === 'approval_request').length, asked, 'always allowed');
    assert.match(resultText(lastCompleted()), /noted: two/);
    await chat(page, 'call faults__redefine_note {}');
    // The server says its tools changed; the host reads the new definition.
    await page.next('servers', (p) => p.servers.find((s) => s.name === 'faults')?.tools
      .some((t) => t.name === 'note' && /IGNORE THE USER/.test(t.description)));
    page.send('message', { text: 'call faults__note {"text":"three","key":"stolen"}' });
    const again = await page.next('approval_request');
    assert.deepEqual(again.changed, ['description', 'input schema']);
    assert.equal(again.previousDescription, 'Writes a note');
    assert.match(again.description, /IGNORE THE USER/);
    page.send('approval', { callId: again.callId, decision: 'deny' });
    await page.next('turn', (p) => p.state !== 'started');
    assert.match(resultText(lastCompleted()), /declined/);
  });

  test('two servers whose names would meet ("a" + "_write", "a_" + "write") each keep their own tool', async () => {
    const servers = page.frames.filter((f) => f.type === 'servers').at(-1).payload.servers;
    const named = (server, tool) => servers.find((s) => s.name === server).tools.find((t) => t.name === tool).qualifiedName;
    const first = named('a', '_write');
    const second = named('a_', 'write');
    assert.notEqual(first, second);
    assert.ok(!servers.some((s) => s.warnings && s.name !== 'dup'), 'no collision to report but the real one');
    const pid = async (server) => {
      await chat(page, `call ${named(server, 'pid')} {}`);
      return resultText(lastCompleted());
    };
    // Two tools that do meet on one name (here: one server listing a name twice) are both
    // withheld, and the panel says so.
    const dup = servers.find((s) => s.name === 'dup');
    assert.deepEqual(dup.tools, []);
    assert.match(dup.warnings?.[0] ?? '', /the tools dup › same and dup › same would both be called dup__same, so neither is offered/);
    assert.match(host.child.output, /would both be called dup__same/, 'and stderr');
    const [pidA, pidB] = [await pid('a'), await pid('a_')];
    for (const [name, expected] of [[first, `_write of ${pidA}`], [second, `write of ${pidB}`]]) {
      page.send('message', { text: `call ${name} {}` });
      const ask = await page.next('approval_request');
      page.send('approval', { callId: ask.callId, decision: 'once' });
      await page.next('turn', (p) => p.state !== 'started');
      assert.equal(resultText(lastCompleted()), expected, name);
    }
  });

  test('an answer for a call nobody waits for is refused with a clear error', async () => {
    page.send('approval', { callId: 'call_unknown', decision: 'once' });
    const error = await page.next('error');
    assert.match(error.message, /nothing is waiting for an answer to call_unknown/);
  });
});

describe('what the model gets wrong is answered to the model', () => {
  test('a tool that does not exist', async () => {
    const turn = await chat(page, 'call everything__does_not_exist {}');
    assert.equal(turn.state, 'finished');
    assert.match(resultText(lastCompleted()), /There is no tool named "everything__does_not_exist". Available tools: .*everything__echo/);
  });

  test('arguments that do not fit the schema', async () => {
    const turn = await chat(page, 'call faults__add {"a":1,"b":"two"}');
    assert.equal(turn.state, 'finished');
    const text = resultText(lastCompleted());
    assert.match(text, /Invalid arguments for faults__add: \[b\]/);
    assert.match(turn.text, /Invalid arguments/);
  });

  test('arguments that are not JSON', async () => {
    const turn = await chat(page, 'call everything__echo {"text": oops}');
    assert.equal(turn.state, 'finished');
    assert.match(resultText(lastCompleted()), /could not be read/);
  });
});

describe('servers that misbehave', () => {
  test('a call past its timeout fails with the limit named, and is cancelled on the server', async () => {
    const turn = await chat(page, 'call faults__hang {}');
    assert.equal(turn.state, 'finished');
    assert.match(resultText(lastCompleted()), /did not answer within 2000 ms/);
  });

  test('a server that dies mid-call is restarted; the call is retried once', async () => {
    await chat(page, 'call faults__pid {}');
    const before = resultText(lastCompleted());
    const turn = await chat(page, 'call faults__crash {}');
    assert.equal(turn.state, 'finished');
    const crashed = lastCompleted();
    assert.equal(crashed.isError, true);
    assert.match(resultText(crashed), /exited with code 3|closed/);
    assert.match(resultText(crashed), /crashing on purpose/, 'its stderr is quoted');
    await chat(page, 'call faults__pid {}');
    const afterPid = resultText(lastCompleted());
    assert.match(afterPid, /^\d+$/);
    assert.notEqual(afterPid, before, 'a new process answers');
  });

  test('the circuit breaker opens after 3 failures and closes when the window passes', async () => {
    for (let i = 0; i < 3; ++i) {
      await chat(page, 'call faults__flaky {}');
      assert.match(resultText(lastCompleted()), /flaky failed/);
    }
    await chat(page, 'call faults__flaky {}');
    assert.match(resultText(lastCompleted()), /failed 3 times, so the host stops calling it/);
    const offered = llm.requests.at(-1).body.tools.map((t) => t.function.name);
    assert.ok(!offered.includes('faults__flaky'), 'an open tool is not offered to the model');
    assert.ok(offered.includes('faults__add'), 'the server\'s other tools still are');
    const servers = page.frames.filter((f) => f.type === 'servers').at(-1);
    fs.writeFileSync(stateFile, 'ok');
    assert.ok(await eventually(async () => {
      await chat(page, 'call faults__flaky {}');
      return resultText(lastCompleted()) === 'flaky worked';
    }, 15000), 'closed again after the window');
    assert.ok(servers);
  });

  test('a server that never finishes starting fails with its stderr; one that cannot start says why', async () => {
    const frame = await page.next('servers', (p) => p.servers.find((s) => s.name === 'slowstart')?.state === 'failed');
    const slow = frame.servers.find((s) => s.name === 'slowstart');
    assert.match(slow.error, /did not start within 700 ms/);
    assert.match(slow.error, /booting the slow server/);
    const missing = frame.servers.find((s) => s.name === 'missing');
    assert.equal(missing.state, 'failed');
    assert.match(missing.error, /nonexistent/);
    let health;
    // It is started again with backoff, so /health may catch it starting.
    assert.ok(await eventually(async () => {
      health = await (await fetch(`${host.url}/health`, { headers: host.auth })).json();
      return health.servers.find((s) => s.name === 'slowstart').state === 'failed';
    }, 10000));
    assert.match(health.servers.find((s) => s.name === 'slowstart').error, /did not start within 700 ms/);
    const flaky = health.tools['faults__flaky'];
    assert.ok(flaky.failures + flaky.toolErrors >= 3 && flaky.calls >= 4, 'reliability is counted per tool');
  });
});

describe('what mcp.json allows', () => {
  test('allowedTools: only those are offered', async () => {
    const frame = page.frames.filter((f) => f.type === 'servers').at(-1).payload;
    assert.deepEqual(frame.servers.find((s) => s.name === 'auto').tools.map((t) => t.name).sort(), ['echo', 'greet']);
    await chat(page, 'call auto__count_slowly {"to":1}');
    assert.match(resultText(lastCompleted()), /no tool named "auto__count_slowly"/);
  });

  test('rateLimitPerMinute: the call past the limit is refused with the limit named', async () => {
    for (let i = 0; i < 2; ++i) {
      await chat(page, 'call limited__pid {}');
      assert.match(resultText(lastCompleted()), /^\d+$/);
    }
    await chat(page, 'call limited__pid {}');
    assert.match(resultText(lastCompleted()), /limited to 2 calls per minute/);
  });
});

describe('calling a tool by hand', () => {
  test('call_tool answers the page that asked, with no LLM involved', async () => {
    const requests = llm.requests.length;
    page.send('call_tool', { requestId: 'r1', tool: 'faults__add', arguments: { a: 2, b: 3 } });
    const result = await page.next('tool_result', (p) => p.requestId === 'r1');
    assert.equal(result.isError, false);
    assert.equal(result.result.content[0].text, '5');
    page.send('call_tool', { requestId: 'r2', tool: 'faults__add', arguments: { a: 'x' } });
    const refused = await page.next('tool_result', (p) => p.requestId === 'r2');
    assert.equal(refused.isError, true);
    assert.match(refused.result.content[0].text, /Invalid arguments/);
    assert.equal(llm.requests.length, requests);
  });
});
