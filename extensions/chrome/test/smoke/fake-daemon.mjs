// The fake daemon of the Chromium smoke check: serves the test pages, records telemetry, long-polls
// /sync for up to 5 s and re-sends commands until they are acknowledged, like the real one.
import { createHash } from "node:crypto";
import { createServer } from "node:http";

/** `pages`: path → { body, headers } served as HTML. */
export function createFakeDaemon(pages) {
  const state = { syncs: [], telemetry: {}, queue: [], results: new Map(), waiters: [], clientHeaders: new Set() };
  const wake = () => state.waiters.splice(0).forEach((resolve) => resolve());
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, "http://x");
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const origin = request.headers.origin;
    const cors = origin ? { "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Headers": "Content-Type, X-Gasoline-Client, X-Gasoline-Extension-Version" } : {};
    const send = (status, body, headers = {}) => {
      response.writeHead(status, { "Content-Type": "application/json", ...cors, ...headers });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (request.method === "OPTIONS") return send(204, "");
    const page = pages[url.pathname];
    if (page) return send(200, page.body, { "Content-Type": "text/html", ...page.headers });
    if (url.pathname === "/health") return send(200, { status: "ok", version: "smoke", capture: { extension_connected: state.syncs.length > 0 } });
    if (request.headers["x-gasoline-client"]) state.clientHeaders.add(request.headers["x-gasoline-client"]);
    if (url.pathname === "/sync") {
      const body = JSON.parse(text || "{}");
      const sync = { start: Date.now(), end: Infinity, body };
      state.syncs.push(sync);
      // Open until answered or until the extension aborts it (a parked poll interrupted by a result).
      response.on("close", () => (sync.end = Date.now()));
      for (const result of body.command_results ?? []) state.results.set(result.id, result);
      if (body.last_command_ack) {
        const index = state.queue.findIndex((command) => command.id === body.last_command_ack);
        if (index >= 0) state.queue.splice(0, index + 1);
      }
      state.queue = state.queue.filter((command) => !state.results.has(command.id));
      if (state.queue.length === 0) {
        await Promise.race([new Promise((resolve) => state.waiters.push(resolve)), new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (response.destroyed) return;
      }
      const commands = state.queue.slice(0, 15);
      return send(200, { ack: true, commands, next_poll_ms: commands.length ? 200 : 1000, server_time: new Date().toISOString(), server_version: "smoke", capture_overrides: {} });
    }
    const envelope = { "/logs": "entries", "/websocket-events": "events", "/network-bodies": "bodies", "/enhanced-actions": "actions", "/performance-snapshots": "snapshots" }[url.pathname];
    if (envelope && request.method === "POST") {
      const items = JSON.parse(text)[envelope] ?? [];
      (state.telemetry[url.pathname] ??= []).push(...items);
      return send(200, { received: items.length });
    }
    send(404, { error: "Not found" });
  });
  server.on("upgrade", (request, socket) => acceptWebSocket(request, socket));
  return {
    state,
    server,
    enqueue(command) {
      state.queue.push(command);
      wake();
    },
  };
}

/** Just enough of RFC 6455 for the capture check: the handshake, one text frame out, small masked frames in. */
function acceptWebSocket(request, socket) {
  const accept = createHash("sha1").update(request.headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const textFrame = (text) => Buffer.concat([Buffer.from([0x81, Buffer.byteLength(text)]), Buffer.from(text)]);
  socket.write(textFrame("hello from server"));
  socket.on("data", (frame) => {
    if ((frame[0] & 0x0f) !== 1) return;
    const length = frame[1] & 0x7f;
    const mask = frame.subarray(2, 6);
    const payload = Buffer.from(frame.subarray(6, 6 + length).map((byte, index) => byte ^ mask[index % 4]));
    socket.write(textFrame(`echo: ${payload.toString()}`));
  });
  socket.on("error", () => undefined);
}

