// An edit, re-indexed and answered: the official TS SDK client starts `mcpkit analyze` on a tree,
// has it index the tree (timed: the cold index over MCP), then EDITS times appends a new function
// to a file from this process (another process than the server) and asks find-symbol for it until
// the answer has it, 2 ms between asks. Prints the cold index time and the edit → answer latency
// (p50, p95, max) as JSON; every answer is checked (the new function, at its line).
//
//   node bench/navigation-edits.mjs MCPKIT TREE FILE [EDITS] [--no-cache | --cache FILE]
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mcpkit, tree, file, editsText, ...serverFlags] = process.argv.slice(2);
if (!mcpkit || !tree || !file) {
  console.error('usage: navigation-edits.mjs MCPKIT TREE FILE [EDITS] [--no-cache | --cache FILE]');
  process.exit(2);
}
const edits = Number(editsText ?? 20);
const transport = new StdioClientTransport({ command: mcpkit, args: ['analyze', '--root', tree, ...serverFlags], stderr: 'ignore' });
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(transport);

const ask = async (query) => {
  const result = await client.callTool({ name: 'find-symbol', arguments: { query } }, undefined, { timeout: 600_000 });
  if (result.isError) throw new Error(JSON.stringify(result.structuredContent?.status));
  return result.structuredContent.data;
};

let started = performance.now();
const first = await ask('main');
const coldSeconds = (performance.now() - started) / 1000;
const index = first.index;

const target = path.join(tree, file);
const original = fs.readFileSync(target, 'utf8');
const latencies = [];
try {
  for (let i = 0; i < edits; i += 1) {
    const name = `BenchEdit${process.pid}x${i}`;
    const text = `${original}\nfunc ${name}() int { return ${i} }\n`;
    const line = text.split('\n').length - 1;
    started = performance.now();
    fs.writeFileSync(target, text);
    for (;;) {
      const data = await ask(name);
      if (data.total === 1) {
        if (data.symbols[0].location !== `${file}:${line}:6`) throw new Error(`wrong place: ${data.symbols[0].location}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    latencies.push(performance.now() - started);
  }
} finally {
  fs.writeFileSync(target, original);
  await client.close();
}
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({
  coldSeconds,
  files: index.files,
  definitions: index.definitions,
  references: index.references,
  edits,
  p50: at(0.5),
  p95: at(0.95),
  max: latencies.at(-1),
}));
