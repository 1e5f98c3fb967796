/**
 * What `execute` runs in the page's MAIN world. chrome.scripting sends a function as source text,
 * so this function must be self-contained: no imports, no outer helpers, only its arguments and
 * the serializer that was injected (as a file) just before it.
 *
 * The script is tried first as an expression (`document.title`), then as a function body
 * (`const a = 1; return a`); `await` works in both. Compiling it needs eval, which a page's
 * Content-Security-Policy may forbid: that is reported as `csp_blocked`, not as a script error.
 */
export type MainWorldEvaluation =
  | { kind: "ok"; value: unknown }
  | { kind: "timeout" }
  | { kind: "csp_blocked"; message: string }
  | { kind: "script_error"; message: string; stack: string };

export async function evaluateInMainWorld(script: string, timeoutMs: number): Promise<MainWorldEvaluation> {
  type Serializer = (value: unknown, limits?: Record<string, number>) => unknown;
  const holder = globalThis as { __mcpkitDevconsoleParts?: { serializeForTransport?: Serializer } };
  const serialize = holder.__mcpkitDevconsoleParts?.serializeForTransport;
  // The holder exists only between the two injections; the page must not keep seeing it.
  delete holder.__mcpkitDevconsoleParts;
  const limits = { maxDepth: 6, maxKeys: 200, maxStringLength: 256 * 1024, maxNodes: 10_000 };
  const toTransport: Serializer = serialize ?? ((value) => JSON.parse(JSON.stringify(value ?? null)) as unknown);

  const isCspRefusal = (error: unknown): boolean => {
    const message = error instanceof Error ? error.message : String(error);
    return (error instanceof Error && error.name === "EvalError") || /Content Security Policy|unsafe-eval|Trusted ?Type/i.test(message);
  };
  const describe = (error: unknown): { message: string; stack: string } => {
    if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: String(error.stack ?? "") };
    let text: string;
    try {
      text = typeof error === "string" ? error : JSON.stringify(toTransport(error));
    } catch {
      text = String(error);
    }
    return { message: `Uncaught ${text}`, stack: "" };
  };

  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (body: string) => () => Promise<unknown>;
  const expression = script.trim().replace(/;+\s*$/, "");
  let compiled: () => Promise<unknown>;
  try {
    compiled = new AsyncFunction(`return (\n${expression}\n);`);
  } catch (expressionError) {
    if (isCspRefusal(expressionError)) return { kind: "csp_blocked", message: describe(expressionError).message };
    try {
      compiled = new AsyncFunction(script);
    } catch (statementError) {
      if (isCspRefusal(statementError)) return { kind: "csp_blocked", message: describe(statementError).message };
      return { kind: "script_error", ...describe(statementError) };
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<MainWorldEvaluation>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), timeoutMs);
  });
  const run = (async (): Promise<MainWorldEvaluation> => {
    try {
      const value = await compiled.call(globalThis);
      return { kind: "ok", value: toTransport(value, limits) };
    } catch (error) {
      if (isCspRefusal(error)) return { kind: "csp_blocked", message: describe(error).message };
      return { kind: "script_error", ...describe(error) };
    }
  })();
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
