// Conversation orchestrator (seed 004, §2.2): a user message in, the LLM ↔ tools loop, frames out
// (as an async generator the WebSocket handler relays to the session's connections).
import { randomUUID } from 'node:crypto';

const newId = (prefix) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

const SYSTEM_PROMPT = 'You are a helpful assistant. You can use tools from MCP servers; call them when they help, and explain what you '
  + 'found. If a tool fails, say so and try another approach.';

/** The text a tool result gives the model: its text parts, or the whole result as JSON. */
function resultText(result) {
  const content = Array.isArray(result?.content) ? result.content : [];
  if (content.length && content.every((part) => part.type === 'text')) return content.map((part) => part.text).join('\n');
  return JSON.stringify(result);
}

export class ConversationOrchestrator {
  /**
   * @param {import('./llm-service.mjs').OpenAIService} llmService
   * @param {import('./mcp-coordinator.mjs').McpCoordinator} mcpCoordinator
   */
  constructor(llmService, mcpCoordinator, { maxSteps = 10, retryAttempts = 3, retryDelay = 1000, maxHistoryLength = 200, log } = {}) {
    this.llm = llmService;
    this.mcp = mcpCoordinator;
    this.config = { maxSteps, retryAttempts, retryDelay, maxHistoryLength };
    this.log = log;
  }

  addMessageToHistory(session, message) {
    session.history.push({ id: newId('msg'), createdAt: Date.now(), ...message });
  }

  /** The newest messages, starting at a user message so no tool result is cut from its call. */
  pruneHistory(history) {
    if (history.length <= this.config.maxHistoryLength) return history;
    let first = history.length - this.config.maxHistoryLength;
    while (first < history.length - 1 && history[first].role !== 'user') first += 1;
    return history.slice(first);
  }

  /** One turn; yields ServerMessages. */
  async *handleInput(session, text) {
    const turnId = newId('turn');
    session.turnRunning = true;
    session.abort = new AbortController();
    yield { type: 'turn', payload: { state: 'started', turnId } };
    this.log?.info({ component: 'Orchestrator', action: 'turn_started', sessionId: session.id, requestId: turnId });
    let state = 'finished';
    let failure;
    try {
      this.addMessageToHistory(session, { role: 'user', content: text });
      for (let step = 0; step < this.config.maxSteps; step++) {
        const messageId = newId('msg');
        let content = '';
        const calls = [];
        for await (const part of this.#generate(session)) {
          if (part.type === 'text') {
            content += part.content;
            yield { type: 'text', payload: { content: part.content, turnId, messageId } };
          } else if (part.type === 'tool_call') {
            calls.push({ id: part.id, name: part.tool, arguments: part.arguments });
          }
        }
        this.addMessageToHistory(session, { role: 'assistant', content, ...(calls.length ? { toolCalls: calls } : {}) });
        if (!calls.length) break;
        for (const call of calls) yield* this.processToolCall(session, turnId, call);
        if (step + 1 === this.config.maxSteps) {
          state = 'failed';
          failure = `The model kept calling tools for ${this.config.maxSteps} rounds; the turn was ended there.`;
        }
      }
    } catch (error) {
      state = 'failed';
      failure = error.message;
      this.log?.error({ component: 'Orchestrator', action: 'turn_failed', sessionId: session.id, requestId: turnId, err: error });
      const fallback = `Sorry, I could not finish this answer: ${failure}`;
      this.addMessageToHistory(session, { role: 'assistant', content: fallback });
      yield { type: 'text', payload: { content: fallback, turnId, messageId: newId('msg') } };
    } finally {
      session.turnRunning = false;
      session.abort = undefined;
    }
    yield { type: 'turn', payload: { state, turnId, ...(failure ? { message: failure } : {}) } };
    this.log?.info({ component: 'Orchestrator', action: `turn_${state}`, sessionId: session.id, requestId: turnId });
  }

  /** The LLM's answer, retried (with a delay) on transient errors until text has been streamed. */
  async *#generate(session) {
    const history = this.pruneHistory(session.history);
    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      try {
        for await (const part of this.llm.generateResponse(history, {
          tools: this.mcp.getAvailableTools(), systemPrompt: SYSTEM_PROMPT, abortSignal: session.abort?.signal,
        })) {
          if (part.type === 'text') streamed = true;
          yield part;
        }
        return;
      } catch (error) {
        this.log?.warn({ component: 'LLM', action: 'request_failed', sessionId: session.id, attempt, err: error });
        if (streamed || attempt >= this.config.retryAttempts || error.context?.transient === false) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.config.retryDelay));
      }
    }
  }

  /** Runs one tool call: status processing, the call, status complete, the result into the history. */
  async *processToolCall(session, turnId, call) {
    yield {
      type: 'status',
      payload: { state: 'processing', tool: call.name, callId: call.id, turnId, arguments: call.arguments, message: `Calling ${call.name}` },
    };
    this.log?.info({ component: 'MCP', action: 'tool_call_started', sessionId: session.id, requestId: turnId, tool: call.name });
    let result;
    let isError;
    let durationMs = 0;
    try {
      ({ result, isError, executionTimeMs: durationMs } = await this.mcp.executeTool({
        toolName: call.name, arguments: call.arguments, requestId: call.id,
      }));
    } catch (error) {
      result = { content: [{ type: 'text', text: error.message }], isError: true };
      isError = true;
    }
    this.addMessageToHistory(session, {
      role: 'tool', toolCallId: call.id, toolName: call.name, content: resultText(result), data: result, isError,
    });
    yield {
      type: 'status',
      payload: {
        state: 'complete', tool: call.name, callId: call.id, turnId, data: result, isError, durationMs: Math.round(durationMs),
        message: isError ? 'Failed' : 'Done',
      },
    };
    this.log?.info({ component: 'MCP', action: 'tool_call_finished', sessionId: session.id, requestId: turnId, tool: call.name, isError });
  }
}
