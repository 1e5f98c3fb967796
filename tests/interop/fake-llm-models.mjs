// The model lists of the fake LLM server (fake-llm.mjs), in the three formats, with each provider's
// paging so that a host's paging can be tested:
//   OpenAI     GET /v1/models → { object: "list", data: [{ id, object, created, owned_by }] }, no paging
//              (https://platform.openai.com/docs/api-reference/models/list)
//   Anthropic  GET /v1/models → { data: [{ type, id, display_name, created_at }], has_more, first_id, last_id },
//              ?limit (default 20, 1..1000), ?after_id, ?before_id (https://docs.claude.com/en/api/models-list)
//   Gemini     GET /v1beta/models → { models: [{ name: "models/<id>", … }], nextPageToken? }, ?pageSize
//              (default 50, at most 1000), ?pageToken (https://ai.google.dev/api/models#method:-models.list)
import { googleError } from './fake-llm-formats.mjs';
import { anthropicError } from './fake-llm-anthropic.mjs';

export const DEFAULT_MODELS = ['fake-model', 'gpt-standard', 'gemini-fake', 'claude-fake'];

const CREATED = 1735689600; // 2025-01-01, so that lists compare equal from run to run
const title = (id) => id.split(/[-_]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/** The list `ids` answers for a GET in `format`, with `query` its search parameters, as { status, body }. */
export function modelList(format, ids, query) {
  if (format === 'anthropic') return anthropicList(ids, query);
  if (format === 'gemini') return geminiList(ids, query);
  return { status: 200, body: { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'fake-llm' })) } };
}

function anthropicList(ids, query) {
  const limit = query.get('limit') === null ? 20 : Number(query.get('limit'));
  if (!Number.isInteger(limit)) return anthropicError(400, 'limit: Input should be a valid integer');
  if (limit < 1) return anthropicError(400, 'limit: Input should be greater than or equal to 1');
  if (limit > 1000) return anthropicError(400, 'limit: Input should be less than or equal to 1000');
  // An id that is not in the list gives an empty page.
  let page;
  let hasMore;
  if (query.get('before_id') !== null) {
    const end = ids.indexOf(query.get('before_id'));
    page = end < 0 ? [] : ids.slice(Math.max(0, end - limit), end);
    hasMore = end - limit > 0;
  } else {
    const after = query.get('after_id');
    const start = after === null ? 0 : ids.indexOf(after) + 1;
    page = after !== null && start === 0 ? [] : ids.slice(start, start + limit);
    hasMore = page.length > 0 && start + limit < ids.length;
  }
  const data = page.map((id) => ({ type: 'model', id, display_name: title(id), created_at: new Date(CREATED * 1000).toISOString() }));
  return { status: 200, body: { data, has_more: hasMore, first_id: page[0] ?? null, last_id: page.at(-1) ?? null } };
}

// Page tokens are opaque to the caller: here the offset of the next page, base64url-encoded.
const token = (offset) => Buffer.from(`offset:${offset}`).toString('base64url');

function geminiList(ids, query) {
  const asked = Number(query.get('pageSize') ?? 0);
  if (!Number.isInteger(asked) || asked < 0) {
    return googleError(400, `Invalid value at 'page_size' (TYPE_INT32), "${query.get('pageSize')}"`); // not verified
  }
  const size = Math.min(asked || 50, 1000);
  let start = 0;
  if (query.get('pageToken')) {
    const match = /^offset:(\d+)$/.exec(Buffer.from(query.get('pageToken'), 'base64url').toString());
    if (!match) return googleError(400, 'Invalid page token.'); // not verified
    start = Number(match[1]);
  }
  const models = ids.slice(start, start + size).map((id) => ({
    name: `models/${id}`, version: '001', displayName: title(id), description: 'A model of the fake LLM server.', inputTokenLimit: 1048576,
    outputTokenLimit: 65536, supportedGenerationMethods: ['generateContent', 'countTokens'], temperature: 1, topP: 0.95, topK: 64,
    maxTemperature: 2, thinking: true,
  }));
  return { status: 200, body: { models, ...(start + size < ids.length ? { nextPageToken: token(start + size) } : {}) } };
}
