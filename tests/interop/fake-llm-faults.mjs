// The faults a test can queue on the fake LLM server (fake-llm.mjs, failNext / POST /_control), one
// consumed per model request, and what each looks like in the request's format:
//   { status, retryAfter? }          an HTTP error, as the provider words it
//   { drop: true, afterChunks? }     the connection broken after that many events (no clean end)
//   { empty: true }                  200 with the stream's content type and no event at all (some gateways)
//   { overloaded: true, afterChunks? } that many events, then the provider's in-stream error, then a clean
//                                    end: Anthropic documents `event: error` with overloaded_error mid-stream
//                                    (https://docs.claude.com/en/docs/build-with-claude/streaming#error-events);
//                                    a request without streaming gets the overloaded status instead.
//   { flood: 'text' | 'calls' }      (OpenAI, streaming) a hostile or broken provider: text until 256 MiB, or
//                                    1,500 tool calls each at a new index, unless the client hangs up first
import { googleError, openaiError } from './fake-llm-formats.mjs';
import { anthropicError } from './fake-llm-anthropic.mjs';

export function checkFaults(list) {
  const faults = Array.isArray(list) ? list : [list];
  for (const fault of faults) {
    if (!(fault && (fault.drop === true || fault.empty === true || fault.overloaded === true || Number.isInteger(fault.status)
      || fault.flood === 'text' || fault.flood === 'calls'))) {
      throw new TypeError('a fault is {status, retryAfter?}, {drop: true, afterChunks?}, {empty: true}, {overloaded: true, afterChunks?} '
        + `or {flood: 'text'|'calls'}, not ${JSON.stringify(fault)}`);
    }
  }
  return faults;
}

// The status an overloaded provider answers a request that does not stream.
const OVERLOADED = { anthropic: 529, gemini: 503, openai: 503 };

/** The error a queued status fault (or an overloaded one without streaming) answers with, as { status, body, headers }. */
export function faultResponse(format, fault) {
  const { retryAfter = 1 } = fault;
  const status = fault.overloaded ? OVERLOADED[format] : fault.status;
  if (format === 'anthropic') {
    const messages = { 500: 'Internal server error', 529: 'Overloaded' };
    if (status === 429) {
      const error = anthropicError(429, 'Number of request tokens has exceeded your per-minute rate limit '
        + '(https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or '
        + 'the maximum tokens requested, or try again later.');
      return { ...error, headers: { 'retry-after': String(retryAfter) } };
    }
    return anthropicError(status, messages[status] ?? `Injected fault ${status}.`);
  }
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

/** The event an overloaded provider puts in a stream it has started ({ event?, data }). */
export function midStreamError(format) {
  if (format === 'anthropic') return { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
  // OpenAI and Gemini send their usual error body as a data event.
  if (format === 'gemini') return { data: googleError(503, 'The model is overloaded. Please try again later.').body };
  return { data: openaiError(503, 'The server is overloaded or not ready yet.', { type: 'server_error' }).body };
}

/**
 * Whether an Accept-Encoding value allows gzip (RFC 9110 §12.5.3): no header allows any coding,
 * an empty one none; otherwise gzip (or *) must be listed with a q above 0.
 */
export function gzipAllowed(header) {
  if (header === undefined) return true;
  let gzip;
  let any;
  for (const item of header.split(',')) {
    const [coding, ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.map((param) => /^q\s*=\s*([0-9.]+)$/.exec(param)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (coding === 'gzip' || coding === 'x-gzip') gzip = weight;
    else if (coding === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}
