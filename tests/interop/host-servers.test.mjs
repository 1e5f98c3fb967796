// The host with the servers people actually run: the official server-everything (stdio, and
// HTTP+SSE) and mcpkit everything over Streamable HTTP, configured in the seed's, Claude's and
// VS Code's formats. Sampling answered by the configured LLM after the user approves,
// elicitation answered from the page (in the conversation whose call asked, when two ask at
// once), progress shown, roots offered, list_changed followed, mcp.json reloaded without
// touching unchanged servers, a running tool stopped through MCP cancellation, and configuration
// mistakes named.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startFakeLlm } from './fake-llm.mjs';
import { chat, connectPage, everythingServer, startHost, workFolder, writeConfig } from './host-support.mjs';
import { eventually, freePort, here, listening, mcpkit, runProcess, startProcess } from './support.mjs';

const work = workFolder();
const serverEverything = path.join(here, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
let llm;
const children = [];

before(async () => { llm = await startFakeLlm(); });
after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await llm.close();
  work.remove();
});

const lastCompleted = (page) => page.frames.filter((f) => f.type === 'status' && f.payload.state === 'complete').at(-1).payload;
const resultText = (payload) => payload.data.content.map((c) => c.text ?? '').join('\n');
const readyFrame = (page, names) => page.next('servers', (p) => names.every((n) => p.servers.find((s) => s.name === n)?.state === 'ready'), 30000);

describe('the three mcp.json formats and every transport', () => {
  test('seed form, Claude form and VS Code form with inputs; stdio, Streamable HTTP and HTTP+SSE servers', async () => {
    const httpPort = await freePort();
    const http = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${httpPort}`]);
    children.push(http);
    await listening(http, httpPort, 'mcpkit everything --http');
    const ssePort = await freePort();
    const sse = startProcess(process.execPath, [serverEverything, 'sse'], { env: { ...process.env, PORT: String(ssePort) } });
    children.push(sse);
    await listening(sse, ssePort, 'server-everything sse');

    const seed = writeConfig(work.folder, {
      servers: {
        local: { id: 'local', type: 'local', transport: 'stdio', command: mcpkit, args: ['everything'], timeoutMs: 10000, trustAnnotations: true },
        remote: { id: 'remote', type: 'remote', transport: 'http', url: `http://127.0.0.1:${httpPort}/mcp`, timeoutMs: 15000, trustAnnotations: true },
      },
    }, 'seed.json');
    const vscode = writeConfig(work.folder, {
      inputs: [{ type: 'promptString', id: 'greeting-word', description: 'A word', password: true }],
      servers: {
        ev: { type: 'stdio', command: process.execPath, args: [serverEverything], env: { GREETING: '${input:greeting-word}' }, trustAnnotations: true },
        legacy: { type: 'sse', url: `http://127.0.0.1:${ssePort}/sse`, trustAnnotations: true },
        streamable: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp`, headers: { 'X-Test': '${env:HOST_TEST_HEADER}' }, trustAnnotations: true },
      },
    }, 'vscode.json');
    const claude = writeConfig(work.folder, {
      mcpServers: {
        fs: { command: process.execPath, args: [path.join(here, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), work.folder] },
        memory: { command: process.execPath, args: [path.join(here, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: path.join(work.folder, 'memory.jsonl') } },
      },
    }, 'claude.json');

    for (const [config, names, env] of [[seed, ['local', 'remote']], [vscode, ['ev', 'legacy', 'streamable'],
      { GREETING_WORD: 'hello', HOST_TEST_HEADER: 'yes' }], [claude, ['fs', 'memory']]]) {
      const host = await startHost({ config, llm, env });
      try {
        const page = await connectPage(host.port);
        const frame = await readyFrame(page, names);
        for (const name of names) assert.ok(frame.servers.find((s) => s.name === name).tools.length > 0, `${name} lists tools`);
        if (names.includes('legacy')) {
          const turn = await chat(page, 'call legacy__echo {"message":"over sse"}');
          assert.match(resultText(lastCompleted(page)), /over sse/, turn.message);
          await chat(page, 'call ev__get-env {}');
          assert.match(resultText(lastCompleted(page)), /"GREETING": "hello"/, '${input:…} taken from the environment');
        }
        if (names.includes('remote')) {
          await chat(page, 'call remote__echo {"text":"over streamable http"}');
          assert.equal(resultText(lastCompleted(page)), 'over streamable http');
          // The server restarts and forgets the session: the next call initializes a new one.
          http.kill('SIGKILL');
          await http.exited;
          const again = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${httpPort}`]);
          children.push(again);
          await listening(again, httpPort, 'mcpkit everything --http (again)');
          await chat(page, 'call remote__echo {"text":"after a restart"}');
          assert.equal(resultText(lastCompleted(page)), 'after a restart');
        }
        if (names.includes('fs')) {
          fs.writeFileSync(path.join(work.folder, 'note.txt'), 'a note');
          page.send('call_tool', { requestId: 'read', tool: 'fs__read_text_file', arguments: { path: path.join(work.folder, 'note.txt') } });
          const read = await page.next('tool_result', (p) => p.requestId === 'read');
          assert.equal(read.result.content[0].text, 'a note');
          page.send('call_tool', { requestId: 'remember', tool: 'memory__create_entities',
            arguments: { entities: [{ name: 'mcpkit', entityType: 'project', observations: ['hosts chats'] }] } });
          assert.equal((await page.next('tool_result', (p) => p.requestId === 'remember')).isError, false);
          page.send('call_tool', { requestId: 'recall', tool: 'memory__read_graph', arguments: {} });
          assert.match(JSON.stringify((await page.next('tool_result', (p) => p.requestId === 'recall')).result), /hosts chats/);
        }
        page.close();
      } finally {
        await host.stop();
      }
    }
  });
});

