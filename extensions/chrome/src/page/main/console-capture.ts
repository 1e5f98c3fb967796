/**
 * MAIN world: console.* calls, uncaught errors and unhandled rejections become `/logs` entries.
 * The original console method always runs, and capture failures are swallowed: whatever happens
 * here, the page's own logging must behave exactly as without the extension.
 */
(function registerConsoleCapture() {
  const LEVELS = ["debug", "log", "info", "warn", "error"] as const;
  type ConsoleLevel = (typeof LEVELS)[number];

  interface SerializedError {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
  }

  /** Where a rejection came from is only known through its stack's first frame. */
  function firstFrameLocation(stack: string): { filename: string; lineno: number; colno: number } {
    const match = /\(?((?:https?|file|chrome-extension|blob):[^\s)]+):(\d+):(\d+)\)?/.exec(stack);
    if (!match) return { filename: "", lineno: 0, colno: 0 };
    return { filename: match[1] as string, lineno: Number(match[2]), colno: Number(match[3]) };
  }

  function installConsoleCapture(context: MainWorldCaptureContext): void {
    for (const level of LEVELS) wrapConsoleMethod(context, level);

    window.addEventListener("error", (event) => {
      if (!context.isCapturing() || !(event instanceof ErrorEvent)) return;
      try {
        const serialized = context.serialize(event.error) as SerializedError | string | null;
        const stack = typeof serialized === "object" && serialized && typeof serialized.stack === "string" ? serialized.stack : "";
        context.emit("logs", {
          ts: new Date().toISOString(),
          url: location.href,
          message: event.message || context.formatMessage([serialized]),
          source: "",
          level: "error",
          type: "exception",
          args: serialized === null ? [] : [serialized],
          stack,
          filename: event.filename || "",
          lineno: event.lineno || 0,
          colno: event.colno || 0,
        });
      } catch {
        // see file comment
      }
    });

    window.addEventListener("unhandledrejection", (event) => {
      if (!context.isCapturing()) return;
      try {
        const serialized = context.serialize(event.reason) as SerializedError | string | null;
        const isErrorLike = typeof serialized === "object" && serialized !== null && "message" in serialized;
        const description = isErrorLike
          ? `${String(serialized.name ?? "Error")}: ${String(serialized.message ?? "")}`
          : context.formatMessage([serialized]);
        const stack = isErrorLike && typeof serialized.stack === "string" ? serialized.stack : "";
        context.emit("logs", {
          ts: new Date().toISOString(),
          url: location.href,
          message: `Uncaught (in promise) ${description}`,
          source: "",
          level: "error",
          type: "exception",
          args: [serialized],
          stack,
          ...firstFrameLocation(stack),
        });
      } catch {
        // see file comment
      }
    });
  }

  function wrapConsoleMethod(context: MainWorldCaptureContext, level: ConsoleLevel): void {
    const original = console[level];
    if (typeof original !== "function") return;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      if (context.isCapturing()) {
        try {
          const serialized = args.map((argument) => context.serialize(argument));
          context.emit("logs", {
            ts: new Date().toISOString(),
            url: location.href,
            message: context.formatMessage(serialized),
            source: "",
            level,
            type: "console",
            args: serialized,
          });
        } catch {
          // see file comment
        }
      }
      return original.apply(this, args);
    };
    console[level] = wrapped;
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.installConsoleCapture = installConsoleCapture;
})();
