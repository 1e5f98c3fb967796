import type { Clock, TimerHandle } from "../../src/worker/clock.js";

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

/** Lets promise continuations (fetch answers, awaits) run before the test looks or moves time. */
export async function settle(rounds = 10): Promise<void> {
  for (let round = 0; round < rounds; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A clock whose time only moves when the test says so; timers fire in due order. */
export class FakeClock implements Clock {
  private current = 1_700_000_000_000;
  private nextId = 1;
  private timers: Timer[] = [];

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.current + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each due timer and settling promises after each. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (;;) {
      const next = this.timers.filter((timer) => timer.due <= target).sort((left, right) => left.due - right.due || left.id - right.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.current = Math.max(this.current, next.due);
      next.callback();
      await settle();
    }
    this.current = target;
    await settle();
  }
}
