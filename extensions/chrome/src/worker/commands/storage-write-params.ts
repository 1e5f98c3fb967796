import {
  cookieDomainProblem,
  cookieNameProblem,
  cookiePathProblem,
  cookieValueProblem,
  deleteCookieString,
  MAX_COOKIE_BYTES,
  setCookieString,
  type CookieTarget,
} from "./cookie-strings.js";

/**
 * The writes of the `storage` command (interact's set_storage, delete_storage, clear_storage,
 * set_cookie, delete_cookie), checked in the worker before anything runs in the page: a bad call is
 * answered with the field it lacks, and the page receives one normalized, already valid write.
 */

export const STORAGE_WRITE_ACTIONS = ["set_storage", "delete_storage", "clear_storage", "set_cookie", "delete_cookie"] as const;
export type StorageWriteAction = (typeof STORAGE_WRITE_ACTIONS)[number];
export type StorageArea = "localStorage" | "sessionStorage";

/** What the page toolkit's storage_write runs (src/page/toolkit/storage-writes.ts). */
export type StorageWrite =
  | { action: "set_storage"; storage_type: StorageArea; key: string; value: string }
  | { action: "delete_storage"; storage_type: StorageArea; key: string }
  | { action: "clear_storage"; storage_type: StorageArea }
  | { action: "set_cookie"; name: string; value: string; path: string; domain?: string; cookie: string }
  | { action: "delete_cookie"; name: string; path: string; domain?: string; cookie: string };

export interface ParamProblem {
  error: string;
  message: string;
  field?: string;
}

/** Plain observe reads carry no action (or name the read itself). */
const READ_ACTIONS = new Set(["", "storage", "get_storage", "read"]);

export function isStorageWriteAction(action: string): action is StorageWriteAction {
  return (STORAGE_WRITE_ACTIONS as readonly string[]).includes(action);
}

/**
 * The write a `storage` command asks for; undefined for a read. The daemon sets `action` (and
 * `what`) to the interact mode; observe's read sets `what: "storage"` and no action.
 */
export function storageActionOf(params: Record<string, unknown>): string | undefined {
  const action = typeof params.action === "string" ? params.action.trim() : undefined;
  if (action !== undefined) return READ_ACTIONS.has(action) ? undefined : action;
  const what = typeof params.what === "string" ? params.what.trim() : "";
  return isStorageWriteAction(what) ? what : undefined;
}

function isProblem(value: unknown): value is ParamProblem {
  return typeof value === "object" && value !== null && "error" in value;
}

function storageArea(params: Record<string, unknown>): StorageArea | ParamProblem {
  const raw = params.storage_type;
  if (raw === undefined || raw === null || raw === "") return "localStorage";
  const normalized = typeof raw === "string" ? raw.trim().toLowerCase().replace(/storage$/, "") : "";
  if (normalized === "local") return "localStorage";
  if (normalized === "session") return "sessionStorage";
  return { error: "invalid_storage_type", field: "storage_type", message: `storage_type must be localStorage or sessionStorage; got ${JSON.stringify(raw)}.` };
}

function requiredString(params: Record<string, unknown>, field: string, action: string, what: string): string | ParamProblem {
  const value = params[field];
  if (typeof value === "string" && value !== "") return value;
  return { error: `missing_${field}`, field, message: `"${field}" is required for ${action}: ${what}.` };
}

/** Storage keeps strings; a number, boolean or object is stored as its JSON text, as pages usually do. */
function valueText(params: Record<string, unknown>, action: string, what: string): string | ParamProblem {
  const value = params.value;
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return { error: "missing_value", field: "value", message: `"value" is required for ${action}: ${what}.` };
  return JSON.stringify(value);
}

function cookieTarget(params: Record<string, unknown>, action: string): CookieTarget | ParamProblem {
  const name = requiredString(params, "name", action, "the cookie's name");
  if (isProblem(name)) return name;
  const nameProblem = cookieNameProblem(name);
  if (nameProblem) return { error: "invalid_cookie", field: "name", message: `${nameProblem}.` };
  const rawPath = params.path;
  const path = typeof rawPath === "string" && rawPath.trim() !== "" ? rawPath.trim() : "/";
  const pathProblem = cookiePathProblem(path);
  if (pathProblem) return { error: "invalid_cookie", field: "path", message: `${pathProblem}.` };
  const rawDomain = params.domain;
  if (typeof rawDomain !== "string" || rawDomain.trim() === "") return { name, path };
  const domain = rawDomain.trim();
  const domainProblem = cookieDomainProblem(domain);
  if (domainProblem) return { error: "invalid_cookie", field: "domain", message: `${domainProblem}.` };
  return { name, path, domain };
}

export function parseStorageWrite(action: string, params: Record<string, unknown>): StorageWrite | ParamProblem {
  if (!isStorageWriteAction(action)) {
    return { error: "unknown_action", field: "action", message: `storage does not know the action "${action}"; it takes ${STORAGE_WRITE_ACTIONS.join(", ")}, or none to read.` };
  }
  if (action === "set_cookie" || action === "delete_cookie") {
    const target = cookieTarget(params, action);
    if (isProblem(target)) return target;
    if (action === "delete_cookie") return { action, ...target, cookie: deleteCookieString(target) };
    const value = valueText(params, action, "the cookie's value (may be empty)");
    if (isProblem(value)) return value;
    const text = value;
    const valueProblem = cookieValueProblem(text);
    if (valueProblem) return { error: "invalid_cookie", field: "value", message: `${valueProblem}.` };
    if (new TextEncoder().encode(target.name + text).length > MAX_COOKIE_BYTES) {
      return { error: "invalid_cookie", field: "value", message: `the cookie's name and value exceed ${MAX_COOKIE_BYTES} bytes, which browsers drop.` };
    }
    return { action, ...target, value: text, cookie: setCookieString(target, text) };
  }
  const area = storageArea(params);
  if (isProblem(area)) return area;
  if (action === "clear_storage") return { action, storage_type: area };
  const key = requiredString(params, "key", action, `the ${area} key`);
  if (isProblem(key)) return key;
  if (action === "delete_storage") return { action, storage_type: area, key };
  const value = valueText(params, action, "the text to store");
  if (isProblem(value)) return value;
  return { action, storage_type: area, key, value };
}

export function isParamProblem(value: StorageWrite | ParamProblem): value is ParamProblem {
  return isProblem(value);
}
