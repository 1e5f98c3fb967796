/** What the worker reports about itself: shown by the popup, returned by `devconsole.status()` for tests. */
export type ConnectionState = "connecting" | "connected" | "disconnected";

export interface ConnectionStatus {
  state: ConnectionState;
  serverUrl: string;
  consecutiveFailures: number;
  lastError?: string;
  lastErrorAt?: string;
  nextRetryAt?: string;
  lastSyncAt?: string;
  serverVersion?: string;
  syncCount: number;
}

export interface StreamCounters {
  sent: number;
  dropped: number;
  queued: number;
  inFlight: number;
}

export interface TrackedTabStatus {
  id: number;
  url: string;
  title: string;
}

export interface DevconsoleStatus {
  version: string;
  sessionId: string;
  connection: ConnectionStatus;
  trackedTab: TrackedTabStatus | null;
  sessionTabIds: number[];
  streams: Record<string, StreamCounters>;
  totals: { sent: number; dropped: number };
  commands: { received: number; completed: number; running: number };
}
