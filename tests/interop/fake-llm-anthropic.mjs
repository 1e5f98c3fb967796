// Anthropic's Messages API (POST /v1/messages) for the fake LLM server (fake-llm.mjs): the checks the
// real API applies, with its error texts; the neutral view the model (answer() in
// fake-llm-formats.mjs) answers; and the answer as SSE events or as one message. Written from
// Anthropic's documentation:
//   messages       https://docs.claude.com/en/api/messages
//   streaming      https://docs.claude.com/en/docs/build-with-claude/streaming
//   tool use       https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use
//   thinking       https://docs.claude.com/en/docs/build-with-claude/extended-thinking
//   stop reasons   https://docs.claude.com/en/docs/build-with-claude/handling-stop-reasons
//   errors         https://docs.claude.com/en/api/errors
// Error texts that the docs do not spell out were taken from public bug reports quoting the API
// (cited where used); the few left are marked "not verified".
import { createHmac } from 'node:crypto';

import { hex, isObject, pieces, tokens } from './fake-llm-formats.mjs';

// "type" of the error body for each HTTP status (https://docs.claude.com/en/api/errors).
const ERROR_TYPES = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };

/** An error as { status, body } in Anthropic's shape, request_id included as the real API sends it. */
export function anthropicError(status, message, type = ERROR_TYPES[status] ?? 'api_error') {
  return { status, body: { type: 'error', error: { type, message }, request_id: `req_${hex(12)}` } };
}
const bad = (message) => anthropicError(400, message);

// The versions Anthropic documents (https://docs.claude.com/en/api/versioning).
const VERSIONS = ['2023-06-01', '2023-01-01'];

