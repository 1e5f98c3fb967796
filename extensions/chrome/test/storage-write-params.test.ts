import assert from "node:assert/strict";
import { test } from "node:test";
import { deleteCookieString, setCookieString } from "../src/worker/commands/cookie-strings.js";
import { parseStorageWrite, storageActionOf } from "../src/worker/commands/storage-write-params.js";

test("a write is recognized by action, or by what when the action is missing; plain reads stay reads", () => {
  assert.equal(storageActionOf({ what: "storage" }), undefined);
  assert.equal(storageActionOf({}), undefined);
  assert.equal(storageActionOf({ what: "storage", storage_type: "cookies" }), undefined);
  assert.equal(storageActionOf({ what: "set_storage", action: "set_storage", key: "k" }), "set_storage");
  assert.equal(storageActionOf({ what: "delete_cookie" }), "delete_cookie");
  assert.equal(storageActionOf({ action: "storage" }), undefined);
  assert.equal(storageActionOf({ action: "frobnicate" }), "frobnicate", "an unknown action is not silently a read");
});

test("set_storage: key and value are required, storage_type defaults to localStorage", () => {
  assert.deepEqual(parseStorageWrite("set_storage", { key: "theme", value: "dark" }), {
    action: "set_storage",
    storage_type: "localStorage",
    key: "theme",
    value: "dark",
  });
  assert.deepEqual(parseStorageWrite("set_storage", { key: "n", value: 3, storage_type: "sessionStorage" }), {
    action: "set_storage",
    storage_type: "sessionStorage",
    key: "n",
    value: "3",
  });
  assert.equal((parseStorageWrite("set_storage", { key: "o", value: { a: [1] } }) as { value: string }).value, '{"a":[1]}');
  assert.equal((parseStorageWrite("set_storage", { key: "e", value: "" }) as { value: string }).value, "", "an empty string is a value");
  assert.deepEqual(parseStorageWrite("set_storage", { value: "x" }), {
    error: "missing_key",
    field: "key",
    message: '"key" is required for set_storage: the localStorage key.',
  });
  assert.equal((parseStorageWrite("set_storage", { key: "" }) as { error: string }).error, "missing_key");
  assert.equal((parseStorageWrite("set_storage", { key: "k" }) as { error: string }).error, "missing_value");
  assert.equal((parseStorageWrite("set_storage", { key: "k", value: null }) as { error: string }).error, "missing_value");
});

test("storage_type: either area, case and 'Storage' suffix aside; anything else names the field", () => {
  assert.equal((parseStorageWrite("clear_storage", { storage_type: "session" }) as { storage_type: string }).storage_type, "sessionStorage");
  assert.equal((parseStorageWrite("clear_storage", { storage_type: "LocalStorage" }) as { storage_type: string }).storage_type, "localStorage");
  const problem = parseStorageWrite("clear_storage", { storage_type: "cookies" }) as { error: string; field: string; message: string };
  assert.equal(problem.error, "invalid_storage_type");
  assert.equal(problem.field, "storage_type");
  assert.match(problem.message, /localStorage or sessionStorage/);
  assert.deepEqual(parseStorageWrite("delete_storage", { key: "k" }), { action: "delete_storage", storage_type: "localStorage", key: "k" });
  assert.equal((parseStorageWrite("delete_storage", {}) as { error: string }).error, "missing_key");
});

test("cookie strings: a session cookie with path (default /) and optional domain; deleting expires the same name, path and domain", () => {
  assert.equal(setCookieString({ name: "sid", path: "/" }, "abc"), "sid=abc; path=/");
  assert.equal(setCookieString({ name: "sid", path: "/app", domain: ".example.com" }, ""), "sid=; path=/app; domain=.example.com");
  assert.equal(deleteCookieString({ name: "sid", path: "/" }), "sid=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0");
  assert.deepEqual(parseStorageWrite("set_cookie", { name: "sid", value: "abc" }), {
    action: "set_cookie",
    name: "sid",
    path: "/",
    value: "abc",
    cookie: "sid=abc; path=/",
  });
  assert.deepEqual(parseStorageWrite("delete_cookie", { name: "sid", path: "/x", domain: "example.com" }), {
    action: "delete_cookie",
    name: "sid",
    path: "/x",
    domain: "example.com",
    cookie: "sid=; path=/x; domain=example.com; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0",
  });
});

test("cookie fields that would change the cookie's meaning are refused, naming the field", () => {
  const problem = (params: Record<string, unknown>, action = "set_cookie") => {
    const result = parseStorageWrite(action, params) as { error?: string; field?: string };
    return `${result.error}:${result.field}`;
  };
  assert.equal(problem({ value: "x" }), "missing_name:name");
  assert.equal(problem({ name: "sid" }), "missing_value:value");
  assert.equal(problem({ name: "a b", value: "x" }), "invalid_cookie:name");
  assert.equal(problem({ name: "a=b", value: "x" }), "invalid_cookie:name");
  assert.equal(problem({ name: "sid", value: "x; domain=evil.test" }), "invalid_cookie:value");
  assert.equal(problem({ name: "sid", value: "line\nbreak" }), "invalid_cookie:value");
  assert.equal(problem({ name: "sid", value: "x".repeat(5000) }), "invalid_cookie:value");
  assert.equal(problem({ name: "sid", value: "x", path: "app" }), "invalid_cookie:path");
  assert.equal(problem({ name: "sid", value: "x", domain: "exa mple.com" }), "invalid_cookie:domain");
  assert.equal(problem({ name: "sid", value: "x", domain: "example.com;secure" }), "invalid_cookie:domain");
  assert.equal(problem({ name: "sid" }, "delete_cookie"), "undefined:undefined", "delete needs no value");
  assert.equal((parseStorageWrite("set_cookie", { name: "sid", value: "", path: "  " }) as { path: string }).path, "/");
});

test("an unknown action is refused with the list of writes", () => {
  const problem = parseStorageWrite("drop_tables", {}) as { error: string; message: string };
  assert.equal(problem.error, "unknown_action");
  assert.match(problem.message, /set_storage, delete_storage, clear_storage, set_cookie, delete_cookie/);
});
