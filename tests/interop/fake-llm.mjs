// A fake LLM server for testing `mcpkit host` without a real model. It speaks the real wire formats:
// OpenAI-compatible chat completions (with the streaming quirks of Ollama, llama.cpp and vLLM) and
// Gemini's native generateContent / streamGenerateContent, validates requests the way those
// providers do, and answers from a deterministic "model" driven by commands in the last user text
// (see answer() in fake-llm-formats.mjs). Faults can be queued to test retries and broken streams.
//
//   import { startFakeLlm } from './fake-llm.mjs';   const llm = await startFakeLlm();  … llm.url …
//   node fake-llm.mjs [--port P] [--tls-cert FILE --tls-key FILE] [--api-key KEY]
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  answer, geminiProblem, geminiResponse, geminiStream, geminiView, googleError, openaiCompletion, openaiError,
  openaiProblem, openaiStream, openaiView, SignatureBook,
} from './fake-llm-formats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const BODY_LIMIT = 32 * 1024 * 1024;
const GEMINI_PATH = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/** Which API a request is for: { format: 'openai' } or { format: 'gemini', model, stream }, or null. */
function route(method, pathname) {
  if (method !== 'POST') return null;
  if (pathname.endsWith('/chat/completions')) return { format: 'openai' };
  const match = GEMINI_PATH.exec(pathname);
  return match ? { format: 'gemini', model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent' } : null;
}

/** The error a queued fault answers with, in the request's format, as { status, body, headers }. */
function faultResponse(format, { status, retryAfter = 1 }) {
  if (format === 'gemini') {
    if (status === 429) {
      return googleError(429, 'Resource has been exhausted (e.g. check quota).',
        [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }]);
    }
    const messages = {
      500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      503: 'The model is overloaded. Please try again later.',
    };
    return googleError(status, messages[status] ?? `Injected fault ${status}.`);
  }
  if (status === 429) {
    const error = openaiError(429, `Rate limit reached for requests. Please try again in ${retryAfter}s.`,
      { type: 'requests', code: 'rate_limit_exceeded' });
    return { ...error, headers: { 'retry-after': String(retryAfter) } };
  }
  if (status === 503) return openaiError(503, 'The server is overloaded or not ready yet.', { type: 'server_error' });
  if (status >= 500) {
    return openaiError(status, 'The server had an error while processing your request. Sorry about that!', { type: 'server_error' });
  }
  return openaiError(status, `Injected fault ${status}.`);
}

function checkFaults(list) {
  const faults = Array.isArray(list) ? list : [list];
  for (const fault of faults) {
    if (!(fault && (fault.drop === true || Number.isInteger(fault.status)))) {
      throw new TypeError(`a fault is {status, retryAfter?} or {drop: true, afterChunks?}, not ${JSON.stringify(fault)}`);
    }
  }
  return faults;
}

function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes `text` and resolves once it is handed to the socket (or the peer has gone): backpressure. */
function write(res, text) {
  return new Promise((resolve) => {
    const done = () => { res.off('close', done); resolve(); };
    res.on('close', done);
    res.write(text, done);
  });
}

/**
 * Streams `events` ({ data, pause }) as SSE, or as the JSON array Gemini sends without alt=sse.
 * With `dropAfter` set, destroys the connection after that many events instead of ending cleanly.
 */
