export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

export const DAEMON_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 5000 };

/** Delay before attempt number `failures + 1`: initial, doubled per further failure, capped. */
export function backoffDelay(failures: number, policy: BackoffPolicy = DAEMON_BACKOFF): number {
  if (failures <= 0) return 0;
  const exponent = Math.min(failures - 1, 20);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
}
