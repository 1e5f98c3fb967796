// The deterministic "model" behind the fake LLM server (fake-llm.mjs), and the two wire formats it
// speaks: OpenAI-compatible chat completions and Gemini's native generateContent. Everything here
// is pure (request in, events or errors out); the SignatureBook (fake-llm-signatures.mjs) remembers
// the Gemini thought signatures the fake has issued.
import { randomBytes } from 'node:crypto';

import { SignatureBook } from './fake-llm-signatures.mjs';

export { SignatureBook };

export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
export const hex = (bytes) => randomBytes(bytes).toString('hex');
export const tokens = (length) => Math.ceil(length / 4);

/** `text` cut into pieces of `size` code points (never halving a surrogate pair). */
export function pieces(text, size) {
  const chars = Array.from(text);
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The model. Input is a neutral view of the conversation's last entry:
//   { kind: 'results', results: [{ name, result }] }  (tool results)  or  { kind: 'text', text }.
// Output is a plan: text pieces to stream (with `pause` ms between them) and tool calls to make.
// A call is { name, args (parsed JSON, or undefined when it does not parse), argsText }.

const VOCABULARY = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor'.split(' ');
const LIMIT = 200000; // upper bound for `slow` and `long`, so a typo cannot exhaust memory

export function answer(view) {
  if (view.kind === 'results') {
    const lines = view.results.map(({ name, result }) =>
      `Tool ${name} answered: ${Array.from(JSON.stringify(result) ?? 'null').slice(0, 300).join('')}`);
    return { pieces: pieces(lines.join('\n'), 8), pause: 0, calls: [] };
  }
  const text = view.text ?? '';
  return callCommand(text) ?? simpleCommand(text.trim()) ?? { pieces: pieces(`You said: ${text}`, 8), pause: 0, calls: [] };
}

/** Lines `call <name> <json>`; text before the first is said first; lines after a call line continue its JSON. */
function callCommand(text) {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((line) => /^\s*call\s+\S/.test(line));
  if (first < 0) return null;
  const calls = [];
  for (const line of lines.slice(first)) {
    const match = /^\s*call\s+(\S+)\s*(.*)$/.exec(line);
    if (match) calls.push({ name: match[1], argsText: match[2] });
    else if (line.trim()) calls.at(-1).argsText += `\n${line}`;
  }
  for (const call of calls) {
    call.argsText = call.argsText.trim() || '{}';
    try {
      call.args = JSON.parse(call.argsText);
      call.argsText = JSON.stringify(call.args); // models emit compact JSON
    } catch {
      call.args = undefined; // kept as written: OpenAI carries it verbatim, Gemini reports a malformed call
    }
  }
  return { pieces: pieces(lines.slice(0, first).join('\n').trim(), 8), pause: 0, calls };
}

function simpleCommand(text) {
  let match;
  if ((match = /^echo\s+([\s\S]+)$/.exec(text))) {
    return { pieces: match[1].match(/\s*\S+\s*/g), pause: 0, calls: [] }; // one word (and its spacing) a chunk
  }
  if ((match = /^slow\s+(\d+)(?:\s+(\d+))?$/.exec(text))) {
    const n = Math.min(Number(match[1]), LIMIT);
    return { pieces: Array.from({ length: n }, (_, i) => `chunk ${i + 1} `), pause: Number(match[2] ?? 200), calls: [] };
  }
  if ((match = /^fenced\s+(\S+)\s*([\s\S]*)$/.exec(text))) {
    const block = `\`\`\`json\n{"tool": "${match[1]}", "arguments": ${match[2].trim() || '{}'}}\n\`\`\``;
    return { pieces: pieces(`I will use the ${match[1]} tool.\n${block}`, 8), pause: 0, calls: [] };
  }
  if ((match = /^long\s+(\d+)$/.exec(text))) {
    const n = Math.min(Number(match[1]), LIMIT);
    return { pieces: Array.from({ length: n }, (_, i) => `${VOCABULARY[i % VOCABULARY.length]} `), pause: 0, calls: [] };
  }
  return null;
}

export const outputLength = (plan) =>
  plan.pieces.join('').length + plan.calls.reduce((sum, call) => sum + call.name.length + call.argsText.length, 0);

// ---------------------------------------------------------------------------------------------
// OpenAI chat completions.

export const QUIRKS = ['ollama', 'noindex', 'noid', 'stop', 'vllm'];

/** The quirk a model name asks for: `quirk-ollama`, `quirk-stop-gpt4`, … (null for standard OpenAI). */
export function quirkOf(model) {
  const match = /^quirk-([a-z]+)(?![a-z0-9])/.exec(String(model ?? ''));
  return match && QUIRKS.includes(match[1]) ? match[1] : null;
}

export function openaiError(status, message, { type = 'invalid_request_error', param = null, code = null } = {}) {
  return { status, body: { error: { message, type, param, code } } };
}
const bad = (message, param = null, code = null) => openaiError(400, message, { param, code });

const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const kind = (value) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object'
  : `a ${typeof value}`);

