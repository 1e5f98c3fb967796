// The official TypeScript SDK v2 client (@modelcontextprotocol/client 2.4) drives `mcpkit everything`
// over stdio, in the 2025 era (legacy) and in protocol 2026-07-28 (pinned), where it exercises
// server/discover, per-request _meta, input_required rounds and subscriptions/listen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { eventually, mcpkit } from './support.mjs';

function newClient(versionNegotiation, capabilities = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }) {
  const client = new Client({ name: 'ts-v2-interop', version: '2.0.0' }, {
    capabilities,
    versionNegotiation,
    probe: { timeoutMs: 5000 },
  });
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const properties = request.params.requestedSchema?.properties ?? {};
      const content = {};
      for (const [key, schema] of Object.entries(properties)) {
        if (schema.type === 'boolean') content[key] = true;
        else if (key === 'name' || key === 'username') content[key] = 'Alice';
        else if (key === 'color') content[key] = 'blue';
        else if (schema.type === 'string') content[key] = `value of ${key}`;
      }
      return { action: 'accept', content };
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async () =>
      ({ role: 'assistant', model: 'fake-model', content: { type: 'text', text: 'Paris' } }));
  }
  if (capabilities.roots) {
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///tmp/project', name: 'project' }] }));
  }
  return client;
}

const connect = (client) => client.connect(new StdioClientTransport({ command: mcpkit, args: ['everything'], stderr: 'inherit' }));

describe('TypeScript SDK v2 client → mcpkit everything, 2025 era', () => {
  let client;
  before(async () => { client = newClient({ mode: 'legacy' }); await connect(client); });
  after(async () => { await client?.close(); });

  test('negotiates 2025-11-25 and calls tools', async () => {
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'v2 legacy' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'v2 legacy' }]);
  });

  test('an input_required tool is fulfilled by the server asking this client', async () => {
    const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    assert.equal(result.content[0].text, 'Hello, Alice!');
  });

  test('subscribe delivers updates, and completion completes', async () => {
    const updates = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => updates.push(notification.params.uri));
    await client.subscribeResource({ uri: 'test://watched-resource' });
    assert.ok(await eventually(() => updates.includes('test://watched-resource'), 5000), 'no resources/updated within 5 s');
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'hel' } });
    assert.deepEqual(completion.completion.values, ['hello', 'help']);
  });
});

describe('TypeScript SDK v2 client → mcpkit everything, 2026-07-28', () => {
  let client;
  const toolChanges = [];
  before(async () => {
    client = newClient({ mode: { pin: '2026-07-28' } });
    client.setNotificationHandler('notifications/tools/list_changed', (n) => toolChanges.push(n));
    await connect(client);
  });
  after(async () => { await client?.close(); });

  test('discovers the server without initialize', () => {
    assert.equal(client.getProtocolEra(), 'modern');
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  });

  test('lists and calls tools with per-request metadata', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'test_input_required_result_multi_round'));
    const text = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.equal(text.content[0].text, 'This is a simple text response for testing.');
    const failing = await client.callTool({ name: 'test_error_handling', arguments: {} });
    assert.equal(failing.isError, true);
  });

  test('input_required rounds: elicitation, sampling, roots, state, several rounds', async () => {
    const call = (name) => client.callTool({ name, arguments: {} }).then((r) => r.content[0].text);
    assert.equal(await call('test_input_required_result_elicitation'), 'Hello, Alice!');
    assert.equal(await call('test_input_required_result_sampling'), 'Sampling result: Paris');
    assert.equal(await call('test_input_required_result_list_roots'), 'Found 1 root(s)');
    assert.match(await call('test_input_required_result_request_state'), /state-ok/);
    assert.match(await call('test_input_required_result_multiple_inputs'), /^Name: Alice; Greeting: Paris; Roots: 1$/);
    assert.equal(await call('test_input_required_result_multi_round'), 'Multi-round complete for Alice who likes blue');
    assert.match(await call('test_input_required_result_tampered_state'), /integrity-ok/);
  });

  test('a prompt can ask for input too', async () => {
    const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    assert.match(prompt.messages[0].content.text, /^Prompt with context: /);
  });

  test('resources read, and a missing one is -32602 with its uri', async () => {
    const read = await client.readResource({ uri: 'test://static-text' });
    assert.equal(read.contents[0].text, 'This is the content of the static text resource.');
    await assert.rejects(client.readResource({ uri: 'test://nonexistent-resource-for-conformance-testing' }),
      (e) => e.code === -32602 && e.data?.uri === 'test://nonexistent-resource-for-conformance-testing');
  });

  test('subscriptions/listen delivers list changes tagged for the subscription', async () => {
    const subscription = await client.listen({ toolsListChanged: true });
    assert.equal(subscription.honoredFilter?.toolsListChanged, true);
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    assert.ok(await eventually(() => toolChanges.length > 0, 3000), 'no tools/list_changed on the subscription');
    await subscription.close();
  });
});

describe('TypeScript SDK v2 client without capabilities, 2026-07-28', () => {
  let client;
  before(async () => { client = newClient({ mode: { pin: '2026-07-28' } }, {}); await connect(client); });
  after(async () => { await client?.close(); });

  test('a tool that needs sampling answers -32021 naming it', async () => {
    await assert.rejects(client.callTool({ name: 'test_missing_capability', arguments: {} }),
      (e) => e.code === -32021 && e.data?.requiredCapabilities?.sampling !== undefined);
  });
});
