// LLM service (seed 004, §2.3) for OpenAI-compatible chat completions: a streamed request with
// fetch, the server-sent events parsed as they come, text passed on at once, tool-call deltas
// put together by index.

export class LLMServiceError extends Error {
  constructor(message, cause, context) {
    super(message, { cause });
    this.context = context;
  }
}

/** Splits a byte stream of server-sent events into the `data` of each event. */
async function* serverSentEvents(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  let data = [];
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      let line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
  }
  if (data.length) yield data.join('\n');
}

export class OpenAIService {
  /** @param {{ apiKey: string, baseUrl: string, model: string, temperature?: number, maxTokens?: number, timeoutMs?: number }} config */
  constructor(config) {
    this.config = { temperature: 0.7, maxTokens: 4096, timeoutMs: 60000, ...config };
  }

  /** The history in the chat completions message format. */
  formatHistoryForLLM(history, systemPrompt) {
    const messages = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
    for (const message of history) {
      if (message.role === 'tool') {
        messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content ?? '' });
      } else if (message.role === 'assistant' && message.toolCalls?.length) {
        messages.push({
          role: 'assistant', content: message.content || null,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        });
      } else {
        messages.push({ role: message.role, content: message.content ?? '' });
      }
    }
    return messages;
  }

  /**
   * Streams one answer: yields { type: 'text', content }, then { type: 'tool_call', id, tool, arguments }
   * for each call once the stream has ended, and { type: 'usage', usage } when the server reports it.
   */
  async *generateResponse(history, { tools = [], systemPrompt, abortSignal } = {}) {
    const { apiKey, baseUrl, model, temperature, maxTokens, timeoutMs } = this.config;
    const body = {
      model, messages: this.formatHistoryForLLM(history, systemPrompt), stream: true, stream_options: { include_usage: true },
      temperature, max_tokens: maxTokens,
    };
    if (tools.length) body.tools = tools;
    const signal = abortSignal ? AbortSignal.any([abortSignal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let response;
    try {
      response = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      throw new LLMServiceError(`the LLM could not be reached: ${error.message}`, error, { model, transient: true });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const transient = response.status === 429 || response.status >= 500;
      throw new LLMServiceError(`the LLM answered ${response.status}: ${text.slice(0, 500)}`, null,
        { model, status: response.status, transient });
    }
    /** @type {{ id?: string, name: string, arguments: string }[]} */
    const calls = [];
    for await (const data of serverSentEvents(response.body)) {
      if (data === '[DONE]') continue; // read on to the end of the body, so the connection is kept for the next request
      const chunk = JSON.parse(data);
      if (chunk.usage) yield { type: 'usage', usage: chunk.usage };
      const delta = chunk.choices?.[0]?.delta;
      if (!delta) continue;
      if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', content: delta.content };
      for (const part of delta.tool_calls ?? []) {
        const index = part.index ?? calls.length;
        const call = (calls[index] ??= { name: '', arguments: '' });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
      }
    }
    for (const [i, call] of calls.entries()) {
      let args;
      try {
        args = call.arguments ? JSON.parse(call.arguments) : {};
      } catch {
        args = { _malformed: call.arguments };
      }
      yield { type: 'tool_call', id: call.id ?? `call_${i}`, tool: call.name, arguments: args };
    }
  }
}
