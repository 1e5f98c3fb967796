/**
 * Shapes of `POST /sync`, as the original extension sends and receives them
 * (see the wire reference, section 3). Field names are the wire's, hence snake_case.
 */
export interface SyncSettings {
  pilot_enabled: boolean;
  tracking_enabled: boolean;
  tracked_tab_id: number;
  tracked_tab_url: string;
  tracked_tab_title: string;
  capture_logs: boolean;
  capture_network: boolean;
  capture_websocket: boolean;
  capture_actions: boolean;
  csp_restricted: boolean;
  csp_level: string;
}

export interface InProgressEntry {
  id: string;
  correlation_id: string;
  type: string;
  status: "running";
  started_at: string;
  updated_at: string;
}

export type ExtensionLogLevel = "debug" | "info" | "warn" | "error";

export interface ExtensionLogEntry {
  timestamp: string;
  level: ExtensionLogLevel;
  message: string;
  source: "background";
  category: string;
  data?: unknown;
}

export type CommandStatus = "complete" | "error" | "timeout" | "cancelled";

export interface CommandResult {
  id: string;
  correlation_id?: string;
  status: CommandStatus;
  result?: Record<string, unknown>;
  error?: string;
}

export interface SyncRequest {
  ext_session_id: string;
  extension_version: string;
  settings: SyncSettings;
  in_progress: InProgressEntry[];
  extension_logs?: ExtensionLogEntry[];
  command_results?: CommandResult[];
  last_command_ack?: string;
}

export interface DaemonCommand {
  id: string;
  type: string;
  params?: Record<string, unknown>;
  tab_id?: number;
  correlation_id?: string;
  trace_id?: string;
}

export interface SyncResponse {
  ack?: boolean;
  commands?: DaemonCommand[];
  next_poll_ms?: number;
  server_time?: string;
  server_version?: string;
  capture_overrides?: Record<string, unknown>;
}

/** `ext_<Date.now()>_<6 base36>`, new for every service-worker start, like the original. */
export function newExtensionSessionId(now: number, random: () => number = Math.random): string {
  let suffix = "";
  for (let index = 0; index < 6; index++) suffix += Math.floor(random() * 36).toString(36);
  return `ext_${now}_${suffix}`;
}
