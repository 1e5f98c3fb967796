// The official TypeScript SDK v1 (1.32) stdio server with the same echo tool as mcpkit's,
// for the stdio benchmark.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'ts-sdk-echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes the given text back as text content', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
