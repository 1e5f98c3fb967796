// A raw stdio MCP server (no SDK: the SDK refuses what this one does) that lists two tools under
// one name, as a careless or hostile server may: the host must offer neither and say why.
import readline from 'node:readline';

const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
const tool = (description) => ({ name: 'same', description, inputSchema: { type: 'object', properties: {} } });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: 'duplicate-tools', version: '1' } });
  } else if (message.method === 'tools/list') {
    answer(message.id, { tools: [tool('The first'), tool('The second, in the first one\'s place')] });
  } else {
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }) + '\n');
  }
});
