// The official TypeScript SDK v1 (@modelcontextprotocol/sdk 1.32) drives `mcpkit everything` over
// stdio through every feature of the 2025-11-25 protocol.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema,
  LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { eventually, mcpkit } from './support.mjs';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('TypeScript SDK v1 client → mcpkit everything (stdio)', () => {
  let client;
  const logs = [];
  const updates = [];
  let toolListChanges = 0;
  let samplingRequests = 0;
  let elicitations = [];
  let serverLog = '';

  before(async () => {
    client = new Client({ name: 'ts-v1-interop', version: '1.0.0' }, {
      capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      samplingRequests += 1;
      const prompt = request.params.messages[0].content.text;
      return { role: 'assistant', content: { type: 'text', text: `echo(${prompt})` }, model: 'fake-model', stopReason: 'endTurn' };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      // Answer as a person filling the form would: defaults kept, a choice made for every field.
      const properties = request.params.requestedSchema?.properties ?? {};
      const content = {};
      for (const [key, schema] of Object.entries(properties)) {
        if ('default' in schema) content[key] = schema.default;
        else if (schema.enum) content[key] = schema.enum[0];
        else if (schema.oneOf) content[key] = schema.oneOf[0].const;
        else if (schema.type === 'array') content[key] = [schema.items.enum?.[0] ?? schema.items.anyOf[0].const];
        else if (schema.type === 'boolean') content[key] = true;
        else if (schema.type === 'number' || schema.type === 'integer') content[key] = 1;
        else content[key] = key === 'email' ? 'ada@example.com' : 'Ada';
      }
      return { action: 'accept', content };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp', name: 'tmp' }] }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { toolListChanges += 1; });
    const transport = new StdioClientTransport({ command: mcpkit, args: ['everything'], stderr: 'pipe' });
    transport.stderr.on('data', (chunk) => { serverLog += chunk; });
    await client.connect(transport);
  });

  after(async () => { await client?.close(); });

  test('initialize negotiates 2025-11-25 and advertises every feature', () => {
    assert.equal(client.getServerVersion().name, 'mcp-conformance-test-server');
    const caps = client.getServerCapabilities();
    for (const feature of ['tools', 'resources', 'prompts', 'logging', 'completions']) assert.ok(caps[feature], feature);
    assert.equal(caps.resources.subscribe, true);
  });

  test('ping', async () => { assert.deepEqual(await client.ping(), {}); });

  test('tools/list names every fixture tool with a description and an object schema', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['echo', 'test_simple_text', 'test_image_content', 'test_audio_content', 'test_embedded_resource',
      'test_multiple_content_types', 'test_tool_with_logging', 'test_tool_with_progress', 'test_error_handling',
      'test_sampling', 'test_elicitation', 'test_elicitation_sep1034_defaults', 'test_elicitation_sep1330_enums',
      'json_schema_2020_12_tool']) {
      assert.ok(names.includes(name), `missing ${name}`);
    }
    for (const tool of tools) {
      assert.match(tool.name, /^[A-Za-z0-9_./-]{1,64}$/);
      assert.equal(typeof tool.description, 'string');
      assert.equal(tool.inputSchema.type, 'object');
    }
    const schema = tools.find((t) => t.name === 'json_schema_2020_12_tool').inputSchema;
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.ok(schema.$defs?.address, 'the 2020-12 schema is passed through verbatim');
  });

  test('content tools return the exact fixture content', async () => {
    const text = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.deepEqual(text.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
    const image = await client.callTool({ name: 'test_image_content', arguments: {} });
    assert.deepEqual(image.content, [{ type: 'image', data: PNG, mimeType: 'image/png' }]);
    const audio = await client.callTool({ name: 'test_audio_content', arguments: {} });
    assert.equal(audio.content[0].mimeType, 'audio/wav');
    const embedded = await client.callTool({ name: 'test_embedded_resource', arguments: {} });
    assert.deepEqual(embedded.content[0].resource,
      { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
    const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
    assert.deepEqual(mixed.content.map((c) => c.type), ['text', 'image', 'resource']);
    assert.deepEqual(JSON.parse(mixed.content[2].resource.text), { test: 'data', value: 123 });
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'héllo ✓' } });
    assert.deepEqual(echo.content, [{ type: 'text', text: 'héllo ✓' }]);
  });

  test('tool errors and invalid arguments come back as isError results', async () => {
    const failing = await client.callTool({ name: 'test_error_handling', arguments: {} });
    assert.equal(failing.isError, true);
    assert.equal(failing.content[0].text, 'This tool intentionally returns an error for testing');
    const invalid = await client.callTool({ name: 'echo', arguments: { text: 12 } });
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0].text, /text/);
  });

  test('logging follows logging/setLevel', async () => {
    await client.setLoggingLevel('info');
    logs.length = 0;
    const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(result.isError, undefined);
    assert.ok(await eventually(() => logs.length >= 3));
    assert.deepEqual(logs.map((l) => l.data), ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    await client.setLoggingLevel('error');
    logs.length = 0;
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs.length, 0, 'info messages are filtered at level error');
  });

  test('progress notifications reach the caller', async () => {
    const seen = [];
    const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    assert.ok(seen.length >= 2, `progress seen: ${seen}`);
    assert.equal(seen[0], 0);
    assert.match(result.content[0].text, /^\d+$/);
  });

  test('sampling: the server asks this client for a completion during the call', async () => {
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'What is 2+2?' } });
    assert.equal(samplingRequests, 1);
    assert.equal(result.content[0].text, 'LLM response: echo(What is 2+2?)');
  });

  test('elicitation: forms, defaults and enums', async () => {
    elicitations = [];
    const simple = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    assert.equal(elicitations[0].message, 'Who are you?');
    assert.equal(simple.content[0].text,
      'User response: action=accept, content={"username":"Ada","email":"ada@example.com"}');
    const defaults = await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    const schema = elicitations[1].requestedSchema.properties;
    assert.equal(schema.name.default, 'John Doe');
    assert.equal(schema.age.default, 30);
    assert.equal(schema.score.default, 95.5);
    assert.equal(schema.status.default, 'active');
    assert.equal(schema.verified.default, true);
    assert.match(defaults.content[0].text, /^Elicitation completed: action=accept, content=\{"name":"John Doe"/);
    const enums = await client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    const enumSchema = elicitations[2].requestedSchema.properties;
    assert.ok(Object.values(enumSchema).some((p) => Array.isArray(p.oneOf)), 'titled single-select');
    assert.ok(Object.values(enumSchema).some((p) => p.type === 'array'), 'multi-select');
    assert.ok(Object.values(enumSchema).some((p) => Array.isArray(p.enumNames)), 'legacy enumNames');
    assert.match(enums.content[0].text, /^Elicitation completed: action=accept/);
  });

  test('resources: list, read text and binary, templates, not found', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ['test://static-text', 'test://static-binary', 'test://watched-resource']) assert.ok(uris.includes(uri), uri);
    for (const r of resources) assert.ok(r.name && r.description !== undefined, JSON.stringify(r));
    const text = await client.readResource({ uri: 'test://static-text' });
    assert.equal(text.contents[0].text, 'This is the content of the static text resource.');
    const binary = await client.readResource({ uri: 'test://static-binary' });
    assert.equal(binary.contents[0].mimeType, 'image/png');
    assert.equal(binary.contents[0].blob, PNG);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
    const templated = await client.readResource({ uri: 'test://template/123/data' });
    assert.deepEqual(JSON.parse(templated.contents[0].text), { id: '123', templateTest: true, data: 'Data for ID: 123' });
    await assert.rejects(client.readResource({ uri: 'test://nonexistent-resource-for-conformance-testing' }),
      (e) => e.code === -32002 || e.code === -32602);
  });

  test('subscriptions deliver resources/updated for the watched resource', async () => {
    await client.subscribeResource({ uri: 'test://watched-resource' });
    assert.ok(await eventually(() => updates.includes('test://watched-resource'), 5000), 'no update within 5 s');
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  test('prompts: list and get with arguments, embedded resources and images', async () => {
    const { prompts } = await client.listPrompts();
    const names = prompts.map((p) => p.name);
    for (const name of ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource',
      'test_prompt_with_image']) assert.ok(names.includes(name), name);
    const simple = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.deepEqual(simple.messages[0], { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } });
    const withArgs = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    assert.equal(withArgs.messages[0].content.text, "Prompt with arguments: arg1='hello', arg2='world'");
    const embedded = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://x' } });
    assert.equal(embedded.messages[0].content.type, 'resource');
    assert.equal(embedded.messages[0].content.resource.text, 'Embedded resource content for testing.');
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    assert.equal(image.messages[0].content.type, 'image');
    await assert.rejects(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } }),
      (e) => e.code === -32602);
  });

  test('completion for a prompt argument', async () => {
    const complete = (name, value) => client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name, value } });
    const prefixed = await complete('arg1', 'te');
    assert.deepEqual(prefixed.completion.values, ['test', 'test_value', 'testing']);
    assert.equal(prefixed.completion.total, 3);
    assert.deepEqual((await complete('arg1', '')).completion.values, ['hello', 'help', 'test', 'test_value', 'testing', 'world']);
    assert.deepEqual((await complete('arg2', 'te')).completion.values, []);
  });

  // The SDK rejects an aborted call by itself, whatever the server does, and a cancelled request
  // sends nothing more: the proof is the server's own log, where count_slowly says it stopped.
  test('cancellation: the server stops an aborted call, and the session goes on', async () => {
    const controller = new AbortController();
    let progress = 0;
    const call = client.callTool({ name: 'count_slowly', arguments: { to: 1000, interval_ms: 20 } }, undefined, {
      signal: controller.signal,
      onprogress: () => { progress += 1; if (progress === 3) controller.abort('user cancelled'); },
    });
    await assert.rejects(call);
    assert.ok(await eventually(() => /count_slowly stopped at \d+ of 1000: cancelled/.test(serverLog), 10000), serverLog);
    assert.deepEqual(await client.ping(), {});
  });

  test('list_changed: the dynamic tool appears and the client is told', async () => {
    assert.ok(await eventually(async () => (await client.listTools()).tools.some((t) => t.name === 'test_dynamic_tool'), 5000));
    assert.ok(toolListChanges >= 1);
  });
});
