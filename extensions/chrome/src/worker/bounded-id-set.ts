/**
 * Remembers the most recent `capacity` keys, forgetting the oldest first. The daemon re-sends a
 * command until it is acknowledged, so memory of past commands must outlive several polls but
 * must not grow for the life of the worker.
 */
export class BoundedIdSet {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    while (this.keys.size > this.capacity) {
      const oldest = this.keys.values().next().value as string;
      this.keys.delete(oldest);
    }
  }

  clear(): void {
    this.keys.clear();
  }

  get size(): number {
    return this.keys.size;
  }
}
