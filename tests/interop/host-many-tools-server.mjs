// An MCP server (official TypeScript SDK, stdio) with as many tools as a busy setup gathers, for
// the host's many-tools and long-result tests: COUNT tools (default 300), a few with a purpose a
// search can find (convert_currency, weather_forecast, translate_text), the rest maintenance
// chores alike but for their number, and `big_result`, whose answer is BYTES long (a line per
// 100 bytes, numbered, so that a part read back can be checked).
//   node host-many-tools-server.mjs [COUNT]
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const count = Number(process.argv[2] ?? 300);
const server = new McpServer({ name: 'host-many-tools-server', version: '1.0.0' });
const readOnly = { annotations: { readOnlyHint: true } };
const text = (value) => ({ content: [{ type: 'text', text: value }] });

server.registerTool('convert_currency', {
  description: 'Convert an amount of money from one currency to another, such as euros to yen',
  inputSchema: { amount: z.number(), from: z.string(), to: z.string() }, ...readOnly,
}, ({ amount, from, to }) => text(`${amount} ${from} is ${(amount * 160).toFixed(2)} ${to}`));
server.registerTool('weather_forecast', {
  description: 'The weather forecast for a city over the next days', inputSchema: { city: z.string() }, ...readOnly,
}, ({ city }) => text(`Sunny in ${city}`));
server.registerTool('translate_text', {
  description: 'Translate a text into another language', inputSchema: { text: z.string(), language: z.string() }, ...readOnly,
}, ({ text: words, language }) => text(`[${language}] ${words}`));
server.registerTool('big_result', {
  description: 'A long numbered text of the given size in bytes', inputSchema: { bytes: z.number() }, ...readOnly,
}, ({ bytes }) => {
  const lines = [];
  for (let i = 0; lines.length * 100 < bytes; ++i) lines.push(`line ${String(i).padStart(6, '0')} `.padEnd(99, '.') + '\n');
  return text(lines.join('').slice(0, bytes));
});
for (let i = 4; i < count; ++i) {
  const name = `maintenance_${String(i).padStart(3, '0')}`;
  server.registerTool(name, {
    description: `Runs maintenance chore number ${i} on subsystem ${i % 17} of the build farm and reports how it went`,
    inputSchema: { dryRun: z.boolean().optional() }, ...readOnly,
  }, () => text(`${name} done`));
}
await server.connect(new StdioServerTransport());
