// A fake LLM server for testing `mcpkit host` without a real model. It speaks the real wire formats:
// OpenAI-compatible chat completions (with the streaming quirks of Ollama, llama.cpp and vLLM),
// Gemini's native generateContent / streamGenerateContent and Anthropic's Messages API; validates
// requests the way those providers do; and answers from a deterministic "model" driven by commands
// in the last user text (see answer() in fake-llm-formats.mjs). A model named `scenario-<name>`
// puts on a documented provider behaviour (fake-llm-scenarios.mjs); faults can be queued to test
// retries and broken streams (fake-llm-faults.mjs); GET …/models lists `models`.
//
//   import { startFakeLlm } from './fake-llm.mjs';   const llm = await startFakeLlm();  … llm.url …
//   node fake-llm.mjs [--port P] [--tls-cert FILE --tls-key FILE] [--api-key KEY]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

import {
  anthropicAuthProblem, anthropicContext, anthropicError, anthropicMessage, anthropicProblem, anthropicStream, anthropicView,
} from './fake-llm-anthropic.mjs';
import { checkFaults, faultResponse, gzipAllowed, midStreamError } from './fake-llm-faults.mjs';
import {
  answer, geminiMerge, geminiProblem, geminiResponse, geminiStream, geminiView, googleError, openaiCompletion, openaiError,
  openaiProblem, openaiStream, openaiView, SignatureBook,
} from './fake-llm-formats.mjs';
import { DEFAULT_MODELS, modelList } from './fake-llm-models.mjs';
import { scenarioOf } from './fake-llm-scenarios.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const BODY_LIMIT = 32 * 1024 * 1024;
const GEMINI_PATH = /^\/(v1(?:beta|alpha)?)\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * Which API a request is for: { format, stream?, model?, version? } for a model request, with
 * `list: true` for a model list; null for none. The Anthropic and OpenAI lists share /v1/models:
 * Anthropic's clients send anthropic-version or x-api-key, Gemini's a Google key.
 */
function route(method, pathname, headers, query) {
  if (method === 'GET') {
    const google = headers['x-goog-api-key'] !== undefined || query.has('key');
    if (/^\/v1(beta|alpha)\/models$/.test(pathname) || (pathname === '/v1/models' && google)) return { format: 'gemini', list: true };
    if (pathname === '/v1/models' || pathname === '/models') {
      const anthropic = headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
      return { format: anthropic ? 'anthropic' : 'openai', list: true };
    }
    return null;
  }
  if (method !== 'POST') return null;
  if (pathname.endsWith('/chat/completions')) return { format: 'openai' };
  if (pathname === '/v1/messages') return { format: 'anthropic' };
  const match = GEMINI_PATH.exec(pathname);
  if (!match) return null;
  return { format: 'gemini', version: match[1], model: decodeURIComponent(match[2]), stream: match[3] === 'streamGenerateContent' };
}

/** The 404 a provider answers for a model it does not have. */
function modelNotFound(api, model) {
  if (api.format === 'anthropic') return anthropicError(404, `model: ${model}`);
  if (api.format === 'gemini') {
    const method = api.stream ? 'streamGenerateContent' : 'generateContent';
    return googleError(404, `models/${model} is not found for API version ${api.version}, or is not supported for ${method}. `
      + 'Call ListModels to see the list of available models and their supported methods.');
  }
  return openaiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, { code: 'model_not_found' });
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
 * Streams `events` ({ event?, data, pause }) as SSE, or as the JSON array Gemini sends without
 * alt=sse. With `dropAfter` set, destroys the connection after that many events instead of ending
 * cleanly; with `errorAt` ({ at, error }) writes `error` after that many events (or all) and ends; with
 * `gzip`, compresses, flushing after each event so that each arrives when it is sent.
 */
