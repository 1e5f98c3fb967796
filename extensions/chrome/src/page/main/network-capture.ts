/**
 * MAIN world: every fetch() and XMLHttpRequest of the page becomes a `/network-bodies` entry, and
 * a failed one (HTTP status >= 400 or no response at all) also becomes a `network` log entry.
 * Bodies are read from a clone, bounded in size and time, so the page's own reading is untouched
 * and a streaming response cannot hold memory or the capture forever.
 */
(function registerNetworkCapture() {
  const BODY_LIMIT = 16 * 1024;
  const LOG_RESPONSE_LIMIT = 4 * 1024;
  const READ_TIMEOUT_MS = 3000;

  interface RequestDescription {
    method: string;
    url: string;
    requestBody: string | undefined;
    startedAt: number;
  }

  interface Exchange {
    status: number;
    statusText: string;
    contentType: string;
    responseBody: string;
    failure?: string;
  }

  function absoluteUrl(url: string): string {
    try {
      return new URL(url, location.href).href;
    } catch {
      return url;
    }
  }

  function bounded(text: string, limit: number): string {
    return text.length > limit ? text.slice(0, limit) + "…[truncated]" : text;
  }

  function describeRequestBody(body: unknown): string | undefined {
    if (body === null || body === undefined) return undefined;
    if (typeof body === "string") return bounded(body, BODY_LIMIT);
    if (body instanceof URLSearchParams) return bounded(body.toString(), BODY_LIMIT);
    if (body instanceof FormData) {
      const fields: string[] = [];
      body.forEach((value, key) => fields.push(`${key}=${typeof value === "string" ? value : `[file ${value.name}]`}`));
      return bounded(fields.join("&"), BODY_LIMIT);
    }
    if (body instanceof Blob) return `[binary ${body.size} bytes]`;
    if (body instanceof ArrayBuffer) return `[binary ${body.byteLength} bytes]`;
    if (ArrayBuffer.isView(body)) return `[binary ${body.byteLength} bytes]`;
    return "[stream]";
  }

  function isTextual(contentType: string): boolean {
    return contentType === "" || /^text\/|json|xml|javascript|x-www-form-urlencoded|graphql|csv|yaml/i.test(contentType);
  }

  async function readBoundedText(response: Response, contentType: string): Promise<string> {
    if (!isTextual(contentType)) {
      const length = response.headers.get("content-length");
      return `[binary ${contentType}${length ? `, ${length} bytes` : ""}]`;
    }
    if (!response.body) return "";
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const deadline = Date.now() + READ_TIMEOUT_MS;
    let text = "";
    for (;;) {
      const remaining = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(remaining, 0))));
      const chunk = await Promise.race([reader.read(), timedOut]);
      clearTimeout(timer);
      if (chunk === "timeout") {
        reader.cancel().catch(() => undefined);
        return text === "" ? "[Skipped: body read timeout]" : bounded(text, BODY_LIMIT) + "…[Skipped: body read timeout]";
      }
      if (chunk.done) return text + decoder.decode();
      text += decoder.decode(chunk.value, { stream: true });
      if (text.length > BODY_LIMIT) {
        reader.cancel().catch(() => undefined);
        return text.slice(0, BODY_LIMIT) + "…[truncated]";
      }
    }
  }

  function record(context: MainWorldCaptureContext, request: RequestDescription, exchange: Exchange): void {
    const duration = Math.round(performance.now() - request.startedAt);
    const ts = new Date().toISOString();
    const bodyEntry: Record<string, unknown> = {
      url: request.url,
      method: request.method,
      status: exchange.status,
      content_type: exchange.contentType,
      response_body: exchange.responseBody,
      duration,
      ts,
    };
    if (request.requestBody !== undefined) bodyEntry.request_body = request.requestBody;
    if (exchange.failure !== undefined) bodyEntry.error = exchange.failure;
    context.emit("bodies", bodyEntry);
    if (exchange.failure === undefined && exchange.status < 400) return;
    const outcome = exchange.failure !== undefined ? `failed: ${exchange.failure}` : `${exchange.status} ${exchange.statusText}`.trim();
    context.emit("logs", {
      ts,
      url: request.url,
      message: `${request.method} ${request.url} ${outcome}`,
      source: "",
      level: "error",
      type: "network",
      args: [],
      method: request.method,
      status: exchange.status,
      statusText: exchange.failure ?? exchange.statusText,
      response: bounded(exchange.responseBody, LOG_RESPONSE_LIMIT),
      duration,
    });
  }

  function wrapFetch(context: MainWorldCaptureContext): void {
    const originalFetch = window.fetch;
    if (typeof originalFetch !== "function") return;
    window.fetch = function fetch(this: unknown, ...args: Parameters<typeof window.fetch>) {
      const pending = originalFetch.apply(this, args);
      if (!context.isCapturing()) return pending;
      try {
        const [input, init] = args;
        const isRequest = input instanceof Request;
        const request: RequestDescription = {
          method: String(init?.method ?? (isRequest ? input.method : "GET")).toUpperCase(),
          url: absoluteUrl(isRequest ? input.url : String(input)),
          requestBody: describeRequestBody(init?.body),
          startedAt: performance.now(),
        };
        // Registered before the caller's own continuation, so the clone happens before the page reads the body.
        pending.then(
          (response) => {
            let copy: Response;
            try {
              copy = response.clone();
            } catch {
              return;
            }
            const contentType = copy.headers.get("content-type") ?? "";
            readBoundedText(copy, contentType)
              .catch((error: unknown) => `[Skipped: ${String(error)}]`)
              .then((responseBody) =>
                record(context, request, { status: copy.status, statusText: copy.statusText, contentType, responseBody }),
              )
              .catch(() => undefined);
          },
          (error: unknown) => {
            try {
              const failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
              record(context, request, { status: 0, statusText: "", contentType: "", responseBody: "", failure });
            } catch {
              // capture must never disturb the page
            }
          },
        );
      } catch {
        // capture must never disturb the page
      }
      return pending;
    };
  }

  function xhrResponseText(xhr: XMLHttpRequest): string {
    try {
      if (xhr.responseType === "" || xhr.responseType === "text") return bounded(xhr.responseText, BODY_LIMIT);
      if (xhr.responseType === "json") return bounded(JSON.stringify(xhr.response) ?? "", BODY_LIMIT);
      if (xhr.responseType === "document") return "[document]";
      const response = xhr.response as Blob | ArrayBuffer | null;
      if (response instanceof Blob) return `[binary ${response.size} bytes]`;
      if (response instanceof ArrayBuffer) return `[binary ${response.byteLength} bytes]`;
      return "";
    } catch {
      return "";
    }
  }

  function wrapXmlHttpRequest(context: MainWorldCaptureContext): void {
    if (typeof XMLHttpRequest !== "function") return;
    const prototype = XMLHttpRequest.prototype;
    const originalOpen = prototype.open;
    const originalSend = prototype.send;
    const opened = new WeakMap<XMLHttpRequest, { method: string; url: string }>();
    prototype.open = function open(this: XMLHttpRequest, ...args: unknown[]) {
      try {
        opened.set(this, { method: String(args[0]).toUpperCase(), url: absoluteUrl(String(args[1])) });
      } catch {
        // capture must never disturb the page
      }
      return Reflect.apply(originalOpen, this, args) as void;
    } as typeof prototype.open;
    prototype.send = function send(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      const target = opened.get(this);
      if (target && context.isCapturing()) {
        try {
          const request: RequestDescription = {
            ...target,
            requestBody: describeRequestBody(body),
            startedAt: performance.now(),
          };
          this.addEventListener(
            "loadend",
            () => {
              try {
                const failure = this.status === 0 ? "network error or request aborted" : undefined;
                record(context, request, {
                  status: this.status,
                  statusText: this.statusText,
                  contentType: this.getResponseHeader("content-type") ?? "",
                  responseBody: xhrResponseText(this),
                  ...(failure !== undefined ? { failure } : {}),
                });
              } catch {
                // capture must never disturb the page
              }
            },
            { once: true },
          );
        } catch {
          // capture must never disturb the page
        }
      }
      return originalSend.call(this, body);
    };
  }

  function installNetworkCapture(context: MainWorldCaptureContext): void {
    wrapFetch(context);
    wrapXmlHttpRequest(context);
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.installNetworkCapture = installNetworkCapture;
})();
