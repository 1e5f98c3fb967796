// One analyze-project call over MCP (stdio), the way an assistant makes it: the official TS SDK
// client starts `mcpkit analyze`, calls the tool with a progress token, and prints the wall time,
// the server's own executionTime, the progress notifications seen and the totals, as JSON.
//
//   node bench/analyze-project-call.mjs MCPKIT TREE [--no-cache | --cache FILE]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mcpkit, tree, ...serverFlags] = process.argv.slice(2);
if (!mcpkit || !tree) {
  console.error('usage: analyze-project-call.mjs MCPKIT TREE [--no-cache | --cache FILE]');
  process.exit(2);
}
const transport = new StdioClientTransport({ command: mcpkit, args: ['analyze', ...serverFlags], stderr: 'ignore' });
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(transport);

let progressNotifications = 0;
const started = performance.now();
const result = await client.callTool(
  { name: 'analyze-project', arguments: { projectPath: tree, options: { includeDependencies: true } } },
  undefined,
  { timeout: 600_000, onprogress: () => { progressNotifications += 1; } },
);
const seconds = (performance.now() - started) / 1000;
await client.close();

const envelope = result.structuredContent;
if (result.isError || !envelope?.status?.success) {
  console.error(JSON.stringify(envelope?.status ?? result.content));
  process.exit(1);
}
console.log(JSON.stringify({
  seconds,
  executionTimeMs: envelope.metadata.executionTime,
  progressNotifications,
  totals: envelope.data.totals,
  cacheHits: envelope.data.cacheHits,
}));
