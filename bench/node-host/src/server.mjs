// A chat host on the seed's own stack (seed 004): Fastify with @fastify/websocket for the page,
// the official MCP TypeScript SDK client for the tools, an OpenAI-compatible streaming LLM.
// What bench/run-host.sh measures mcpkit host against; it speaks the frames of
// docs/host-websocket.md that the benchmark uses (connection, message, clear, turn, text, status).
//
//   PORT=3000 MCP_JSON_PATH=mcp.json OPENAI_API_KEY=… OPENAI_BASE_URL=… OPENAI_MODEL=… node src/server.mjs
//   (HOST, LOG_LEVEL as well; logs are pino's JSON lines on stdout)
import websocket from '@fastify/websocket';
import Fastify from 'fastify';

import { OpenAIService } from './llm-service.mjs';
import { McpCoordinator } from './mcp-coordinator.mjs';
import { ConversationOrchestrator } from './orchestrator.mjs';
import { SessionManager } from './sessions.mjs';
import { setupWebSocket } from './websocket.mjs';

const env = process.env;
if (!env.OPENAI_API_KEY) throw new Error('set OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL)');

const app = Fastify({ logger: { level: env.LOG_LEVEL ?? 'info' } });
await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });

const mcp = new McpCoordinator(env.MCP_JSON_PATH ?? 'mcp.json', { log: app.log, defaultTimeoutMs: Number(env.DEFAULT_TOOL_TIMEOUT_MS ?? 60000) });
await mcp.initialize();
const llm = new OpenAIService({
  apiKey: env.OPENAI_API_KEY, baseUrl: (env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, ''),
  model: env.OPENAI_MODEL ?? 'gpt-4o-mini',
});
const orchestrator = new ConversationOrchestrator(llm, mcp, { log: app.log });
const sessions = new SessionManager();

app.register(async (scope) => setupWebSocket(scope, { sessions, orchestrator }));
app.get('/health', async () => ({ ok: true }));

const shutdown = async () => {
  await app.close();
  await mcp.shutdown();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ host: env.HOST ?? '127.0.0.1', port: Number(env.PORT ?? 3000) });
