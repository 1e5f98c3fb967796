import assert from "node:assert/strict";
import { test } from "node:test";
import { DaemonHttpError } from "../src/worker/daemon-requests.js";
import { TelemetryBatcher, type TelemetryBatcherOptions } from "../src/worker/telemetry-batcher.js";
import { FakeClock, settle } from "./helpers/fake-clock.js";

interface Delivery {
  entries: number[];
  resolve(): void;
  reject(error?: unknown): void;
}

function setup(overrides: Partial<TelemetryBatcherOptions<number>> = {}) {
  const clock = new FakeClock();
  const deliveries: Delivery[] = [];
  const drops: Array<[number, string]> = [];
  const batcher = new TelemetryBatcher<number>({
    clock,
    send: (entries) =>
      new Promise<void>((resolve, reject) => {
        deliveries.push({ entries, resolve, reject: (error = new TypeError("Failed to fetch")) => reject(error) });
      }),
    isPermanentFailure: (error) => error instanceof DaemonHttpError && error.permanent,
    onDrop: (count, reason) => drops.push([count, reason]),
    ...overrides,
  });
  const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
  return { clock, batcher, deliveries, drops, range };
}

test("a lone entry leaves after the debounce, not before", async () => {
  const { clock, batcher, deliveries } = setup();
  batcher.add(1);
  await clock.advance(99);
  assert.equal(deliveries.length, 0);
  await clock.advance(1);
  assert.deepEqual(deliveries.map((delivery) => delivery.entries), [[1]]);
});

test("the debounce is measured from the first waiting entry, so a steady trickle still flows", async () => {
  const { clock, batcher, deliveries } = setup();
  for (let index = 0; index < 9; index++) {
    batcher.add(index);
    await clock.advance(20);
  }
  assert.equal(deliveries.length, 1, "sent 100 ms after the first entry although entries kept coming");
  assert.deepEqual(deliveries[0]?.entries, [0, 1, 2, 3, 4]);
});

test("50 entries leave at once, in batches of 50, at most 2 requests in flight", async () => {
  const { batcher, deliveries, range } = setup();
  batcher.addAll(range(0, 50));
  await settle();
  assert.equal(deliveries.length, 1);
  assert.equal(deliveries[0]?.entries.length, 50);
  batcher.addAll(range(50, 120));
  await settle();
  assert.equal(deliveries.length, 2, "a third batch waits for a free slot");
  assert.deepEqual(batcher.counters(), { sent: 0, dropped: 0, queued: 120 - 50, inFlight: 2 });
  deliveries[0]?.resolve();
  await settle();
  assert.equal(deliveries.length, 3);
  assert.deepEqual(deliveries[2]?.entries, range(100, 50));
  assert.equal(batcher.counters().sent, 50);
});

test("the queue is bounded: the oldest entries are dropped and counted", async () => {
  const { batcher, drops, range, deliveries } = setup({ maxQueue: 2000 });
  batcher.addAll(range(0, 100));
  await settle();
  assert.equal(deliveries.length, 2, "two batches of 50 in flight (never answered)");
  batcher.addAll(range(100, 2100));
  const counters = batcher.counters();
  assert.equal(counters.queued, 2000);
  assert.equal(counters.dropped, 100);
  assert.deepEqual(drops, [[100, "queue_full"]]);
});

test("a failed batch is retried first, after a backoff that grows", async () => {
  const { clock, batcher, deliveries } = setup();
  batcher.add(1);
  await clock.advance(100);
  deliveries[0]?.reject();
  await settle();
  batcher.add(2);
  await clock.advance(499);
  assert.equal(deliveries.length, 1, "nothing during the backoff");
  await clock.advance(1);
  assert.deepEqual(deliveries[1]?.entries, [1, 2], "the failed entry goes first");
  deliveries[1]?.reject();
  await clock.advance(999);
  assert.equal(deliveries.length, 2);
  await clock.advance(1);
  assert.equal(deliveries.length, 3, "second retry after 1000 ms");
  deliveries[2]?.resolve();
  await settle();
  assert.equal(batcher.counters().sent, 2);
});

test("a batch the daemon refuses (4xx) is dropped, not retried forever", async () => {
  const { clock, batcher, deliveries, drops } = setup();
  batcher.addAll([1, 2, 3]);
  await clock.advance(100);
  deliveries[0]?.reject(new DaemonHttpError(400, "Invalid JSON", "/logs"));
  await clock.advance(10_000);
  assert.equal(deliveries.length, 1);
  assert.deepEqual(drops, [[3, "rejected"]]);
  assert.equal(batcher.counters().dropped, 3);
});

test("a 429 is retried like a network error", async () => {
  const { clock, batcher, deliveries } = setup();
  batcher.add(1);
  await clock.advance(100);
  deliveries[0]?.reject(new DaemonHttpError(429, "", "/websocket-events"));
  await clock.advance(500);
  assert.equal(deliveries.length, 2);
});