async function stream(res, events, { separator = '\n\n', array = false, dropAfter, errorAt, gzip = false }) {
  let gone = false;
  res.on('close', () => { gone = true; });
  res.writeHead(200, {
    ...(array ? { 'content-type': 'application/json; charset=utf-8' }
      : { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }),
    ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
  });
  res.flushHeaders(); // real servers answer headers at once; the first event may be a while coming
  let send = (text) => write(res, text);
  let end = () => res.end();
  if (gzip) {
    const zip = zlib.createGzip();
    zip.pipe(res);
    res.on('close', () => zip.destroy());
    send = (text) => new Promise((resolve) => { zip.write(text); zip.flush(resolve); });
    end = () => zip.end();
  }
  const format = (i, { event, data }) => {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    if (array) return `${i ? ',\r\n' : '['}${text}`;
    return `${event ? `event: ${event}\n` : ''}data: ${text}${separator}`;
  };
  const count = Math.min(events.length, dropAfter ?? Infinity, errorAt?.at ?? Infinity);
  for (const [i, event] of events.slice(0, count).entries()) {
    if (event.pause) await sleep(event.pause);
    if (gone) return; // the client hung up (a cancelled turn): stop generating
    await send(format(i, event));
  }
  if (dropAfter !== undefined) return res.destroy(); // mid-stream, with no terminating chunk: the client sees a broken body
  if (errorAt) await send(format(count, errorAt.error));
  if (array) await send(']');
  end();
}