async function stream(res, events, { separator = '\n\n', array = false, dropAfter }) {
  let gone = false;
  res.on('close', () => { gone = true; });
  res.writeHead(200, array ? { 'content-type': 'application/json; charset=utf-8' }
    : { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.flushHeaders(); // real servers answer headers at once; the first event may be a while coming
  for (const [i, { data, pause }] of events.entries()) {
    if (i === dropAfter) break;
    if (pause) await sleep(pause);
    if (gone) return; // the client hung up (a cancelled turn): stop generating
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    await write(res, array ? `${i ? ',\r\n' : '['}${text}` : `data: ${text}${separator}`);
  }
  if (dropAfter !== undefined) res.destroy(); // mid-stream, with no terminating chunk: the client sees a broken body
  else res.end(array ? ']' : '');
}

/**
 * Starts the fake on 127.0.0.1. `apiKey: null` accepts any caller (as Ollama does). `maxRecorded`
 * bounds the recorded requests (oldest dropped first).
 */
export async function startFakeLlm({ port = 0, tls = null, apiKey = 'test-key', maxRecorded = Infinity } = {}) {
  const requests = [];
  const faults = [];
  const book = new SignatureBook();

  const control = {
    failNext(list) { faults.push(...checkFaults(list)); },
    reset() { requests.length = 0; faults.length = 0; },
  };

  async function handle(req, res) {
    const url = new URL(req.url, 'http://fake-llm');
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > BODY_LIMIT) return sendJson(res, 413, { error: { message: 'Request body too large.' } });
      chunks.push(chunk);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try { body = raw ? JSON.parse(raw) : null; } catch { body = undefined; }

    // Control endpoints, for tests and benchmarks that drive the fake from another process.
    if (url.pathname === '/_requests' && req.method === 'GET') return sendJson(res, 200, requests);
    if (url.pathname === '/_reset' && req.method === 'POST') { control.reset(); return sendJson(res, 200, { ok: true }); }
    if (url.pathname === '/_control' && req.method === 'POST') {
      try { control.failNext(body?.failNext ?? []); } catch (error) { return sendJson(res, 400, { error: { message: error.message } }); }
      return sendJson(res, 200, { queued: faults.length });
    }

    const api = route(req.method, url.pathname);
    if (!api) {
      const { status, body: error } = openaiError(404, `Unknown request URL: ${req.method} ${url.pathname}.`, { code: 'unknown_url' });
      return sendJson(res, status, error);
    }
    // A body that is not JSON is recorded as the text it was.
    requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { ...req.headers },
      body: body === undefined ? raw : body });
    if (requests.length > maxRecorded) requests.splice(0, requests.length - maxRecorded);

    const fault = faults.shift();
    if (fault && !fault.drop) {
      const { status, body: errorBody, headers } = faultResponse(api.format, fault);
      return sendJson(res, status, errorBody, headers);
    }
    const problem = api.format === 'openai' ? openaiAuthProblem(req.headers) ?? openaiProblem(body)
      : geminiAuthProblem(req.headers['x-goog-api-key'] ?? url.searchParams.get('key')) ?? geminiProblem(body, book);
    if (problem) return sendJson(res, problem.status, problem.body);

    const promptTokens = Math.ceil(raw.length / 4);
    const dropAfter = fault?.drop ? (fault.afterChunks ?? 0) : undefined;
    if (api.format === 'openai') {
      const plan = answer(openaiView(body));
      const context = { model: body.model, promptTokens, includeUsage: body.stream_options?.include_usage === true };
      if (body.stream === true) return stream(res, openaiStream(plan, context), { dropAfter });
      return reply(res, openaiCompletion(plan, context), dropAfter);
    }
    const plan = answer(geminiView(body));
    const context = { model: api.model, promptTokens, book, withIds: api.model.includes('with-ids') };
    if (api.stream) {
      // Without alt=sse, Gemini streams one JSON array instead of events.
      const array = url.searchParams.get('alt') !== 'sse';
      return stream(res, geminiStream(plan, context), { separator: '\r\n\r\n', array, dropAfter });
    }
    return reply(res, geminiResponse(plan, context), dropAfter);
  }

  function openaiAuthProblem(headers) {
    if (apiKey === null || apiKey === '') return null;
    const given = /^Bearer\s+(.*)$/i.exec(headers.authorization ?? '')?.[1];
    if (given === apiKey) return null;
    if (given === undefined) {
      return openaiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using "
        + 'Bearer auth (i.e. Authorization: Bearer YOUR_KEY).');
    }
    return openaiError(401, `Incorrect API key provided: ${given.slice(0, 3)}***. You can find your API key at `
      + 'https://platform.openai.com/account/api-keys.', { code: 'invalid_api_key' });
  }

  function geminiAuthProblem(given) {
    if (apiKey === null || apiKey === '' || given === apiKey) return null;
    if (!given) {
      return googleError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key "
        + 'or other form of API consumer identity to call this API.');
    }
    return googleError(400, 'API key not valid. Please pass a valid API key.', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }]);
  }

  const handler = (req, res) => handle(req, res).catch((error) => {
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error: { message: `fake-llm failed: ${error.stack ?? error}` } });
  });
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert, noDelay: true }, handler)
    : http.createServer({ noDelay: true }, handler);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = server.address().port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${actual}`,
    port: actual,
    requests,
    ...control,
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // open streams (a `slow` answer) would otherwise hold close() up
      });
    },
  };
}

/** Sends a whole JSON answer, or (with `dropAfter` set) half of it before destroying the connection. */
async function reply(res, body, dropAfter) {
  if (dropAfter === undefined) return sendJson(res, 200, body);
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': text.length });
  await write(res, text.subarray(0, text.length >> 1));
  res.destroy();
}

async function main(argv) {
  const options = { maxRecorded: 1000 };
  const value = (i) => {
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--port') options.port = Number(value(i));
    else if (argv[i] === '--tls-cert') options.certFile = value(i);
    else if (argv[i] === '--tls-key') options.keyFile = value(i);
    else if (argv[i] === '--api-key') options.apiKey = value(i);
    else throw new Error(`unknown option ${argv[i]}; usage: fake-llm.mjs [--port P] [--tls-cert FILE --tls-key FILE] [--api-key KEY]`);
  }
  if (!options.certFile !== !options.keyFile) throw new Error('--tls-cert and --tls-key go together');
  if (options.certFile) options.tls = { cert: fs.readFileSync(options.certFile, 'utf8'), key: fs.readFileSync(options.keyFile, 'utf8') };
  const llm = await startFakeLlm(options);
  console.log(`fake-llm listening on ${llm.url}`);
  const stop = () => llm.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`fake-llm: ${error.message}`);
    process.exit(2);
  });
}
