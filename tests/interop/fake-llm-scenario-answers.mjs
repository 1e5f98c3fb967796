// What the scenarios of fake-llm-scenarios.mjs do to the OpenAI-compatible and Gemini answers: the
// request checks some providers add, and the answers they give. Each takes the normal answer
// (openaiStream / openaiCompletion / geminiStream of fake-llm-formats.mjs) for the plan the model
// made and changes what that provider changes; the table in fake-llm-scenarios.mjs says which
// provider does what, with its documentation.
import { cutPlan } from './fake-llm-anthropic.mjs';
import {
  geminiStream, googleError, hex, openaiCompletion, openaiError, openaiStream, outputLength, pieces, tokens,
} from './fake-llm-formats.mjs';

/** A chunk like `template` (ids, model, usage: null…) with one choice holding `delta`. */
const like = (template, delta, finish = null) =>
  ({ ...template, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const finishChunk = (events) => events.find((event) => event.data?.choices?.[0]?.finish_reason)?.data;
const words = (text) => text.match(/\S+\s*/g);

// ---------------------------------------------------------------------------------------------
// Request checks.

/** gpt5-params: reasoning models refuse max_tokens and any temperature but 1. */
export function gpt5Problem(body, { raw }) {
  if (body.max_tokens !== undefined && body.max_tokens !== null) {
    return openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      { param: 'max_tokens', code: 'unsupported_parameter' });
  }
  if (body.temperature !== undefined && body.temperature !== null && body.temperature !== 1) {
    // The message repeats the number as it was written (0.0 stays 0.0).
    const written = /"temperature"\s*:\s*(-?[0-9][0-9.eE+-]*)/.exec(raw)?.[1] ?? String(body.temperature);
    return openaiError(400, `Unsupported value: 'temperature' does not support ${written} with this model. Only the default (1) value is `
      + 'supported.', { param: 'temperature', code: 'unsupported_value' });
  }
  return null;
}

/**
 * deepseek-thinking: DeepSeek's docs say that between two user messages, if the model called tools,
 * every assistant message there must carry its reasoning_content "in all subsequent requests" — so
 * every such turn of the history is checked, not only the current one. The field must be a string;
 * the API's text ("Missing ... field") and public fixes that send "" (continuedev/continue#11290)
 * say an empty string passes.
 */
export function deepseekProblem(body) {
  let turn = [];
  const check = () => {
    if (!turn.some(({ message }) => Array.isArray(message.tool_calls) && message.tool_calls.length)) return null;
    const missing = turn.find(({ message }) => typeof message.reasoning_content !== 'string');
    if (!missing) return null;
    return openaiError(400, `Missing \`reasoning_content\` field in the assistant message at message index ${missing.index}. For more `
      + 'information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls', { code: 'invalid_request_error' });
  };
  for (const [index, message] of body.messages.entries()) {
    if (message.role === 'user') {
      const problem = check();
      if (problem) return problem;
      turn = [];
    } else if (message.role === 'assistant') turn.push({ index, message });
  }
  return check();
}

/**
 * gemini3-compat: Gemini 3 behind its OpenAI-compatible endpoint. Only the current turn (after the
 * last user message) is validated, and in each of its steps only the first call carries a signature
 * (https://ai.google.dev/gemini-api/docs/thought-signatures). Errors come as a one-element array
 * (quoted in https://discuss.ai.google.dev/t/109823). "position" is the assistant message's place
 * among the non-system messages, counted from 1: a guess that matches the reports.
 */
export function gemini3CompatProblem(body, { compatBook }) {
  const { messages } = body;
  const current = messages.findLastIndex((message) => message.role === 'user');
  for (const [i, message] of messages.entries()) {
    if (i < current || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      let args;
      try { args = JSON.parse(call.function.arguments); } catch { continue; }
      const signature = call.extra_content?.google?.thought_signature;
      const problem = compatBook.problem({ id: call.id, name: call.function.name, args }, signature);
      if (!problem) continue;
      const position = messages.slice(0, i).filter((m) => m.role !== 'system' && m.role !== 'developer').length + 1;
      const message = problem.startsWith('Function call is missing') ? 'Function call is missing a thought_signature in functionCall parts. '
        + 'This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional '
        + `data, function call \`default_api:${call.function.name}\` , position ${position}. Please refer to `
        + 'https://ai.google.dev/gemini-api/docs/thought-signatures for more details.' : problem;
      return { status: 400, body: [googleError(400, message).body] };
    }
  }
  return null;
}

/** insufficient-quota: always refused, whatever the request. */
export const insufficientQuota = () => openaiError(429, 'You exceeded your current quota, please check your plan and billing details. For '
  + 'more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
{ type: 'insufficient_quota', code: 'insufficient_quota' });

// ---------------------------------------------------------------------------------------------
// OpenAI-compatible answers.

const THINKING = 'Let me think about this. The user asked something; I will answer it. ';

/** Reasoning deltas in `field` before the answer: the role moves to the first of them. */
function withReasoning(events, field, extra) {
  const template = events[0].data;
  delete template.choices[0].delta.role;
  const reasoning = words(THINKING).map((text, i) => ({
    data: like(template, { ...(i ? {} : { role: 'assistant' }), ...extra, [field]: text }),
  }));
  return [...reasoning, ...events];
}

export const deepseekStream = (plan, context) => withReasoning(openaiStream(plan, context), 'reasoning_content', { content: null });
export function deepseekCompletion(plan, context) {
  const completion = openaiCompletion(plan, context);
  completion.choices[0].message.reasoning_content = THINKING;
  return completion;
}

// OpenRouter sends an empty content beside each reasoning delta; vLLM leaves content out.
export const reasoningStream = (plan, context) => withReasoning(openaiStream(plan, context), 'reasoning', { content: '' });
export function reasoningCompletion(plan, context) {
  const completion = openaiCompletion(plan, context);
  completion.choices[0].message.reasoning = THINKING;
  return completion;
}

/** gemini3-compat: the first call of each answer carries extra_content.google.thought_signature. */
function signFirstCall(plan, calls, compatBook) {
  const head = calls.find((call) => call.id && (call.index ?? 0) === 0);
  if (!head) return;
  const [call] = plan.calls;
  head.extra_content = { google: { thought_signature: compatBook.issue(call.name, call.args ?? {}, head.id) } };
}
export function gemini3CompatStream(plan, context) {
  const events = openaiStream(plan, context);
  signFirstCall(plan, events.flatMap((event) => event.data?.choices?.[0]?.delta?.tool_calls ?? []), context.compatBook);
  return events;
}
export function gemini3CompatCompletion(plan, context) {
  const completion = openaiCompletion(plan, context);
  signFirstCall(plan, completion.choices[0].message.tool_calls ?? [], context.compatBook);
  return completion;
}

const REFUSAL = "I'm sorry, I can't help with that.";
export function refusalStream(plan, context) {
  const events = openaiStream({ pieces: [], calls: [], pause: 0 }, context);
  const template = events[0].data;
  return [{ data: like(template, { role: 'assistant', content: null, refusal: '' }) },
    ...words(REFUSAL).map((refusal) => ({ data: like(template, { refusal }) })), ...events.slice(1)];
}
export function refusalCompletion(plan, context) {
  const completion = openaiCompletion({ pieces: [], calls: [], pause: 0 }, context);
  completion.choices[0].message = { role: 'assistant', content: null, refusal: REFUSAL };
  return completion;
}

export function lengthStream(plan, context) {
  const events = openaiStream(cutPlan(plan), context);
  finishChunk(events).choices[0].finish_reason = 'length';
  return events;
}
export function lengthCompletion(plan, context) {
  const completion = openaiCompletion(cutPlan(plan), context);
  completion.choices[0].finish_reason = 'length';
  return completion;
}

// Azure OpenAI annotates prompt and completion with content_filter_results; a filtered completion
// ends with finish_reason "content_filter" and the category that tripped marked filtered.
const SAFE = Object.fromEntries(['hate', 'self_harm', 'sexual', 'violence'].map((name) => [name, { filtered: false, severity: 'safe' }]));
const FILTERED = { ...SAFE, violence: { filtered: true, severity: 'medium' } };
const PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: SAFE }];
export function contentFilterStream(plan, context) {
  const events = openaiStream(cutPlan({ ...plan, calls: [] }), context);
  for (const { data } of events) if (data.choices?.length) data.choices[0].content_filter_results = SAFE;
  const finish = finishChunk(events).choices[0];
  Object.assign(finish, { finish_reason: 'content_filter', content_filter_results: FILTERED });
  return [{ data: { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER } }, ...events];
}
export function contentFilterCompletion(plan, context) {
  const completion = openaiCompletion(cutPlan({ ...plan, calls: [] }), context);
  Object.assign(completion.choices[0], { finish_reason: 'content_filter', content_filter_results: FILTERED });
  return { ...completion, prompt_filter_results: PROMPT_FILTER };
}

