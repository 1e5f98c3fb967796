// The official TypeScript SDK v1 (1.32) Streamable HTTP server with the same echo tool as
// mcpkit's, for the HTTP benchmark: stateful sessions, JSON answers (its fastest mode), on
// node:http with no framework in front.
//
//   node bench/ts-sdk-http-echo-server.mjs PORT
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 3000);
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'ts-sdk-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the given text back as text content', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

http.createServer(async (request, response) => {
  try {
    const sessionId = request.headers['mcp-session-id'];
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport && request.method === 'POST' && !sessionId && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    if (!transport) {
      response.writeHead(404).end();
      return;
    }
    await transport.handleRequest(request, response, body);
  } catch (error) {
    if (!response.headersSent) response.writeHead(500).end(String(error));
  }
}).listen(port, '127.0.0.1', () => process.stderr.write(`ts-sdk-http-echo listening on ${port}\n`));
