// The official TypeScript SDK client asks `mcpkit analyze` its way around code, as an assistant
// would: every navigation tool on a small project of two languages in a git repository (the SDK
// checks each structuredContent against the tool's outputSchema), an edit made by another process
// seen without asking for it, and progress and cancellation while a real tree (Go's standard
// library) is indexed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { eventually, mcpkit } from './support.mjs';

const goTree = '/usr/share/go-1.19/src';

function write(root, file, text) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

describe('TypeScript SDK client → mcpkit analyze navigation tools', () => {
  let client;
  let project;
  let cache;

  const call = async (name, args, options) => {
    const result = await client.callTool({ name, arguments: { projectPath: project, ...args } }, undefined, options);
    return { result, data: result.structuredContent.data, status: result.structuredContent.status };
  };

  before(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'navigation-interop-'));
    cache = path.join(project, '..', `${path.basename(project)}.sqlite`);
    write(project, 'store/base.py', 'class Store:\n    """Keeps things."""\n    def save(self, item):\n        raise NotImplementedError\n');
    write(project, 'store/disk.py', 'from store.base import Store\n\n\nclass DiskStore(Store):\n    def save(self, item):\n'
      + '        return write_file(item)\n\n\ndef write_file(item):\n    return len(item)\n\n\ndef _forgotten():\n    return 0\n');
    write(project, 'app.py', 'from store.disk import DiskStore\n\n\ndef main():\n    store = DiskStore()\n    return store.save("x")\n');
    write(project, 'web/client.ts', 'export interface Sink { push(x: string): void }\n'
      + 'export class Console implements Sink { push(x: string): void { log(x); } }\n'
      + 'function log(x: string) { return x.length; }\n');
    execFileSync('sh', ['-c', 'git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -q -m base'], { cwd: project });
    client = new Client({ name: 'navigation-interop', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: mcpkit, args: ['analyze', '--root', '/', '--cache', cache], stderr: 'ignore',
    }));
  });

  after(async () => {
    await client?.close();
    fs.rmSync(project, { recursive: true, force: true });
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(cache + suffix, { force: true });
  });

  test('the six tools are listed, with their category and described parameters', async () => {
    const { tools } = await client.listTools();
    const navigation = ['find-symbol', 'find-references', 'get-call-hierarchy', 'get-type-hierarchy', 'get-change-impact', 'find-dead-code'];
    for (const name of navigation) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      for (const [parameter, schema] of Object.entries(tool.inputSchema.properties)) {
        assert.ok(schema.description?.length > 10, `${name}.${parameter} has a description`);
      }
    }
    const listed = await client.callTool({ name: 'list-available-tools', arguments: { category: 'navigation' } });
    assert.deepEqual(listed.structuredContent.data.tools.map((t) => t.name).sort(), [...navigation].sort());
  });

  test('find-symbol and find-references, by qualified name and by place', async () => {
    const { data } = await call('find-symbol', { query: 'Store.save' });
    assert.equal(data.total, 1);
    assert.equal(data.symbols[0].location, 'store/base.py:3:9');
    assert.equal(data.symbols[0].kind, 'method');
    const found = await call('find-symbol', { query: '*store', kind: 'class' });
    assert.deepEqual(found.data.symbols.map((s) => s.qualifiedName).sort(), ['store.base.Store', 'store.disk.DiskStore']);
    assert.equal(found.data.symbols.find((s) => s.name === 'Store').doc, 'Keeps things.');

    const references = await call('find-references', { symbol: 'DiskStore.save' });
    assert.equal(references.data.total, 1);
    const use = references.data.references[0];
    assert.deepEqual([use.location, use.kind, use.certain, use.text], ['app.py:6:18', 'call', true, 'return store.save("x")']);
    assert.equal(use.enclosing.qualifiedName, 'app.main');
    const byPlace = await call('find-references', { symbol: 'store/disk.py:9:5' });
    assert.equal(byPlace.data.target.qualifiedName, 'store.disk.write_file');
    assert.equal(byPlace.data.references.length, 1);
    // Two definitions of save: the answer lists them rather than guessing.
    const ambiguous = await call('find-references', { symbol: 'save' });
    assert.equal(ambiguous.data.ambiguous, true);
    assert.equal(ambiguous.data.candidates.length, 2);
  });

  test('call and type hierarchies across files and languages', async () => {
    const callers = await call('get-call-hierarchy', { symbol: 'write_file', depth: 3 });
    assert.equal(callers.data.children[0].qualifiedName, 'store.disk.DiskStore.save');
    assert.equal(callers.data.children[0].children[0].qualifiedName, 'app.main');
    const callees = await call('get-call-hierarchy', { symbol: 'app.main', direction: 'callees' });
    assert.deepEqual(callees.data.children.map((c) => c.qualifiedName).sort(), ['store.disk.DiskStore', 'store.disk.DiskStore.save']);
    const subtypes = await call('get-type-hierarchy', { symbol: 'Store' });
    assert.deepEqual(subtypes.data.children.map((c) => [c.qualifiedName, c.relation]), [['store.disk.DiskStore', 'extends']]);
    const sinks = await call('get-type-hierarchy', { symbol: 'Sink' });
    assert.deepEqual(sinks.data.children.map((c) => [c.name, c.relation]), [['Console', 'implements']]);
  });

  test('find-dead-code and get-change-impact', async () => {
    const dead = await call('find-dead-code', {});
    assert.deepEqual(dead.data.definitions.map((d) => d.qualifiedName), ['store.disk._forgotten']);
    write(project, 'store/disk.py', fs.readFileSync(path.join(project, 'store/disk.py'), 'utf8').replace('len(item)', 'len(item) + 1'));
    let impact;
    assert.ok(await eventually(async () => {
      impact = (await call('get-change-impact', {})).data;
      return impact.changed.length === 1;
    }), 'the change is seen');
    assert.equal(impact.changed[0].qualifiedName, 'store.disk.write_file');
    assert.deepEqual(impact.impacted.map((d) => d.qualifiedName), ['store.disk.DiskStore.save', 'app.main']);
  });

  test('a file another process edits is answered about without asking for it', async () => {
    write(project, 'web/client.ts', `${fs.readFileSync(path.join(project, 'web/client.ts'), 'utf8')}export function shout(x: string) { return log(x); }\n`);
    const started = Date.now();
    const seen = await eventually(async () => (await call('find-symbol', { query: 'shout' })).data.total === 1, 10000);
    assert.ok(seen, 'the new function is found');
    const waited = Date.now() - started;
    const callers = await call('get-call-hierarchy', { symbol: 'log' });
    assert.deepEqual(callers.data.children.map((c) => c.name).sort(), ['push', 'shout']);
    console.log(`# an edit by another process was answered about ${waited} ms later`);
  });

  test('bad arguments are envelopes naming the field', async () => {
    const kind = await call('find-symbol', { query: 'x', kind: 'gizmo' });
    assert.equal(kind.result.isError, true);
    assert.equal(kind.status.code, 400);
    const missing = await call('find-references', { symbol: 'NoSuchThing' });
    assert.equal(missing.status.code, 404);
    assert.match(missing.result.content[0].text, /No definition named NoSuchThing/);
    const base = await call('get-change-impact', { base: '--output=/tmp/x' });
    assert.equal(base.status.code, 400);
  });

  test('indexing a real tree reports progress and can be cancelled', async () => {
    const controller = new AbortController();
    let notified = 0;
    await assert.rejects(client.callTool({ name: 'find-symbol', arguments: { projectPath: goTree, query: 'ListenAndServe' } },
      undefined, { signal: controller.signal, onprogress: () => { notified += 1; if (notified === 1) controller.abort('enough'); } }));
    assert.ok(notified >= 1, 'progress arrived before the answer');
    const progress = [];
    const result = await client.callTool({ name: 'find-symbol', arguments: { projectPath: goTree, query: 'http.ListenAndServe' } },
      undefined, { timeout: 120000, onprogress: (p) => progress.push(p) });
    assert.equal(result.structuredContent.data.symbols[0].location, 'net/http/server.go:3253:6');
    assert.ok(progress.length >= 2, `${progress.length} progress notifications`);
    assert.ok(progress.some((p) => /indexed \d+ of \d+ files/.test(p.message ?? '')));
    for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i].progress >= progress[i - 1].progress);
  });
});
