/** The smallest part of fetch the worker needs; tests pass a fake. */
export interface FetchResponse {
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
}

export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<FetchResponse>;

export interface DaemonConnection {
  fetch: FetchFunction;
  serverUrl(): string;
  extensionVersion: string;
}

/**
 * The daemon's extension-only routes refuse requests without X-Gasoline-Client; the prefix
 * `mcpkit-devconsole` tells it which extension is talking while keeping the original's header name.
 */
export function daemonHeaders(extensionVersion: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Gasoline-Client": `mcpkit-devconsole/${extensionVersion}`,
    "X-Gasoline-Extension-Version": extensionVersion,
  };
}

export class DaemonHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    path: string,
  ) {
    super(`${path}: HTTP ${status}${body ? " " + body.slice(0, 200).trim() : ""}`);
    this.name = "DaemonHttpError";
  }

  /** A 4xx other than timeout/rate limit will not succeed on retry: the batch itself is refused. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

export async function postJson(
  connection: DaemonConnection,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const response = await connection.fetch(connection.serverUrl() + path, {
    method: "POST",
    headers: daemonHeaders(connection.extensionVersion),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new DaemonHttpError(response.status, text, path);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