/** Groq's usage: no top-level usage, but x_groq.usage (with timings) on the last chunk. */
function groqUsage(plan, promptTokens) {
  const completion = tokens(outputLength(plan));
  return { queue_time: 0.021, prompt_tokens: promptTokens, prompt_time: 0.004, completion_tokens: completion, completion_time: 0.052,
    total_tokens: promptTokens + completion, total_time: 0.056 };
}
export function groqStream(plan, context) {
  const events = openaiStream(plan, { ...context, includeUsage: false });
  const id = `req_${hex(13)}`;
  events[0].data.x_groq = { id };
  finishChunk(events).x_groq = { id, usage: groqUsage(plan, context.promptTokens) };
  return events;
}
export function groqCompletion(plan, context) {
  const completion = openaiCompletion(plan, context);
  return { ...completion, usage: groqUsage(plan, context.promptTokens), x_groq: { id: `req_${hex(13)}` } };
}

/**
 * split-surrogates: a gateway that cuts text by UTF-16 units, so an emoji's high surrogate ends one
 * piece and its low surrogate starts the next (JSON.stringify writes each half as a \u escape).
 */
export function surrogateCut(text, size) {
  const out = [];
  let piece = '';
  for (let i = 0; i < text.length; i += 1) {
    piece += text[i];
    const code = text.charCodeAt(i);
    if ((code >= 0xd800 && code <= 0xdbff) || piece.length >= size) {
      out.push(piece);
      piece = '';
    }
  }
  if (piece) out.push(piece);
  return out;
}
/** The planned text, with " 😀 done" added when it holds no emoji (and no calls are made). */
function emojiText(plan) {
  const text = plan.pieces.join('');
  return plan.calls.length || /[\u{10000}-\u{10FFFF}]/u.test(text) ? text : `${text} 😀 done`;
}
export const splitStream = (plan, context) => openaiStream({ ...plan, pieces: surrogateCut(emojiText(plan), 8).filter(Boolean) },
  { ...context, fragment: (text) => surrogateCut(text, 5) });
