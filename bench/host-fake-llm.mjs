// A lean fake OpenAI-compatible LLM for bench/host-bench.mjs. Its answers are those of the tests'
// fake (tests/interop/fake-llm.mjs), built by the same functions (answer, openaiView and
// openaiStream of fake-llm-formats.mjs), so the SSE events on the wire are the same: the same
// chunks, deltas, tool-call fragments, usage and [DONE], each event written on its own (as the
// tests' fake and a real server do, so a host reads a stream of events, not one block). What it
// leaves out is work a benchmark does not need and that made the tests' fake, sharing a core with
// the load driver, the limit: checking each request the way OpenAI would, recording every request,
// the Gemini routes, fault injection, waiting for each event's write callback, and Node's HTTP
// server (HTTP/1.1 is parsed here as far as a Content-Length request needs).
//
//   node host-fake-llm.mjs --port P [--api-key KEY]
//   GET /_last: the last chat completions request body (to replay it straight to the fake)
import net from 'node:net';

import { answer, openaiStream, openaiView } from '../tests/interop/fake-llm-formats.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const port = Number(option('--port', 0));
const apiKey = option('--api-key', 'test-key');

let last = null;
let date = '';
let dateSecond = -1;
function httpDate() {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    date = new Date(second * 1000).toUTCString();
  }
  return date;
}

function sendJson(socket, status, body) {
  const text = JSON.stringify(body);
  socket.write(`HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n`
    + `date: ${httpDate()}\r\nconnection: keep-alive\r\nkeep-alive: timeout=120\r\n\r\n${text}`);
}

const openaiError = (message, type = 'invalid_request_error', code = null) => ({ error: { message, type, param: null, code } });

function handle(socket, method, target, headers, raw) {
  if (method === 'GET' && target === '/_last') return sendJson(socket, '200 OK', last);
  if (method !== 'POST' || !target.endsWith('/chat/completions')) {
    return sendJson(socket, '404 Not Found', openaiError(`Unknown request URL: ${method} ${target}.`, 'invalid_request_error', 'unknown_url'));
  }
  if (headers.authorization !== `Bearer ${apiKey}`) {
    return sendJson(socket, '401 Unauthorized', openaiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
  }
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return sendJson(socket, '400 Bad Request', openaiError('We could not parse the JSON body of your request.'));
  }
  if (!Array.isArray(body?.messages) || body.messages.length === 0) {
    return sendJson(socket, '400 Bad Request', openaiError("Missing required parameter: 'messages'."));
  }
  last = body;
  const context = { model: body.model, promptTokens: Math.ceil(raw.length / 4), includeUsage: body.stream_options?.include_usage === true };
  const events = openaiStream(answer(openaiView(body)), context);
  // The response head goes out with the first event and the last chunk with [DONE]; every event
  // in between is a write (a segment) of its own.
  let head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\ncache-control: no-cache\r\nx-accel-buffering: no\r\n'
    + `date: ${httpDate()}\r\nconnection: keep-alive\r\nkeep-alive: timeout=120\r\ntransfer-encoding: chunked\r\n\r\n`;
  for (const [i, { data }] of events.entries()) {
    const event = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    socket.write(`${head}${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n${i === events.length - 1 ? '0\r\n\r\n' : ''}`);
    head = '';
  }
  return undefined;
}

const server = net.createServer({ noDelay: true }, (socket) => {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buffer.toString('latin1', 0, end).split('\r\n');
      const [method, target] = lines[0].split(' ');
      const headers = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (headers['transfer-encoding']) {
        sendJson(socket, '411 Length Required', openaiError('This fake reads request bodies with a Content-Length only.'));
        socket.end();
        return;
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const raw = buffer.toString('utf8', end + 4, end + 4 + length);
      buffer = buffer.subarray(end + 4 + length);
      handle(socket, method, target, headers, raw);
    }
  });
  socket.on('error', () => {});
});
server.listen(port, '127.0.0.1', () => console.log(`host-fake-llm listening on http://127.0.0.1:${server.address().port}`));
const stop = () => { server.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
