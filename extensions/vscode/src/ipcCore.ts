// The editor side of the review IPC, as the extension serves it (the same protocol as
// `mcpkit review-panel`, src/review/IpcServer.cpp): a Unix socket with mode 0600; one JSON
// message per line in, {type, payload, id}; one reply per line out, {id, success, error?}.
// Nothing here imports vscode, so it runs and is tested under plain Node.

import * as fs from 'node:fs';
import * as net from 'node:net';

export interface IpcReply {
  success: boolean;
  error?: string;
}

export type IpcHandler = (type: string, payload: Record<string, unknown>) => IpcReply | Promise<IpcReply>;

export interface IpcServerOptions {
  socketPath: string;
  handle: IpcHandler;
  /** Longest message accepted, in bytes (default 64 MiB). */
  maxMessageBytes?: number;
  log?: (message: string) => void;
}

export interface RunningIpcServer {
  readonly socketPath: string;
  close(): Promise<void>;
}

function reply(id: string, success: boolean, error?: string): string {
  return JSON.stringify(success ? { id, success } : { id, success, error }) + '\n';
}

/** The reply line for one received line (shared by the server and the tests). */
export async function answerLine(line: string, handle: IpcHandler): Promise<string> {
  let message: unknown;
  try {
    message = JSON.parse(line.replace(/\r$/, ''));
  } catch {
    return reply('unknown', false, 'Invalid JSON message');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return reply('unknown', false, 'Invalid message: expected a JSON object {type, payload, id}');
  const { id, type, payload } = message as Record<string, unknown>;
  if (typeof id !== 'string') return reply('unknown', false, 'Invalid message: "id" must be a string (a UUID) to match the reply to');
  if (typeof type !== 'string') return reply(id, false, 'Invalid message: "type" must be a string such as "present-review"');
  if (payload !== undefined && payload !== null && (typeof payload !== 'object' || Array.isArray(payload)))
    return reply(id, false, 'Invalid message: "payload" must be an object');
  try {
    const outcome = await handle(type, (payload ?? {}) as Record<string, unknown>);
    return reply(id, outcome.success, outcome.error);
  } catch (error) {
    return reply(id, false, error instanceof Error ? error.message : String(error));
  }
}

function socketIsLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Listens on `socketPath`, replacing a stale socket file but never a live one. */
export async function startIpcServer(options: IpcServerOptions): Promise<RunningIpcServer> {
  const { socketPath, handle } = options;
  const maxBytes = options.maxMessageBytes ?? 64 * 1024 * 1024;
  if (fs.existsSync(socketPath)) {
    if (!fs.lstatSync(socketPath).isSocket())
      throw new Error(socketPath + ' exists and is not a socket; remove it or choose another path');
    if (await socketIsLive(socketPath))
      throw new Error('another review panel is listening on ' + socketPath + '; stop it, or use another socket');
    fs.unlinkSync(socketPath);
  }
  const clients = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    clients.add(socket);
    let buffered = '';
    let queue = Promise.resolve();  // replies leave in the order the messages came
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() === '') continue;  // blank lines between messages carry nothing
        queue = queue.then(async () => {
          const answer = await answerLine(line, handle);
          if (!socket.destroyed) socket.write(answer);
        });
      }
      if (Buffer.byteLength(buffered) > maxBytes) {
        socket.end(reply('unknown', false, 'Message longer than ' + maxBytes +
          ' bytes, or not ended by a newline; send one JSON message per line'));
        buffered = '';
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => clients.delete(socket));
  });
  const previousMask = process.umask(0o177);  // created 0600: only this user may send reviews
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(previousMask);
  }
  fs.chmodSync(socketPath, 0o600);
  options.log?.('review IPC listening on ' + socketPath);
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.destroy();
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}