export const splitCompletion = (plan, context) => openaiCompletion({ ...plan, pieces: [emojiText(plan)] }, context);

// ---------------------------------------------------------------------------------------------
// Gemini answers.

const RATINGS = ['HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_DANGEROUS_CONTENT'];
const ratings = (blocked) => RATINGS.map((category) => (category === blocked ? { category, probability: 'HIGH', blocked: true }
  : { category, probability: 'NEGLIGIBLE' }));
const header = (events) => ({ modelVersion: events[0].data.modelVersion, responseId: events[0].data.responseId });

/** safety: some text, then a chunk with no content, finishReason SAFETY and the rating that blocked. */
export function safetyStream(plan, context) {
  const events = geminiStream(cutPlan({ ...plan, calls: [] }), context);
  const last = events.at(-1).data;
  delete last.candidates[0].finishReason;
  events.push({ data: { candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: ratings('HARM_CATEGORY_DANGEROUS_CONTENT') }],
    usageMetadata: last.usageMetadata, ...header(events) } });
  return events;
}

/** recitation: no text at all; the candidate names its sources. */
export function recitationStream(plan, context) {
  const events = geminiStream({ pieces: [], calls: [], pause: 0 }, context);
  const usageMetadata = { promptTokenCount: context.promptTokens, totalTokenCount: context.promptTokens };
  return [{ data: { candidates: [{ finishReason: 'RECITATION', index: 0, safetyRatings: ratings(null), citationMetadata: { citationSources: [
    { startIndex: 0, endIndex: 118, uri: 'https://example.com/a-recited-page', license: '' }] } }], usageMetadata, ...header(events) } }];
}

/** thinking-max-tokens: thinking used the whole output budget; the candidate has a role and no parts. */
export function thinkingMaxTokensStream(plan, context) {
  const events = geminiStream({ pieces: [], calls: [], pause: 0 }, context);
  const thoughts = context.body.generationConfig?.maxOutputTokens ?? 8192;
  const usageMetadata = { promptTokenCount: context.promptTokens, totalTokenCount: context.promptTokens + thoughts,
    thoughtsTokenCount: thoughts };
  const candidate = { content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 };
  return [{ data: { candidates: [candidate], usageMetadata, ...header(events) } }];
}

/** thoughts: thought-summary parts ({ text, thought: true }) before the answer; counted in usage. */
const THOUGHT = '**Reading the request**\n\nThe user asked for something plain; I will answer it directly.';
export function thoughtsStream(plan, context) {
  const events = geminiStream(plan, context);
  const thoughts = tokens(THOUGHT.length);
  const usage = (usageMetadata) => ({ ...usageMetadata, thoughtsTokenCount: thoughts,
    totalTokenCount: usageMetadata.totalTokenCount + thoughts });
  const summary = pieces(THOUGHT, 24).map((text) => ({ data: {
    candidates: [{ content: { role: 'model', parts: [{ text, thought: true }] }, index: 0 }],
    usageMetadata: usage({ promptTokenCount: context.promptTokens, candidatesTokenCount: 0, totalTokenCount: context.promptTokens }),
    ...header(events) } }));
  for (const { data } of events) data.usageMetadata = usage(data.usageMetadata);
  return [...summary, ...events];
}
