import assert from "node:assert/strict";
import { test } from "node:test";
import vm from "node:vm";
import { evaluateInMainWorld, type MainWorldEvaluation } from "../src/worker/commands/main-world-evaluation.js";
import { readDistFile } from "./helpers/page-scripts.js";

/**
 * Runs the function the way chrome.scripting does: its source text, in a fresh context where only
 * the injected serializer exists. That also proves it is self-contained. `allowEval: false` is what
 * a page's CSP without 'unsafe-eval' does to `new Function`.
 */
async function evaluate(script: string, timeoutMs = 1000, allowEval = true): Promise<MainWorldEvaluation> {
  const context = vm.createContext({ setTimeout, clearTimeout }, { codeGeneration: { strings: allowEval, wasm: false } });
  vm.runInContext(readDistFile("page/transport-serializer.js"), context);
  const run = vm.runInContext(`(${evaluateInMainWorld.toString()})`, context) as typeof evaluateInMainWorld;
  const evaluation = await run(script, timeoutMs);
  assert.equal("__mcpkitDevconsoleParts" in context, false, "the serializer holder is removed from the page");
  return JSON.parse(JSON.stringify(evaluation)) as MainWorldEvaluation;
}

test("an expression returns its value", async () => {
  assert.deepEqual(await evaluate("1 + 2"), { kind: "ok", value: 3 });
  assert.deepEqual(await evaluate("({ a: [1, 'b'] });"), { kind: "ok", value: { a: [1, "b"] } });
});

test("statements run as a function body; return gives the value", async () => {
  assert.deepEqual(await evaluate("const a = 20; const b = 22; return a + b;"), { kind: "ok", value: 42 });
  assert.deepEqual(await evaluate("let x = 1; x++"), { kind: "ok", value: null });
});

test("await works and promises are awaited", async () => {
  assert.deepEqual(await evaluate("await new Promise((resolve) => setTimeout(() => resolve('late'), 10))"), { kind: "ok", value: "late" });
});

test("the value is serialized safely", async () => {
  const evaluation = await evaluate("const o = { n: 1 }; o.self = o; return o;");
  assert.deepEqual(evaluation, { kind: "ok", value: { n: 1, self: "[Circular]" } });
});

test("a thrown error is a script_error with message and stack; a syntax error too", async () => {
  const thrown = await evaluate("throw new RangeError('too far')");
  assert.equal(thrown.kind, "script_error");
  assert.equal(thrown.kind === "script_error" && thrown.message, "RangeError: too far");
  const syntax = await evaluate("this is not javascript");
  assert.equal(syntax.kind, "script_error");
  assert.match(syntax.kind === "script_error" ? syntax.message : "", /SyntaxError/);
});

test("a script that does not settle in time reports timeout", async () => {
  assert.deepEqual(await evaluate("new Promise(() => {})", 50), { kind: "timeout" });
});

test("a page that forbids eval reports csp_blocked, not a script error", async () => {
  const evaluation = await evaluate("document.title", 1000, false);
  assert.equal(evaluation.kind, "csp_blocked");
});
