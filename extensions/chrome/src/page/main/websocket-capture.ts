/**
 * MAIN world: WebSocket connections of the page become `/websocket-events` entries (open, each
 * message in either direction, close, error). Every socket gets listeners at construction, even
 * while nobody is tracking, so a tab tracked later still reports the sockets it already has.
 */
(function registerWebSocketCapture() {
  const DATA_LIMIT = 4 * 1024;

  function newConnectionId(): string {
    if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
    // randomUUID exists only in secure contexts; plain-http pages get a random id of the same shape.
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (character) => {
      const random = Math.floor(Math.random() * 16);
      return (character === "x" ? random : (random & 0x3) | 0x8).toString(16);
    });
  }

  function describeData(data: unknown): { data: string; size: number } {
    if (typeof data === "string") {
      const size = new TextEncoder().encode(data).length;
      return { data: data.length > DATA_LIMIT ? data.slice(0, DATA_LIMIT) + "…[truncated]" : data, size };
    }
    if (data instanceof Blob) return { data: `[binary ${data.size} bytes]`, size: data.size };
    if (data instanceof ArrayBuffer) return { data: `[binary ${data.byteLength} bytes]`, size: data.byteLength };
    if (ArrayBuffer.isView(data)) return { data: `[binary ${data.byteLength} bytes]`, size: data.byteLength };
    return { data: "", size: 0 };
  }

  function installWebSocketCapture(context: MainWorldCaptureContext): void {
    const NativeWebSocket = window.WebSocket;
    if (typeof NativeWebSocket !== "function") return;
    const connections = new WeakMap<WebSocket, { id: string; url: string }>();

    function emit(socket: WebSocket, event: string, extra: Record<string, unknown>): void {
      if (!context.isCapturing()) return;
      const connection = connections.get(socket);
      if (!connection) return;
      try {
        context.emit("websocket", {
          type: "websocket",
          event,
          id: connection.id,
          url: connection.url,
          ts: new Date().toISOString(),
          ...extra,
        });
      } catch {
        // capture must never disturb the page
      }
    }

    class CapturedWebSocket extends NativeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        connections.set(this, { id: newConnectionId(), url: this.url });
        this.addEventListener("open", () => emit(this, "open", {}));
        this.addEventListener("message", (event) =>
          emit(this, "message", { direction: "incoming", ...describeData((event as MessageEvent).data) }),
        );
        this.addEventListener("close", (event) =>
          emit(this, "close", { code: (event as CloseEvent).code, reason: (event as CloseEvent).reason }),
        );
        this.addEventListener("error", () => emit(this, "error", {}));
      }
    }
    // Pages and libraries sometimes check WebSocket.name.
    Object.defineProperty(CapturedWebSocket, "name", { value: "WebSocket" });

    const nativeSend = NativeWebSocket.prototype.send;
    NativeWebSocket.prototype.send = function send(this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      if (this.readyState === NativeWebSocket.OPEN) emit(this, "message", { direction: "outgoing", ...describeData(data) });
      return nativeSend.call(this, data);
    };
    window.WebSocket = CapturedWebSocket;
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.installWebSocketCapture = installWebSocketCapture;
})();