/** What a real provider would reject in this request body, as { status, body }, or null. */
export function openaiProblem(body) {
  if (!isObject(body)) {
    return bad("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library "
      + 'correctly. The OpenAI API expects a JSON payload.)');
  }
  if (typeof body.model !== 'string' || body.model === '') return bad('you must provide a model parameter');
  if (!Array.isArray(body.messages)) return bad("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (body.messages.length === 0) {
    return bad("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages', 'empty_array');
  }
  return openaiToolsProblem(body.tools) ?? openaiMessagesProblem(body.messages);
}

function openaiToolsProblem(tools) {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) {
    return bad(`Invalid type for 'tools': expected an array, but got ${kind(tools)} instead.`, 'tools', 'invalid_type');
  }
  if (tools.length > 128) {
    return bad(`Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${tools.length}`
      + ' instead.', 'tools', 'array_above_max_length');
  }
  for (const [i, tool] of tools.entries()) {
    if (tool?.type !== 'function') {
      return bad(`Invalid value for 'tools[${i}].type': expected 'function'.`, `tools[${i}].type`, 'invalid_value');
    }
    const param = `tools[${i}].function.name`;
    const name = tool.function?.name;
    if (typeof name !== 'string') return bad(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
    if (name.length > 64) {
      return bad(`Invalid '${param}': string too long. Expected a string with maximum length 64, but got a string with length `
        + `${name.length} instead.`, param, 'string_above_max_length');
    }
    if (!TOOL_NAME.test(name)) {
      return bad(`Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        param, 'invalid_value');
    }
    const parameters = tool.function.parameters;
    if (parameters !== undefined && !isObject(parameters)) {
      const at = `tools[${i}].function.parameters`;
      return bad(`Invalid type for '${at}': expected an object, but got ${kind(parameters)} instead.`, at, 'invalid_type');
    }
  }
  return null;
}

function openaiMessagesProblem(messages) {
  const issued = new Set(); // ids of every assistant tool call so far
  let unanswered = [];      // ids of the latest assistant tool calls still waiting for their tool message
  for (const [i, message] of messages.entries()) {
    if (!ROLES.includes(message?.role)) {
      return bad(`Invalid value: '${message?.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and `
        + "'developer'.", `messages[${i}].role`, 'invalid_value');
    }
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string') {
        return bad("Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
          `messages.[${i}].tool_call_id`);
      }
      if (!issued.has(message.tool_call_id)) {
        return bad("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`);
      }
      unanswered = unanswered.filter((id) => id !== message.tool_call_id);
      continue;
    }
    // Like OpenAI: an assistant message's tool calls must all be answered before the conversation goes on.
    if (unanswered.length) return unansweredError(i, unanswered);
    if (message.role !== 'assistant' || message.tool_calls === undefined || message.tool_calls === null) continue;
    if (!Array.isArray(message.tool_calls)) {
      const at = `messages[${i}].tool_calls`;
      return bad(`Invalid type for '${at}': expected an array, but got ${kind(message.tool_calls)} instead.`, at, 'invalid_type');
    }
    for (const [j, call] of message.tool_calls.entries()) {
      const at = `messages[${i}].tool_calls[${j}]`;
      const args = call?.function?.arguments;
      if (args === undefined) {
        return bad(`Missing required parameter: '${at}.function.arguments'.`, `${at}.function.arguments`, 'missing_required_parameter');
      }
      if (typeof args !== 'string') {
        return bad(`Invalid type for '${at}.function.arguments': expected a string, but got ${kind(args)} instead.`,
          `${at}.function.arguments`, 'invalid_type');
      }
      if (typeof call.id !== 'string') return bad(`Missing required parameter: '${at}.id'.`, `${at}.id`, 'missing_required_parameter');
      issued.add(call.id);
      unanswered.push(call.id);
    }
  }
  return unanswered.length ? unansweredError(messages.length, unanswered) : null;
}

