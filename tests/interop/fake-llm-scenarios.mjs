// Provider behaviours the fake LLM server (fake-llm.mjs) can put on, each as documented by the
// provider (or shown in a public bug report): a request names one with the model `scenario-<name>`
// (OpenAI and Anthropic: body.model; Gemini: the path's model). The model of fake-llm-formats.mjs
// still decides the text and the calls (`echo hi`, `call everything__echo {"text":"x"}`); a
// scenario changes how the provider checks the request or delivers that answer.
//
// An entry is { format, cite: [{ url, says }], ...hooks }. Hooks: OpenAI format — `precheck(body)`
// (before validation), `problem(body, { raw, compatBook })` (after it), `stream(plan, context)`,
// `completion(plan, context)`, `gzip` (compress the answer when allowed); Gemini — `stream(plan,
// context)` (the whole answer is those chunks merged); Anthropic — `stop` (the stop reason).
import {
  contentFilterCompletion, contentFilterStream, deepseekCompletion, deepseekProblem, deepseekStream, gemini3CompatCompletion,
  gemini3CompatProblem, gemini3CompatStream, gpt5Problem, groqCompletion, groqStream, insufficientQuota, lengthCompletion, lengthStream,
  reasoningCompletion, reasoningStream, recitationStream, refusalCompletion, refusalStream, safetyStream, splitCompletion, splitStream,
  thinkingMaxTokensStream, thoughtsStream,
} from './fake-llm-scenario-answers.mjs';