describe('mistakes in mcp.json are named', () => {
  const cases = [
    ['not JSON', '{"mcpServers": {', /not valid JSON/],
    ['servers not an object', '{"mcpServers": []}', /mcpServers: must be an object mapping names to servers, not an array/],
    ['no servers key', '{"tools": {}}', /has no "mcpServers" \(or "servers"\) object/],
    ['command of the wrong type', '{"mcpServers": {"a": {"command": 5}}}', /mcpServers\.a\.command: must be a string, not a number/],
    ['a url that is not http', '{"mcpServers": {"a": {"url": "ftp://x"}}}', /mcpServers\.a\.url: "ftp:\/\/x" must start with http:\/\/ or https:\/\//],
    ['a name models cannot use', '{"mcpServers": {"a b": {"command": "x"}}}', /mcpServers\.a b: a server name must be 1 to 32 letters/],
    ['an unknown transport', '{"servers": {"a": {"type": "carrier-pigeon", "command": "x"}}}', /servers\.a\.type: "carrier-pigeon" is not a transport/],
    ['a timeout that is not a number', '{"mcpServers": {"a": {"command": "x", "timeoutMs": "soon"}}}', /mcpServers\.a\.timeoutMs: must be a number of milliseconds/],
    ['both command and url', '{"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}', /mcpServers\.a: has both "command" and "url"/],
    ['a bad approval policy', '{"mcpServers": {"a": {"command": "x", "approval": "maybe"}}}', /mcpServers\.a\.approval: "maybe" is not a policy/],
  ];
  for (const [what, text, expected] of cases) {
    test(what, async () => {
      const file = path.join(work.folder, 'bad.json');
      fs.writeFileSync(file, text);
      const result = await runProcess(mcpkit, ['host', '--config', file, '--http', '127.0.0.1:0', '--store', 'memory']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, expected);
    });
  }

  test('a variable that is not set fails that server only, naming the variable', async () => {
    const config = writeConfig(work.folder, {
      mcpServers: { needs: { command: mcpkit, args: ['everything'], env: { TOKEN: '${env:HOST_TEST_UNSET_VARIABLE}' } }, fine: everythingServer() },
    }, 'unset.json');
    const host = await startHost({ config, llm });
    try {
      const page = await connectPage(host.port);
      const frame = await page.next('servers', (p) => p.servers.find((s) => s.name === 'fine')?.state === 'ready' &&
        p.servers.find((s) => s.name === 'needs')?.state === 'failed');
      assert.match(frame.servers.find((s) => s.name === 'needs').error, /HOST_TEST_UNSET_VARIABLE, which is not set/);
      page.close();
    } finally {
      await host.stop();
    }
  });
});

describe('what servers ask of the host', () => {
  let host;
  let page;
  const root = path.join(work.folder, 'workspace');
  before(async () => {
    fs.mkdirSync(root, { recursive: true });
    const config = writeConfig(work.folder, {
      mcpServers: {
        ev: { command: process.execPath, args: [serverEverything], approval: 'auto' },
        mine: everythingServer({ approval: 'auto' }),
        faults: { command: process.execPath, args: [path.join(here, 'host-fault-server.mjs')], trustAnnotations: true },
      },
    }, 'asks.json');
    host = await startHost({ config, llm, args: ['--root', root] });
    page = await connectPage(host.port);
    await readyFrame(page, ['ev', 'mine', 'faults']);
    // server-everything adds its sampling, elicitation and roots tools once it knows the client can.
    await page.next('servers', (p) => p.servers.find((s) => s.name === 'ev').tools.some((t) => t.name === 'trigger-sampling-request'));
  });
  after(async () => { page?.close(); await host?.stop(); });

  test('sampling: the user approves, the configured LLM answers, the server gets the answer', async () => {
    llm.reset();
    page.send('message', { text: 'call ev__trigger-sampling-request {"prompt":"echo sampled words","maxTokens":50}' });
    const request = await page.next('sampling_request');
    assert.equal(request.server, 'ev');
    assert.match(JSON.stringify(request.messages), /echo sampled words/);
    page.send('sampling', { requestId: request.requestId, decision: 'approve' });
    const turn = await page.next('turn', (p) => p.state !== 'started');
    assert.equal(turn.state, 'finished', turn.message);
    assert.match(resultText(lastCompleted(page)), /LLM sampling result/i);
    assert.ok(llm.requests.some((r) => r.body.messages?.some((m) => /Resource trigger-sampling-request context/.test(m.content))),
      'the server\'s messages went to the LLM');
  });

  test('sampling denied: the server hears a refusal', async () => {
    page.send('message', { text: 'call ev__trigger-sampling-request {"prompt":"anything","maxTokens":50}' });
    const request = await page.next('sampling_request');
    page.send('sampling', { requestId: request.requestId, decision: 'deny' });
    await page.next('turn', (p) => p.state !== 'started');
    assert.match(resultText(lastCompleted(page)), /declined/i);
  });

  test('elicitation: the form is answered from the page', async () => {
    page.send('message', { text: 'call mine__test_elicitation {"message":"Who are you?"}' });
    const request = await page.next('elicitation_request');
    assert.equal(request.message, 'Who are you?');
    assert.equal(request.mode, 'form');
    assert.ok(request.requestedSchema.properties);
    const content = Object.fromEntries(Object.entries(request.requestedSchema.properties).map(([k, v]) =>
      [k, v.type === 'number' || v.type === 'integer' ? 30 : v.type === 'boolean' ? true : 'Ada']));
    page.send('elicitation', { requestId: request.requestId, action: 'accept', content });
    await page.next('turn', (p) => p.state !== 'started');
    assert.match(resultText(lastCompleted(page)), /accept/);
  });

  test('URL-mode elicitation: the page gets the link, the server gets the answer', async () => {
    page.send('message', { text: 'call ev__trigger-url-elicitation {"url":"https://example.com/consent","message":"Please consent"}' });
    const request = await page.next('elicitation_request');
    assert.equal(request.mode, 'url');
    assert.equal(request.url, 'https://example.com/consent');
    assert.equal(request.message, 'Please consent');
    page.send('elicitation', { requestId: request.requestId, action: 'accept' });
    await page.next('turn', (p) => p.state !== 'started');
    assert.match(resultText(lastCompleted(page)), /accept/);
  });

  test('progress notifications reach the page while the tool runs', async () => {
    const from = page.frames.length;
    await chat(page, 'call ev__trigger-long-running-operation {"duration":1,"steps":3}');
    const progress = page.frames.slice(from).filter((f) => f.type === 'progress').map((f) => f.payload);
    assert.ok(progress.length >= 2, JSON.stringify(progress));
    assert.equal(progress.at(-1).total, 3);
  });

  test('roots: the folders given with --root', async () => {
    await chat(page, 'call ev__get-roots-list {}');
    assert.match(resultText(lastCompleted(page)), new RegExp(`file://${root}`));
  });

  test('list_changed: a tool the server adds appears in the panel and for the model', async () => {
    const tools = () => page.frames.filter((f) => f.type === 'servers').at(-1).payload.servers.find((s) => s.name === 'faults').tools;
    assert.ok(!tools().some((t) => t.name === 'late'));
    await chat(page, 'call faults__add_tool {}');
    await page.next('servers', (p) => p.servers.find((s) => s.name === 'faults').tools.some((t) => t.name === 'late'));
    llm.reset();
    await chat(page, 'call faults__late {}');
    assert.equal(resultText(lastCompleted(page)), 'late tool answered');
    // This host has more than 64 tools, so the model finds them with search_tools: the new one is
    // found, and once used it is offered.
    const posts = () => llm.requests.filter((request) => request.method === 'POST');
    assert.ok(posts().at(-1).body.tools.some((t) => t.function.name === 'faults__late'), 'offered once used');
    llm.reset();
    await chat(page, 'call search_tools {"query": "late"}');
    assert.match(posts().at(-1).body.messages.filter((m) => m.role === 'tool').at(-1).content, /faults__late/);
  });

  test('list_changed flood: one refresh at a time, not one per notification', async () => {
    await chat(page, 'call faults__flood_list_changed {"count":300}');
    llm.reset();
    await chat(page, 'call faults__tools_list_calls {}');
    const calls = Number(resultText(lastCompleted(page)));
    // The first notification starts a refresh and the others ask for one more after it.
    assert.ok(calls >= 1 && calls <= 4, `${calls} tools/list requests for 300 notifications`);
  });

  test('stop: the LLM stream is aborted and a running tool is cancelled through MCP', async () => {
    page.send('message', { text: 'slow 50 200' });
    await page.next('text', () => true);
    page.send('stop', {});
    const stopped = await page.next('turn', (p) => p.state !== 'started');
    assert.equal(stopped.state, 'stopped');

    page.send('message', { text: 'call mine__slow_compute {"seconds":30}' });
    await page.next('status', (p) => p.state === 'processing' && p.tool === 'mine__slow_compute');
    const started = Date.now();
    page.send('stop', {});
    const second = await page.next('turn', (p) => p.state !== 'started');
    assert.equal(second.state, 'stopped');
    assert.ok(Date.now() - started < 5000, 'stopped at once');
    assert.match(resultText(lastCompleted(page)), /cancelled/);
    // The history stays valid for the provider: the next turn works.
    assert.equal((await chat(page, 'echo after the stop')).text, 'after the stop');
  });
});

describe('two conversations asked by one server at once', () => {
  test('each question goes to the conversation whose call asked it (Streamable HTTP)', async () => {
    const httpPort = await freePort();
    const server = startProcess(mcpkit, ['everything', '--http', `127.0.0.1:${httpPort}`]);
    children.push(server);
    await listening(server, httpPort, 'mcpkit everything --http');
    const config = writeConfig(work.folder, {
      mcpServers: { shared: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp`, approval: 'auto' } },
    }, 'shared.json');
    const host = await startHost({ config, llm });
    try {
      const a = await connectPage(host.port);
      const b = await connectPage(host.port);
      await readyFrame(a, ['shared']);
      const name = (page) => (page === a ? 'A' : 'B');
      // Both orders: a guess (the first conversation with a call running) is right in one of them.
      for (const [first, second] of [[a, b], [b, a]]) {
        first.send('message', { text: `call shared__test_elicitation {"message":"for ${name(first)}"}` });
        const firstQuestion = await first.next('elicitation_request');
        second.send('message', { text: `call shared__test_elicitation {"message":"for ${name(second)}"}` });
        const secondQuestion = await second.next('elicitation_request');
        assert.equal(firstQuestion.message, `for ${name(first)}`);
        assert.equal(secondQuestion.message, `for ${name(second)}`);
        for (const [page, question] of [[first, firstQuestion], [second, secondQuestion]]) {
          page.send('elicitation', { requestId: question.requestId, action: 'decline' });
          const turn = await page.next('turn', (p) => p.state !== 'started');
          assert.equal(turn.state, 'finished', turn.message);
          assert.match(resultText(lastCompleted(page)), /decline/);
        }
      }
      a.close();
      b.close();
    } finally {
      await host.stop();
    }
  });
});

describe('reload', () => {
  test('a changed mcp.json adds and removes servers without restarting the unchanged one', async () => {
    const file = path.join(work.folder, 'reload.json');
    const faults = { command: process.execPath, args: [path.join(here, 'host-fault-server.mjs')], trustAnnotations: true };
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { keep: faults, drop: everythingServer() } }));
    const host = await startHost({ config: file, llm });
    try {
      const page = await connectPage(host.port);
      await readyFrame(page, ['keep', 'drop']);
      page.send('call_tool', { requestId: 'pid1', tool: 'keep__pid', arguments: {} });
      const pid = (await page.next('tool_result', (p) => p.requestId === 'pid1')).result.content[0].text;
      fs.writeFileSync(file, JSON.stringify({ mcpServers: { keep: faults, added: everythingServer() } }));
      const frame = await page.next('servers', (p) => p.servers.find((s) => s.name === 'added')?.state === 'ready' &&
        !p.servers.some((s) => s.name === 'drop'), 20000);
      assert.deepEqual(frame.servers.map((s) => s.name).sort(), ['added', 'keep']);
      page.send('call_tool', { requestId: 'pid2', tool: 'keep__pid', arguments: {} });
      assert.equal((await page.next('tool_result', (p) => p.requestId === 'pid2')).result.content[0].text, pid);
      // A broken edit keeps the running configuration.
      fs.writeFileSync(file, '{"mcpServers": {');
      await eventually(() => /config_refused/.test(host.child.output), 10000);
      assert.match(host.child.output, /config_refused.*not valid JSON/);
      page.send('call_tool', { requestId: 'pid3', tool: 'keep__pid', arguments: {} });
      assert.equal((await page.next('tool_result', (p) => p.requestId === 'pid3')).result.content[0].text, pid);
      page.close();
    } finally {
      await host.stop();
    }
  });
});