/** The key and version checks, before the body is looked at. `apiKey` null or '' accepts anyone. */
export function anthropicAuthProblem(headers, apiKey) {
  if (apiKey !== null && apiKey !== '') {
    const given = headers['x-api-key'];
    if (given === undefined) return anthropicError(401, 'x-api-key header is required');
    if (given !== apiKey) return anthropicError(401, 'invalid x-api-key');
  }
  const version = headers['anthropic-version'];
  // Quoted in https://github.com/PipedreamHQ/pipedream/issues/9697 and decolua/9router#2357.
  if (version === undefined) return bad('anthropic-version: header is required');
  if (!VERSIONS.includes(version)) return bad(`anthropic-version: "${version}" is not a valid version`);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Thinking signatures. Anthropic signs each thinking block and refuses a history whose block was
// edited; an HMAC over the thinking text does the same here without remembering anything.

export const signThinking = (secret, thinking) => createHmac('sha256', secret).update(thinking).digest('base64');

const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** Whether the request turns extended thinking on, or the error its `thinking` object earns. */
function thinkingOf(body) {
  const { thinking } = body;
  if (thinking === undefined || thinking === null) return { on: false };
  if (!isObject(thinking)) return { problem: bad('thinking: Input should be a valid dictionary or object to extract fields from') };
  if (thinking.type === 'disabled') return { on: false };
  if (thinking.type !== 'enabled') {
    return { problem: bad(`thinking: Input tag '${thinking.type}' found using 'type' does not match any of the expected tags: 'enabled', `
      + "'disabled'") }; // not verified
  }
  const budget = thinking.budget_tokens;
  if (budget === undefined) return { problem: bad('thinking.enabled.budget_tokens: Field required') };
  if (!Number.isInteger(budget)) return { problem: bad('thinking.enabled.budget_tokens: Input should be a valid integer') };
  // Quoted in themaximalist/llm.js#30; the docs: "budget_tokens must be set to a value less than max_tokens".
  if (budget < 1024) return { problem: bad('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024') };
  if (budget >= body.max_tokens) return { problem: bad('`max_tokens` must be greater than `thinking.budget_tokens`.') };
  return { on: true };
}

// ---------------------------------------------------------------------------------------------
// Requests.

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/; // as the API quotes it (home-assistant/core#147760)
const blocksOf = (content) => (Array.isArray(content) ? content : [{ type: 'text', text: String(content ?? '') }]);

/** What the real API would refuse in this body, as { status, body }, or null. */
export function anthropicProblem(body, secret) {
  if (!isObject(body)) return bad('There was an issue with the JSON body of your request.'); // not verified
  if (body.model === undefined) return bad('model: Field required');
  if (typeof body.model !== 'string') return bad('model: Input should be a valid string');
  if (body.max_tokens === undefined) return bad('max_tokens: Field required');
  if (!Number.isInteger(body.max_tokens)) return bad('max_tokens: Input should be a valid integer');
  if (body.max_tokens < 1) return bad('max_tokens: Input should be greater than or equal to 1');
  if (body.messages === undefined) return bad('messages: Field required');
  if (!Array.isArray(body.messages)) return bad('messages: Input should be a valid list');
  if (body.messages.length === 0) return bad('messages: at least one message is required');
  if (body.system !== undefined && typeof body.system !== 'string') {
    if (!Array.isArray(body.system)) return bad('system: Input should be a valid list');
    const at = body.system.findIndex((block) => block?.type !== 'text' || typeof block.text !== 'string');
    if (at >= 0) return bad(`system.${at}: Input should be a valid text block`); // not verified
  }
  const { temperature } = body;
  if (temperature !== undefined) {
    if (typeof temperature !== 'number') return bad('temperature: Input should be a valid number');
    if (temperature < 0) return bad('temperature: Input should be greater than or equal to 0');
    if (temperature > 1) return bad('temperature: Input should be less than or equal to 1');
  }
  const thinking = thinkingOf(body);
  if (thinking.problem) return thinking.problem;
  // Quoted in MartialBE/one-hub#529; the docs: thinking "isn't compatible with temperature ... modifications".
  if (thinking.on && temperature !== undefined && temperature !== 1) {
    return bad('`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at '
      + `${THINKING_DOCS.replace('docs.claude.com', 'docs.anthropic.com')}#important-considerations-when-using-extended-thinking`);
  }
  return toolsProblem(body.tools) ?? messagesProblem(body.messages)
    ?? (thinking.on ? thinkingBlocksProblem(body.messages, secret) : null);
}

function toolsProblem(tools) {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return bad('tools: Input should be a valid list');
  const names = new Set();
  for (const [i, tool] of tools.entries()) {
    if (!isObject(tool)) return bad(`tools.${i}: Input should be a valid dictionary or object to extract fields from`);
    if (tool.type !== undefined && tool.type !== 'custom') continue; // a server tool (web_search_…): the API runs it
    const at = `tools.${i}.custom`;
    if (typeof tool.name !== 'string') return bad(`${at}.name: Field required`);
    if (tool.name.length > 128) return bad(`${at}.name: String should have at most 128 characters`); // anthropics/claude-code#96152
    if (!TOOL_NAME.test(tool.name)) return bad(`${at}.name: String should match pattern '${TOOL_NAME.source}'`);
    if (tool.input_schema === undefined) return bad(`${at}.input_schema: Field required`);
    if (!isObject(tool.input_schema)) return bad(`${at}.input_schema: Input should be a valid dictionary`);
    if (tool.input_schema.type !== 'object') return bad(`${at}.input_schema.type: Input should be 'object'`);
    if (names.has(tool.name)) return bad('tools: Tool names must be unique.'); // anthropics/claude-code#10687
    names.add(tool.name);
  }
  return null;
}

const idsOf = (message, type) => (message && Array.isArray(message.content)
  ? message.content.filter((block) => block?.type === type).map((block) => (type === 'tool_use' ? block.id : block.tool_use_id)) : []);

function messagesProblem(messages) {
  for (const [i, message] of messages.entries()) {
    if (message?.role === 'system') {
      // Quoted in ianarawjo/ChainForge#271: the system prompt is the top-level `system`.
      return bad('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an '
        + 'input message role.');
    }
    if (message?.role !== 'user' && message?.role !== 'assistant') return bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return bad(`messages.${i}.content: Input should be a valid list`);
    }
    for (const [j, block] of blocksOf(message.content).entries()) {
      if (!isObject(block) || typeof block.type !== 'string') return bad(`messages.${i}.content.${j}.type: Field required`);
    }
  }
  // Every tool_use is answered by a tool_result in the very next message, and every tool_result
  // answers a tool_use of the message before. Texts quoted in anthropics/claude-code#6575, #18947.
  for (const [i, message] of messages.entries()) {
    if (message.role === 'assistant') {
      const answered = messages[i + 1]?.role === 'user' ? idsOf(messages[i + 1], 'tool_result') : [];
      const missing = idsOf(message, 'tool_use').filter((id) => !answered.includes(id));
      if (missing.length) {
        return bad(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. `
          + 'Each `tool_use` block must have a corresponding `tool_result` block in the next message.');
      }
      continue;
    }
    const asked = messages[i - 1]?.role === 'assistant' ? idsOf(messages[i - 1], 'tool_use') : [];
    for (const [j, block] of blocksOf(message.content).entries()) {
      if (block.type === 'tool_result' && !asked.includes(block.tool_use_id)) {
        return bad(`messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. `
          + 'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.');
      }
    }
  }
  return null;
}

/**
 * With thinking on: every thinking block must come back as issued (same text, same signature), and
 * the assistant message whose tool_use the final user message answers must start with one. Texts
 * quoted in Kilo-Org/kilocode#5219 and anthropics/claude-code#10627.
 */
function thinkingBlocksProblem(messages, secret) {
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [j, block] of blocksOf(message.content).entries()) {
      if (block.type !== 'thinking') continue;
      if (typeof block.signature !== 'string') return bad(`messages.${i}.content.${j}.thinking.signature: Field required`);
      if (typeof block.thinking !== 'string' || block.signature !== signThinking(secret, block.thinking)) {
        return bad(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      }
    }
  }
  const last = messages.length - 1;
  const answers = messages[last].role === 'user' && idsOf(messages[last], 'tool_result').length;
  if (!answers || messages[last - 1]?.role !== 'assistant') return null;
  const first = blocksOf(messages[last - 1].content)[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return null;
  return bad(`messages.${last - 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When `
    + '`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and '
    + '`tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable '
    + `\`thinking\`. Please consult our documentation at ${THINKING_DOCS}`);
}

const textOf = (content) => blocksOf(content).filter((block) => block?.type === 'text').map((block) => block.text).join('');

/** The neutral view the model answers: the last user message's tool results, else its text. */
export function anthropicView(body) {
  const { messages } = body;
  const names = new Map();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of blocksOf(message.content)) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  const user = messages.findLast((message) => message.role === 'user');
  const results = blocksOf(user?.content).filter((block) => block.type === 'tool_result');
  if (results.length) {
    return {
      kind: 'results',
      results: results.map((block) => {
        const text = typeof block.content === 'string' ? block.content : textOf(block.content ?? []);
        let result = text;
        try { result = JSON.parse(text); } catch { /* plain text result */ }
        return { name: names.get(block.tool_use_id) ?? 'unknown', result };
      }),
    };
  }
  return { kind: 'text', text: textOf(user?.content) };
}

// ---------------------------------------------------------------------------------------------
// Answers. A plan becomes content blocks, each { start, deltas, final }: the content_block_start
// payload, the content_block_delta payloads and the block as a whole message carries it.

/** The plan cut short, as by max_tokens: half the text, or the text and half the first call. */
export function cutPlan(plan) {
  if (!plan.calls.length) return { ...plan, pieces: plan.pieces.slice(0, Math.ceil(plan.pieces.length / 2)) };
  const [call] = plan.calls;
  const argsText = Array.from(call.argsText).slice(0, Math.ceil(call.argsText.length / 2)).join('');
  return { ...plan, calls: [{ ...call, args: undefined, argsText }] };
}

const textBlock = (texts, pause) => ({
  start: { type: 'text', text: '' }, final: { type: 'text', text: texts.join('') },
  deltas: texts.map((text) => ({ type: 'text_delta', text })), pause,
});
const toolBlock = (type, id, name, argsText, args) => ({
  start: { type, id, name, input: {} }, final: { type, id, name, input: isObject(args) ? args : {} },
  deltas: pieces(argsText, 5).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
});

// Claude 4 "stop_reason": "refusal" (streaming classifiers); `stop_details` on message_delta as the
// current docs show it: https://docs.claude.com/en/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
const REFUSAL_DETAILS = { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' };

function blocksFor(plan, { thinking, secret, stop, continuing, query }) {
  const blocks = [];
  if (thinking) {
    const thought = plan.calls.length ? `The user needs ${plan.calls.map((call) => call.name).join(' and ')}. I will call it.`
      : 'The user wants an answer. I will give it directly.';
    const signature = signThinking(secret, thought);
    blocks.push({ start: { type: 'thinking', thinking: '' }, final: { type: 'thinking', thinking: thought, signature },
      deltas: [...pieces(thought, 12).map((text) => ({ type: 'thinking_delta', thinking: text })),
        { type: 'signature_delta', signature }] });
  }
  if (stop === 'pause_turn' && !continuing) {
    // A server tool loop the API paused between steps: the caller sends the content back as an
    // assistant message to resume (https://docs.claude.com/en/docs/agents-and-tools/tool-use/server-tools).
    const id = `srvtoolu_${hex(12)}`;
    const input = { query: query || 'the question' };
    blocks.push(textBlock(['Let me ', 'search the ', 'web for that.'], 0));
    blocks.push(toolBlock('server_tool_use', id, 'web_search', JSON.stringify(input), input));
    const result = { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', title: 'A page about it',
      url: 'https://example.com/about-it', encrypted_content: hex(24), page_age: null }] };
    blocks.push({ start: result, final: result, deltas: [] });
    return { blocks, stopReason: 'pause_turn' };
  }
  const cut = stop === 'max_tokens' ? cutPlan(plan) : stop === 'refusal' ? { ...cutPlan({ ...plan, calls: [] }), calls: [] } : plan;
  if (cut.pieces.length || !cut.calls.length) blocks.push(textBlock(cut.pieces, cut.pause));
  for (const call of cut.calls) blocks.push(toolBlock('tool_use', `toolu_${hex(12)}`, call.name, call.argsText, call.args));
  return { blocks, stopReason: stop === 'max_tokens' || stop === 'refusal' ? stop : cut.calls.length ? 'tool_use' : 'end_turn' };
}

const usage = (input, output) =>
  ({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output });
const outputTokens = (blocks) => Math.max(1, tokens(blocks.reduce((sum, block) => sum + JSON.stringify(block.final).length, 0)));

/**
 * The SSE events ({ event, data, pause }) of a streamed answer. `stop` is a scenario's stop reason
 * (max_tokens, refusal, pause_turn); `continuing` says the request resumes a paused turn.
 */
export function anthropicStream(plan, context) {
  const { blocks, stopReason } = blocksFor(plan, context);
  const message = { id: `msg_${hex(12)}`, type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null,
    stop_sequence: null, usage: usage(context.promptTokens, 1) };
  const events = [{ event: 'message_start', data: { type: 'message_start', message } }, { event: 'ping', data: { type: 'ping' } }];
  blocks.forEach(({ start, deltas, pause = 0 }, index) => {
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    deltas.forEach((delta, i) => {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta }, pause: i ? pause : 0 });
    });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const delta = { stop_reason: stopReason, stop_sequence: null, ...(stopReason === 'refusal' ? { stop_details: REFUSAL_DETAILS } : {}) };
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta, usage: { output_tokens: outputTokens(blocks) } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** The one message of a request without `stream`. */
export function anthropicMessage(plan, context) {
  const { blocks, stopReason } = blocksFor(plan, context);
  return {
    id: `msg_${hex(12)}`, type: 'message', role: 'assistant', model: context.model, content: blocks.map((block) => block.final),
    stop_reason: stopReason, stop_sequence: null, ...(stopReason === 'refusal' ? { stop_details: REFUSAL_DETAILS } : {}),
    usage: usage(context.promptTokens, outputTokens(blocks)),
  };
}

/** The context anthropicStream and anthropicMessage need for this request. */
export function anthropicContext(body, { promptTokens, secret, stop }) {
  const last = body.messages.at(-1);
  const user = body.messages.findLast((message) => message.role === 'user');
  return { model: body.model, promptTokens, secret, stop, thinking: body.thinking?.type === 'enabled',
    continuing: last.role === 'assistant', query: textOf(user?.content).trim() };
}
