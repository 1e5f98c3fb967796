// The Gemini thought signatures the fake LLM server has issued (fake-llm-formats.mjs, and the
// gemini3-compat scenario of fake-llm-scenarios.mjs), so that it can refuse a history that drops or
// swaps them as Gemini 3 does (https://ai.google.dev/gemini-api/docs/thought-signatures).
import { randomBytes } from 'node:crypto';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** JSON with object keys sorted, so a call is recognised whatever order a host writes its args in. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Remembers the thought signature of every function call the fake issued (the newest `limit`). */
export class SignatureBook {
  constructor(limit = 50000) {
    this.limit = limit;
    this.bySignature = new Map(); // signature -> { key, id }, oldest first
    this.byId = new Map();        // call id -> signature
    this.keys = new Map();        // canonical name+args -> how many remembered calls have it
  }
  static key(name, args) { return `${name}\u0000${canonical(args ?? {})}`; }
  issue(name, args, id) {
    const signature = randomBytes(24).toString('base64');
    const key = SignatureBook.key(name, args);
    this.bySignature.set(signature, { key, id });
    if (id) this.byId.set(id, signature);
    this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
    if (this.bySignature.size > this.limit) {
      const [old, entry] = this.bySignature.entries().next().value;
      this.bySignature.delete(old);
      if (entry.id) this.byId.delete(entry.id);
      const left = this.keys.get(entry.key) - 1;
      if (left) this.keys.set(entry.key, left); else this.keys.delete(entry.key);
    }
    return signature;
  }
  /** Why a model-turn part holding `call` (the functionCall) is unacceptable, or null. */
  problem(call, signature) {
    const key = SignatureBook.key(call.name, call.args);
    if (signature) {
      const entry = this.bySignature.get(signature);
      // A signature the fake never issued (or long forgot) is taken on trust, as Gemini cannot tell either.
      return entry && (entry.key !== key || (call.id && entry.id && call.id !== entry.id)) ? 'Corrupted thought signature.' : null;
    }
    const issued = (call.id && this.byId.has(call.id)) || this.keys.has(key);
    return issued
      ? 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and '
        + 'missing thought_signature may lead to degraded model performance. Additional data, function call '
        + `\`default_api:${call.name}\`. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`
      : null;
  }
}