const unansweredError = (i, ids) => bad("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
  + `'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(', ')}`, `messages.[${i}].role`);

const textOf = (content) =>
  Array.isArray(content) ? content.filter((part) => part?.type === 'text').map((part) => part.text).join('') : (content ?? '');

export function openaiView(body) {
  const { messages } = body;
  let first = messages.length;
  while (first > 0 && messages[first - 1].role === 'tool') first -= 1;
  if (first < messages.length) {
    const names = new Map();
    for (const message of messages) for (const call of message.tool_calls ?? []) names.set(call.id, call.function?.name);
    return {
      kind: 'results',
      results: messages.slice(first).map((message) => {
        const text = String(textOf(message.content));
        let result = text;
        try { result = JSON.parse(text); } catch { /* plain text result */ }
        return { name: names.get(message.tool_call_id) ?? message.name ?? 'unknown', result };
      }),
    };
  }
  return { kind: 'text', text: String(textOf(messages.findLast((message) => message.role === 'user')?.content)) };
}

/**
 * The SSE events (each { data, pause }) of a streamed chat completion, [DONE] included. `fragment`
 * cuts a call's arguments into deltas (a scenario may cut elsewhere than every 5 characters).
 */
export function openaiStream(plan, { model, promptTokens, includeUsage, fragment = (text) => pieces(text, 5) }) {
  const quirk = quirkOf(model);
  const base = {
    id: `chatcmpl-${hex(12)}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, system_fingerprint: 'fp_fake',
  };
  // With include_usage, OpenAI puts "usage": null on every chunk but the usage-only one.
  const chunk = (delta, finish = null) => ({
    ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}),
  });
  const events = [];
  let role = { role: 'assistant' }; // goes on the first delta only, except for Ollama which repeats it
  const delta = (fields) => {
    const out = quirk === 'ollama' ? { role: 'assistant', content: '', ...fields } : { ...role, ...fields };
    role = {};
    return out;
  };
  if (plan.pieces.length || !plan.calls.length) events.push({ data: chunk(delta({ content: '' })), pause: 0 });
  plan.pieces.forEach((piece, i) => events.push({ data: chunk(delta({ content: piece })), pause: i ? plan.pause : 0 }));
  plan.calls.forEach((call, index) => {
    const id = `call_${hex(12)}`;
    const whole = { type: 'function', function: { name: call.name, arguments: call.argsText } };
    if (quirk === 'ollama') events.push({ data: chunk(delta({ tool_calls: [{ index: 0, id, ...whole }] })) });
    else if (quirk === 'noindex') events.push({ data: chunk(delta({ tool_calls: [{ id, ...whole }] })) });
    else {
      const head = { index, ...(quirk === 'noid' ? {} : { id }), type: 'function', function: { name: call.name, arguments: '' } };
      // OpenAI's first delta of a tool-call-only answer is {role, content: null, tool_calls}.
      events.push({ data: chunk(delta(role.role ? { content: null, tool_calls: [head] } : { tool_calls: [head] })) });
      for (const text of fragment(call.argsText)) {
        events.push({ data: chunk({ tool_calls: [{ index, function: { arguments: text } }] }) });
      }
    }
  });
  const finish = plan.calls.length && quirk !== 'ollama' && quirk !== 'stop' ? 'tool_calls' : 'stop';
  events.push({ data: chunk(quirk === 'ollama' ? delta({}) : {}, finish) });
  if (includeUsage || quirk === 'vllm') {
    events.push({ data: { ...base, choices: quirk === 'vllm' ? null : [], usage: openaiUsage(plan, promptTokens) } });
  }
  events.push({ data: '[DONE]' });
  return events;
}

function openaiUsage(plan, promptTokens) {
  const completion = tokens(outputLength(plan));
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
}

/** The one `chat.completion` object of a request without `stream`. */
export function openaiCompletion(plan, { model, promptTokens }) {
  const quirk = quirkOf(model);
  const text = plan.pieces.join('');
  const message = { role: 'assistant', content: text || (plan.calls.length ? null : ''), refusal: null };
  if (plan.calls.length) {
    message.tool_calls = plan.calls.map((call) => ({
      ...(quirk === 'noid' ? {} : { id: `call_${hex(12)}` }), type: 'function', function: { name: call.name, arguments: call.argsText },
    }));
  }
  const finish = plan.calls.length && quirk !== 'ollama' && quirk !== 'stop' ? 'tool_calls' : 'stop';
  return {
    id: `chatcmpl-${hex(12)}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: openaiUsage(plan, promptTokens),
  };
}

