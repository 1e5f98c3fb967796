import assert from "node:assert/strict";
import { test } from "node:test";
import { TelemetryIntake } from "../src/worker/telemetry-intake.js";

function setup(tracked: number | undefined) {
  const added: Array<[string, Record<string, unknown>]> = [];
  let pageDrops = 0;
  const intake = new TelemetryIntake(() => tracked, {
    add: (stream, entry) => added.push([stream, entry]),
    notePageDrop: (count) => (pageDrops += count),
  });
  return { intake, added, drops: () => pageDrops };
}

test("only the tracked tab's top frame is captured", () => {
  const { intake, added } = setup(5);
  const message = { entries: [{ stream: "logs", entry: { message: "hi", level: "log" } }], dropped: 0 };
  assert.deepEqual(intake.hello({ tabId: 5, frameId: 0 }), { tracked: true });
  assert.deepEqual(intake.hello({ tabId: 6, frameId: 0 }), { tracked: false });
  assert.deepEqual(intake.hello({ tabId: 5, frameId: 3 }), { tracked: false });
  assert.equal(intake.receive(message, { tabId: 6, frameId: 0 }), 0);
  assert.equal(intake.receive(message, { tabId: 5, frameId: 2 }), 0);
  assert.equal(intake.receive(message, { tabId: 5, frameId: 0 }), 1);
  assert.equal(added.length, 1);
  assert.equal(setup(undefined).intake.hello({ tabId: 5, frameId: 0 }).tracked, false);
});

test("each stream gets the tab id under the daemon's field name; unknown streams are ignored", () => {
  const { intake, added, drops } = setup(5);
  intake.receive(
    {
      entries: [
        { stream: "logs", entry: { message: "a" } },
        { stream: "bodies", entry: { url: "/x" } },
        { stream: "websocket", entry: { event: "open" } },
        { stream: "vitals", entry: { url: "/" } },
        { stream: "actions", entry: { type: "click" } },
        { stream: "secrets", entry: { x: 1 } },
        { stream: "logs", entry: "not an object" },
      ],
      dropped: 7,
    },
    { tabId: 5, frameId: 0 },
  );
  assert.deepEqual(added, [
    ["logs", { message: "a", tabId: 5 }],
    ["bodies", { url: "/x", tab_id: 5 }],
    ["websocket", { event: "open", tabId: 5 }],
    ["vitals", { url: "/", tabId: 5 }],
    ["actions", { type: "click" }],
  ]);
  assert.equal(drops(), 7);
});
