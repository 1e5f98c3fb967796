import type { FetchFunction, FetchResponse } from "../../src/worker/daemon-requests.js";
import { settle } from "./fake-clock.js";

export interface RecordedRequest {
  url: string;
  headers: Record<string, string>;
  body: any;
  signal: AbortSignal | undefined;
  aborted: boolean;
  settled: boolean;
  respond(body: unknown, status?: number): void;
  fail(error?: unknown): void;
}

/**
 * A daemon the test answers by hand: every request stays pending until the test calls respond()
 * or fail(), and an abort rejects it the way fetch does. Records how many requests were on the
 * wire at the same time.
 */
export class FakeDaemon {
  readonly requests: RecordedRequest[] = [];
  private inFlight = 0;
  maxInFlight = 0;
  /** When set, every request is answered at once with this function's result. */
  autoRespond: ((request: RecordedRequest) => { status?: number; body?: unknown; error?: unknown }) | undefined;

  readonly fetch: FetchFunction = (url, init) =>
    new Promise<FetchResponse>((resolve, reject) => {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const done = () => {
        if (request.settled) return false;
        request.settled = true;
        this.inFlight -= 1;
        return true;
      };
      const request: RecordedRequest = {
        url,
        headers: init.headers,
        body: init.body === undefined ? undefined : JSON.parse(init.body),
        signal: init.signal,
        aborted: false,
        settled: false,
        respond: (body, status = 200) => {
          if (!done()) return;
          const text = typeof body === "string" ? body : JSON.stringify(body);
          resolve({ ok: status >= 200 && status < 300, status, statusText: String(status), text: async () => text });
        },
        fail: (error = new TypeError("Failed to fetch")) => {
          if (done()) reject(error);
        },
      };
      this.requests.push(request);
      init.signal?.addEventListener("abort", () => {
        request.aborted = true;
        if (done()) reject(init.signal?.reason ?? new Error("aborted"));
      });
      const automatic = this.autoRespond?.(request);
      if (automatic) {
        if (automatic.error !== undefined) request.fail(automatic.error);
        else request.respond(automatic.body ?? {}, automatic.status ?? 200);
      }
    });

  pending(): RecordedRequest[] {
    return this.requests.filter((request) => !request.settled);
  }

  last(): RecordedRequest {
    const request = this.requests[this.requests.length - 1];
    if (!request) throw new Error("no request yet");
    return request;
  }

  async waitForRequests(count: number): Promise<void> {
    for (let attempt = 0; attempt < 50 && this.requests.length < count; attempt++) await settle();
    if (this.requests.length < count) throw new Error(`expected ${count} requests, saw ${this.requests.length}`);
  }
}
