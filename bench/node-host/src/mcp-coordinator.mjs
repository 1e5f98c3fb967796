// MCP coordinator (seed 004, §2.4): one official SDK client per server of mcp.json (stdio),
// tools discovered with tools/list and offered to the model as server__tool.
import fs from 'node:fs/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const SEPARATOR = '__';

export class ToolExecutionError extends Error {
  constructor(message, cause, context) {
    super(message, { cause });
    this.context = context;
  }
}

export class McpCoordinator {
  /** @type {Map<string, { client: Client, timeoutMs: number }>} */
  #servers = new Map();
  /** @type {Map<string, { serverId: string, name: string, description: string, parameters: object }>} */
  #tools = new Map();

  constructor(configPath, { log, defaultTimeoutMs = 60000 } = {}) {
    this.configPath = configPath;
    this.log = log;
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Reads mcp.json ({"mcpServers": …} or the seed's {"servers": …}) and connects to every server at once. */
  async initialize() {
    const config = JSON.parse(await fs.readFile(this.configPath, 'utf8'));
    const entries = Object.entries(config.mcpServers ?? config.servers ?? {});
    await Promise.all(entries.map(([id, server]) => this.#connect(id, server).catch((error) => {
      this.log?.error({ component: 'MCP', action: 'server_failed', serverId: id, err: error }, 'MCP server failed to start');
    })));
  }

  async #connect(id, server) {
    if (server.transport && server.transport !== 'stdio') throw new Error(`transport ${server.transport} is not supported`);
    if (!server.command) throw new Error('a stdio server needs a command');
    const transport = new StdioClientTransport({
      command: server.command, args: server.args ?? [], env: server.env ? { ...process.env, ...server.env } : undefined,
      stderr: 'inherit',
    });
    const client = new Client({ name: 'node-host', version: '0.1.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#listTools(id, client).catch((error) => {
      this.log?.warn({ component: 'MCP', action: 'tools_refresh_failed', serverId: id, err: error });
    }));
    await client.connect(transport);
    this.#servers.set(id, { client, timeoutMs: server.timeoutMs ?? this.defaultTimeoutMs });
    const count = await this.#listTools(id, client);
    this.log?.info({ component: 'MCP', action: 'server_ready', serverId: id, tools: count }, 'MCP server ready');
  }

  /** (Re)builds the registry entries of one server from its tools/list. */
  async #listTools(id, client) {
    const { tools } = await client.listTools();
    for (const [name, tool] of this.#tools) if (tool.serverId === id) this.#tools.delete(name);
    for (const tool of tools) {
      const qualified = `${id}${SEPARATOR}${tool.name}`.slice(0, 64);
      this.#tools.set(qualified, { serverId: id, name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema });
    }
    return tools.length;
  }

  /** The tools as the OpenAI chat completions API wants them. */
  getAvailableTools() {
    return [...this.#tools].map(([name, tool]) => ({
      type: 'function', function: { name, description: tool.description, parameters: tool.parameters },
    }));
  }

  /** Calls a tool by its qualified name; resolves to { result, isError, executionTimeMs }. */
  async executeTool({ toolName, arguments: args, requestId }) {
    const tool = this.#tools.get(toolName);
    if (!tool) throw new ToolExecutionError(`unknown tool ${toolName}`, null, { toolName, requestId, arguments: args });
    const { client, timeoutMs } = this.#servers.get(tool.serverId);
    const started = performance.now();
    try {
      const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: timeoutMs });
      return { result, isError: result.isError === true, executionTimeMs: performance.now() - started };
    } catch (error) {
      throw new ToolExecutionError(`${toolName} failed: ${error.message}`, error,
        { toolName, serverId: tool.serverId, requestId, arguments: args });
    }
  }

  async shutdown() {
    await Promise.allSettled([...this.#servers.values()].map(({ client }) => client.close()));
  }
}