/** The `empty` fault: a 200 with the content type the answer would have had, and no body. */
function empty(res, asArray, streaming) {
  res.writeHead(200, { 'content-type': streaming && !asArray ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8' });
  res.end();
}

/** The `flood` fault (OpenAI streaming): more text, or more tool calls, than any real answer holds. */
async function flood(res, kind) {
  let gone = false;
  res.on('close', () => { gone = true; });
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'chatcmpl-flood', object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const text = 'flood '.repeat(10000);
  const rounds = kind === 'calls' ? 1500 : Math.ceil((256 << 20) / text.length);
  for (let i = 0; i < rounds && !gone; i++) {
    await write(res, chunk(kind === 'calls'
      ? { tool_calls: [{ index: i, id: `call_flood_${i}`, type: 'function', function: { name: 'host_flood_tool', arguments: '{}' } }] }
      : { content: text }));
  }
  if (gone) return;
  await write(res, chunk({}, kind === 'calls' ? 'tool_calls' : 'stop'));
  res.end('data: [DONE]\n\n');
}

/**
 * Starts the fake on 127.0.0.1. `apiKey: null` accepts any caller (as Ollama does). `maxRecorded`
 * bounds the recorded requests (oldest dropped first). `models` are the ids GET …/models lists
 * (`false`: no list, 404, as a local server without one).
 */
export async function startFakeLlm({ port = 0, tls = null, apiKey = 'test-key', maxRecorded = Infinity, models = DEFAULT_MODELS } = {}) {
  const requests = [];
  const faults = [];
  const book = new SignatureBook();       // native Gemini thought signatures
  const compatBook = new SignatureBook(); // the gemini3-compat scenario's, kept apart
  const secret = randomBytes(32);         // signs Anthropic thinking blocks

  const control = {
    failNext(list) { faults.push(...checkFaults(list)); },
    reset() { requests.length = 0; faults.length = 0; },
  };

  function record(req, url, body, raw) {
    // A body that is not JSON is recorded as the text it was.
    requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { ...req.headers },
      body: body === undefined ? raw : body });
    if (requests.length > maxRecorded) requests.splice(0, requests.length - maxRecorded);
  }

  function authProblem(format, headers, url) {
    if (format === 'anthropic') return anthropicAuthProblem(headers, apiKey);
    if (format === 'gemini') return geminiAuthProblem(headers['x-goog-api-key'] ?? url.searchParams.get('key'));
    return openaiAuthProblem(headers);
  }

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

    const api = route(req.method, url.pathname, req.headers, url.searchParams);
    if (!api || (api.list && models === false)) {
      const { status, body: error } = openaiError(404, `Unknown request URL: ${req.method} ${url.pathname}.`, { code: 'unknown_url' });
      return sendJson(res, status, error);
    }
    record(req, url, body, raw);
    if (api.list) { // lists take no faults: a host reading them at start would eat the ones meant for its turns
      const problem = authProblem(api.format, req.headers, url);
      const { status, body: list } = problem ?? modelList(api.format, models, url.searchParams);
      return sendJson(res, status, list);
    }

    const streaming = api.format === 'gemini' ? api.stream : body?.stream === true;
    const asArray = api.format === 'gemini' && url.searchParams.get('alt') !== 'sse';
    const fault = faults.shift();
    if (fault && (fault.status !== undefined || (fault.overloaded && !streaming))) {
      const { status, body: errorBody, headers } = faultResponse(api.format, fault);
      return sendJson(res, status, errorBody, headers);
    }
    if (fault?.empty) return empty(res, asArray, streaming);
    if (fault?.flood && api.format === 'openai' && streaming) return flood(res, fault.flood);

    const auth = authProblem(api.format, req.headers, url);
    if (auth) return sendJson(res, auth.status, auth.body);
    const model = api.format === 'gemini' ? api.model : body?.model;
    const scenario = scenarioOf(model);
    if (scenario && (scenario.unknown || scenario.format !== api.format)) {
      const { status, body: error } = modelNotFound(api, model);
      return sendJson(res, status, error);
    }
    const validate = {
      openai: () => openaiProblem(body), gemini: () => geminiProblem(body, book), anthropic: () => anthropicProblem(body, secret),
    };
    const problem = scenario?.precheck?.(body) ?? validate[api.format]() ?? scenario?.problem?.(body, { raw, compatBook });
    if (problem) return sendJson(res, problem.status, problem.body);

    const promptTokens = Math.ceil(raw.length / 4);
    const transport = {
      dropAfter: fault?.drop ? (fault.afterChunks ?? 0) : undefined,
      errorAt: fault?.overloaded ? { at: fault.afterChunks ?? 0, error: midStreamError(api.format) } : undefined,
      gzip: scenario?.gzip === true && gzipAllowed(req.headers['accept-encoding']),
    };
    if (api.format === 'openai') {
      const plan = answer(openaiView(body));
      const context = { model: body.model, promptTokens, includeUsage: body.stream_options?.include_usage === true, compatBook };
      if (streaming) return stream(res, (scenario?.stream ?? openaiStream)(plan, context), transport);
      return reply(res, (scenario?.completion ?? openaiCompletion)(plan, context), transport);
    }
    if (api.format === 'anthropic') {
      const plan = answer(anthropicView(body));
      const context = anthropicContext(body, { promptTokens, secret, stop: scenario?.stop });
      if (streaming) return stream(res, anthropicStream(plan, context), transport);
      return reply(res, anthropicMessage(plan, context), transport);
    }
    const plan = answer(geminiView(body));
    const context = { model: api.model, promptTokens, book, withIds: api.model.includes('with-ids'), body };
    if (api.stream) {
      // Without alt=sse, Gemini streams one JSON array instead of events.
      return stream(res, (scenario?.stream ?? geminiStream)(plan, context), { separator: '\r\n\r\n', array: asArray, ...transport });
    }
    const whole = scenario?.stream ? geminiMerge(scenario.stream(plan, context).map((event) => event.data)) : geminiResponse(plan, context);
    return reply(res, whole, transport);
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

/**
 * Sends a whole JSON answer: gzipped with `gzip`, or (with `dropAfter` set) half of it before
 * destroying the connection.
 */
async function reply(res, body, { dropAfter, gzip = false } = {}) {
  if (gzip) {
    const text = zlib.gzipSync(JSON.stringify(body));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', vary: 'accept-encoding',
      'content-length': text.length });
    return res.end(text);
  }
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