// ---------------------------------------------------------------------------------------------
// Gemini generateContent. Field names are proto3 JSON, so snake_case is read as well as camelCase.

const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const get = (object, name) => object?.[name] ?? object?.[snake(name)];

const STATUS = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };

export function googleError(code, message, details) {
  return { status: code, body: { error: { code, message, status: STATUS[code] ?? 'UNKNOWN', ...(details ? { details } : {}) } } };
}

const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
// The fields of the legacy `parameters` Schema message; proto JSON parsing rejects any other name.
const SCHEMA_FIELDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'maxItems', 'minItems', 'properties',
  'required', 'propertyOrdering', 'minimum', 'maximum', 'anyOf', 'default', 'minProperties', 'maxProperties', 'minLength', 'maxLength',
  'pattern', 'example'].flatMap((name) => [name, snake(name)]));

function schemaProblem(schema, at) {
  if (!isObject(schema)) {
    return `Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), ${JSON.stringify(schema)}`;
  }
  for (const [name, value] of Object.entries(schema)) {
    if (!SCHEMA_FIELDS.has(name)) return `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;
    if (name === 'type' && Array.isArray(value)) {
      return `Invalid JSON payload received. Proto field is not repeating, cannot start list. at '${at}.type'`;
    }
  }
  const properties = Object.entries(schema.properties ?? {});
  for (const [i, [, value]] of properties.entries()) {
    const problem = schemaProblem(value, `${at}.properties[${i}].value`);
    if (problem) return problem;
  }
  if (schema.items !== undefined) return schemaProblem(schema.items, `${at}.items`);
  for (const [i, value] of (get(schema, 'anyOf') ?? []).entries()) {
    const problem = schemaProblem(value, `${at}.any_of[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/** What the Gemini API would reject in this request body, as { status, body }, or null. */
export function geminiProblem(body, book) {
  const invalid = (message) => googleError(400, message);
  if (!isObject(body)) return invalid('Invalid JSON payload received. Expected an object.');
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [i, content] of contents.entries()) {
    if (content?.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return invalid('Please use a valid role: user, model.');
    }
    if (!Array.isArray(content?.parts) || content.parts.length === 0) {
      return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
    }
    for (const [j, part] of content.parts.entries()) {
      const at = `contents[${i}].parts[${j}]`;
      const response = get(part, 'functionResponse');
      if (response !== undefined && !isObject(response?.response)) {
        return invalid(`Invalid value at '${at}.function_response.response' (type.googleapis.com/google.protobuf.Struct), `
          + `${JSON.stringify(response?.response ?? null)}`);
      }
      const call = get(part, 'functionCall');
      if (call === undefined) continue;
      if (call.args !== undefined && !isObject(call.args)) {
        return invalid(`Invalid value at '${at}.function_call.args' (type.googleapis.com/google.protobuf.Struct), `
          + `${JSON.stringify(call.args)}`);
      }
      const problem = content.role === 'model' ? book.problem(call, get(part, 'thoughtSignature')) : null;
      if (problem) return invalid(problem);
    }
  }
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    for (const [j, declaration] of (get(tool, 'functionDeclarations') ?? []).entries()) {
      const at = `tools[${i}].function_declarations[${j}]`;
      if (!FUNCTION_NAME.test(declaration?.name ?? '')) {
        return invalid(`* GenerateContentRequest.${at}.name: Invalid function name. Must start with a letter or an underscore. Must be `
          + 'a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.\n');
      }
      const parameters = get(declaration, 'parameters');
      const problem = parameters === undefined ? null : schemaProblem(parameters, `${at}.parameters`);
      if (problem) return invalid(problem);
    }
  }
  return null;
}

export function geminiView(body) {
  const { contents } = body;
  const last = contents.at(-1);
  const responses = last.parts.map((part) => get(part, 'functionResponse')).filter(Boolean);
  if ((last.role ?? 'user') === 'user' && responses.length) {
    return { kind: 'results', results: responses.map((response) => ({ name: response.name, result: response.response })) };
  }
  const texts = (content) => content.parts.filter((part) => typeof part.text === 'string').map((part) => part.text);
  const user = contents.findLast((content) => (content.role ?? 'user') === 'user' && texts(content).length);
  return { kind: 'text', text: user ? texts(user).join('') : '' };
}

/**
 * The GenerateContentResponse chunks (each { data, pause }) of a streamed answer. All function calls
 * come whole in one chunk, each with a fresh thoughtSignature; with `withIds` they carry an id too.
 * A call whose args are not a JSON object ends the answer with finishReason MALFORMED_FUNCTION_CALL.
 */
export function geminiStream(plan, { model, promptTokens, book, withIds }) {
  const responseId = hex(10);
  let written = 0;
  const usage = (length) => {
    written += length;
    const candidates = tokens(written);
    return { promptTokenCount: promptTokens, candidatesTokenCount: candidates, totalTokenCount: promptTokens + candidates };
  };
  const response = (candidate, length) =>
    ({ candidates: [{ ...candidate, index: 0 }], usageMetadata: usage(length), modelVersion: model, responseId });
  const events = (plan.pieces.length || plan.calls.length ? plan.pieces : [''])
    .map((text, i) => ({ data: response({ content: { role: 'model', parts: [{ text }] } }, text.length), pause: i ? plan.pause : 0 }));
  const malformed = plan.calls.find((call) => !isObject(call.args));
  if (malformed) {
    const finishMessage = `Malformed function call: call ${malformed.name} ${malformed.argsText}`;
    events.push({ data: response({ finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage }, 0) });
    return events;
  }
  if (plan.calls.length) {
    const parts = plan.calls.map((call) => {
      const id = withIds ? `fc_${hex(8)}` : undefined;
      const functionCall = { ...(id ? { id } : {}), name: call.name, args: call.args };
      return { functionCall, thoughtSignature: book.issue(call.name, call.args, id) };
    });
    events.push({ data: response({ content: { role: 'model', parts } }, outputLength({ pieces: [], calls: plan.calls })) });
  }
  events.at(-1).data.candidates[0].finishReason = 'STOP';
  return events;
}

/** The one GenerateContentResponse of `:generateContent`: the streamed chunks merged. */
export function geminiResponse(plan, context) {
  return geminiMerge(geminiStream(plan, context).map((event) => event.data));
}

/** Streamed chunks merged into one response; thought summaries and answer text stay separate parts. */
export function geminiMerge(chunks) {
  const last = chunks.at(-1);
  const parts = [];
  for (const chunk of chunks) {
    for (const part of chunk.candidates[0].content?.parts ?? []) {
      const previous = parts.at(-1);
      if (typeof part.text === 'string' && typeof previous?.text === 'string' && !part.thoughtSignature
        && !previous.thoughtSignature && !part.thought === !previous.thought) previous.text += part.text;
      else parts.push({ ...part });
    }
  }
  const candidate = { ...last.candidates[0] };
  if (candidate.finishReason === 'STOP') candidate.content = { role: 'model', parts };
  return { ...last, candidates: [candidate] };
}