export const SCENARIOS = {
  // OpenAI's reasoning models (o-series, gpt-5) take max_completion_tokens and only the default temperature.
  'gpt5-params': {
    format: 'openai',
    problem: gpt5Problem,
    cite: [{ url: 'https://platform.openai.com/docs/api-reference/chat/create',
      says: 'max_tokens: This value is now deprecated in favor of max_completion_tokens, and is not compatible with o-series models.' },
    { url: 'https://github.com/griptape-ai/ComfyUI-Griptape/issues/312',
      says: "gpt-5: 400 {'message': \"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' "
        + "instead.\", 'type': 'invalid_request_error', 'param': 'max_tokens', 'code': 'unsupported_parameter'}" },
    { url: 'https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33',
      says: "\"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.\", param "
        + 'temperature, code unsupported_value' }],
  },
  // DeepSeek thinking mode with tools: reasoning_content streams first and must come back.
  'deepseek-thinking': {
    format: 'openai',
    problem: deepseekProblem,
    stream: deepseekStream,
    completion: deepseekCompletion,
    cite: [{ url: 'https://api-docs.deepseek.com/guides/thinking_mode',
      says: 'The chain of thought comes in reasoning_content, beside content. Between two user messages, if the model made tool calls, the '
        + 'assistant reasoning_content must be passed back in all subsequent requests; otherwise the API returns a 400 error.' },
    { url: 'https://github.com/hotovo/aider-desk/issues/529',
      says: '{"error":{"message":"Missing `reasoning_content` field in the assistant message at message index 2. For more information, '
        + 'please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls","type":"invalid_request_error","param":null,'
        + '"code":"invalid_request_error"}}' }],
  },
  // Gemini 3 through its OpenAI-compatible endpoint: thought signatures ride on tool calls.
  'gemini3-compat': {
    format: 'openai',
    problem: gemini3CompatProblem,
    stream: gemini3CompatStream,
    completion: gemini3CompatCompletion,
    cite: [{ url: 'https://ai.google.dev/gemini-api/docs/thought-signatures',
      says: 'Gemini 3 must get its thought signatures back during function calling or answers 4xx; strict validation applies to the '
        + 'current turn only; with parallel calls only the first functionCall part carries a signature.' },
    { url: 'https://ai.google.dev/gemini-api/docs/openai',
      says: 'Gemini models through the OpenAI libraries at https://generativelanguage.googleapis.com/v1beta/openai/; tool calls carry '
        + 'extra_content.google.thought_signature.' },
    { url: 'https://discuss.ai.google.dev/t/openai-api-compatibility-broken-due-to-thought-signature-on-gemini-3-pro-preview/109823',
      says: '[{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts. … Additional data, '
        + 'function call `default_api:mcp_everything_echo` , position 2. …","status":"INVALID_ARGUMENT"}}]' }],
  },
  // OpenAI structured outputs: a safety refusal comes in `refusal`, with content null.
  refusal: {
    format: 'openai',
    stream: refusalStream,
    completion: refusalCompletion,
    cite: [{ url: 'https://platform.openai.com/docs/guides/structured-outputs/refusals',
      says: 'When the model refuses for safety reasons, the response has a refusal field (choices.delta.refusal when streaming) instead '
        + 'of content.' }],
  },
  // Output cut by the token limit: finish_reason "length", a call's arguments left unfinished.
  length: {
    format: 'openai',
    stream: lengthStream,
    completion: lengthCompletion,
    cite: [{ url: 'https://platform.openai.com/docs/api-reference/chat/object',
      says: 'finish_reason: … length if the maximum number of tokens specified in the request was reached.' }],
  },
  // Azure OpenAI's content filter stops a completion.
  'content-filter': {
    format: 'openai',
    stream: contentFilterStream,
    completion: contentFilterCompletion,
    cite: [{ url: 'https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter',
      says: 'Output filtered: finish_reason is content_filter (streaming: the last chunk of that generation); prompt_filter_results and '
        + 'content_filter_results give each category (hate, self_harm, sexual, violence) as { filtered, severity }.' }],
  },
  // OpenRouter and vLLM (0.11+) name the reasoning field `reasoning`.
  'reasoning-field': {
    format: 'openai',
    stream: reasoningStream,
    completion: reasoningCompletion,
    cite: [{ url: 'https://openrouter.ai/docs/use-cases/reasoning-tokens',
      says: 'Reasoning tokens will appear in the reasoning field of each message (choices[0].delta.reasoning when streaming).' },
    { url: 'https://docs.vllm.ai/en/v0.11.2/features/reasoning_outputs/',
      says: 'Reasoning models return an additional reasoning field … reasoning used to be called reasoning_content.' }],
  },
  // Groq puts stream usage in x_groq.usage, with its timings.
  'groq-usage': {
    format: 'openai',
    stream: groqStream,
    completion: groqCompletion,
    cite: [{ url: 'https://github.com/Portkey-AI/gateway/blob/main/src/providers/groq/chatComplete.ts',
      says: 'GroqStreamChunk: x_groq: { usage: { queue_time, prompt_tokens, prompt_time, completion_tokens, completion_time, total_tokens, '
        + 'total_time } }' }],
  },
  // A gateway that cuts text between the UTF-16 halves of an emoji.
  'split-surrogates': {
    format: 'openai',
    stream: splitStream,
    completion: splitCompletion,
    cite: [{ url: 'https://www.rfc-editor.org/rfc/rfc8259#section-8.2',
      says: 'JSON text may hold a \\u escape of a lone surrogate ("\\uDEAD"); what a receiver does with it is unpredictable. A proxy that '
        + 'cuts by UTF-16 units sends such halves in separate events.' }],
  },
  // OpenAI: billing exhausted (429, not retryable).
  'insufficient-quota': {
    format: 'openai',
    precheck: insufficientQuota,
    cite: [{ url: 'https://platform.openai.com/docs/guides/error-codes/api-errors',
      says: '429 - You exceeded your current quota, please check your plan and billing details: you have run out of credits or hit your '
        + 'maximum monthly spend.' }],
  },
  // A gateway that compresses whenever the client allows it.
  gzip: {
    format: 'openai',
    gzip: true,
    cite: [{ url: 'https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3',
      says: 'If no Accept-Encoding header field is in the request, any content coding is considered acceptable by the user agent; '
        + '"identity" alone, or gzip with q=0, excludes gzip.' }],
  },

  // Gemini native.
  safety: {
    format: 'gemini',
    stream: safetyStream,
    cite: [{ url: 'https://ai.google.dev/api/generate-content#FinishReason',
      says: 'SAFETY: The response candidate content was flagged for safety reasons; safetyRatings say which category, with '
        + 'blocked: true.' }],
  },
  recitation: {
    format: 'gemini',
    stream: recitationStream,
    cite: [{ url: 'https://ai.google.dev/api/generate-content#FinishReason',
      says: 'RECITATION: The response candidate content was flagged for recitation reasons.' },
    { url: 'https://github.com/gbaptista/gemini-ai/issues/21',
      says: 'A RECITATION candidate: {"finishReason":"RECITATION","safetyRatings":[…],"citationMetadata":{…}} and no content.' }],
  },
  'thinking-max-tokens': {
    format: 'gemini',
    stream: thinkingMaxTokensStream,
    cite: [{ url: 'https://ai.google.dev/gemini-api/docs/thinking',
      says: 'Thinking tokens count against the output limit (thoughtsTokenCount in usageMetadata).' },
    { url: 'https://github.com/google/adk-python/issues/1357',
      says: '{"candidates":[{"content":{"role":"model"},"finishReason":"MAX_TOKENS"}],'
        + '"usageMetadata":{…"thoughtsTokenCount":2999…}}: no text parts at all.' }],
  },
  thoughts: {
    format: 'gemini',
    stream: thoughtsStream,
    cite: [{ url: 'https://ai.google.dev/gemini-api/docs/thinking',
      says: 'With includeThoughts, thought summaries come as parts whose boolean thought is set, before the answer parts. The fake sends '
        + 'them whether asked or not, so a host meets them either way.' }],
  },

  // Anthropic Messages.
  'claude-max-tokens': {
    format: 'anthropic',
    stop: 'max_tokens',
    cite: [{ url: 'https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons',
      says: 'max_tokens: Claude stopped because it reached the max_tokens limit; the content so far is returned (a tool_use may be '
        + 'incomplete).' }],
  },
  'claude-refusal': {
    format: 'anthropic',
    stop: 'refusal',
    cite: [{ url: 'https://platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals',
      says: 'Streaming classifiers end the answer with stop_reason "refusal": the text so far, no additional refusal message; '
        + 'stop_details arrives on message_delta.' }],
  },
  'claude-pause-turn': {
    format: 'anthropic',
    stop: 'pause_turn',
    cite: [{ url: 'https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#pause-turn',
      says: 'pause_turn: a long-running turn with server tools was paused; send the response back as it is (an assistant message) to '
        + 'let Claude continue.' }],
  },
};

/**
 * The scenario a model name asks for: null for a name without the `scenario-` prefix, the entry
 * with its name for a known one, { name, unknown: true } otherwise (answered 404 model not found).
 */
export function scenarioOf(model) {
  const match = /^scenario-(.*)$/.exec(typeof model === 'string' ? model : '');
  if (!match) return null;
  const entry = Object.hasOwn(SCENARIOS, match[1]) ? SCENARIOS[match[1]] : null;
  return entry ? { name: match[1], ...entry } : { name: match[1], unknown: true };
}
