import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDaemonUrl, daemonUrlOrDefault, DEFAULT_DAEMON_URL } from "../src/shared/daemon-url.js";
import { daemonHeaders } from "../src/worker/daemon-requests.js";

test("local daemon URLs are accepted and normalized", () => {
  assert.deepEqual(checkDaemonUrl("http://localhost:7890/"), { url: "http://localhost:7890" });
  assert.deepEqual(checkDaemonUrl(" http://127.0.0.1:9000 "), { url: "http://127.0.0.1:9000" });
  assert.deepEqual(checkDaemonUrl("https://[::1]:8443/devconsole/"), { url: "https://[::1]:8443/devconsole" });
});

test("a remote host is allowed with a warning; other schemes and garbage are refused", () => {
  const remote = checkDaemonUrl("http://devbox.example:7890");
  assert.equal(remote.url, "http://devbox.example:7890");
  assert.match(remote.warning ?? "", /not this computer/);
  assert.match(checkDaemonUrl("ws://localhost:7890").error ?? "", /Only http/);
  assert.match(checkDaemonUrl("localhost 7890").error ?? "", /not a URL/);
  assert.match(checkDaemonUrl("").error ?? "", /Enter/);
  assert.match(checkDaemonUrl("http://localhost:7890/?x=1").error ?? "", /query/);
});

test("an unusable stored value falls back to the default", () => {
  assert.equal(daemonUrlOrDefault(undefined), DEFAULT_DAEMON_URL);
  assert.equal(daemonUrlOrDefault("ftp://x"), DEFAULT_DAEMON_URL);
  assert.equal(daemonUrlOrDefault("http://localhost:1234/"), "http://localhost:1234");
});

test("data requests identify the extension the way the daemon's extension-only routes require", () => {
  assert.deepEqual(daemonHeaders("0.1.0"), {
    "Content-Type": "application/json",
    "X-Gasoline-Client": "mcpkit-devconsole/0.1.0",
    "X-Gasoline-Extension-Version": "0.1.0",
  });
});
