export const DEFAULT_DAEMON_URL = "http://localhost:7890";

export interface DaemonUrlCheck {
  /** The URL to store (no trailing slash), or undefined when the input cannot be used at all. */
  url?: string;
  /** Why the input was refused, when `url` is undefined. */
  error?: string;
  /** A reason to think twice that does not prevent saving. */
  warning?: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Telemetry includes page text, request bodies and storage values, so a daemon that is not on this
 * machine gets a warning: the user should know the data leaves the computer.
 */
export function checkDaemonUrl(input: string): DaemonUrlCheck {
  const trimmed = input.trim();
  if (trimmed === "") return { error: "Enter the daemon's URL, e.g. " + DEFAULT_DAEMON_URL };
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { error: `"${trimmed}" is not a URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { error: `Only http:// and https:// URLs are supported, not ${parsed.protocol}//` };
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    return { error: "The URL must not contain a query or a fragment" };
  }
  const url = parsed.origin + parsed.pathname.replace(/\/+$/, "");
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
    return {
      url,
      warning: `${parsed.hostname} is not this computer: captured console output, request bodies and storage values of the tracked tab will be sent there.`,
    };
  }
  return { url };
}

/** Whatever is stored, the worker needs a usable URL: fall back to the default rather than stop syncing. */
export function daemonUrlOrDefault(stored: unknown): string {
  if (typeof stored !== "string") return DEFAULT_DAEMON_URL;
  return checkDaemonUrl(stored).url ?? DEFAULT_DAEMON_URL;
}
