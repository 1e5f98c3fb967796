import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPageScripts } from "./helpers/page-scripts.js";

const parts = loadPageScripts(["page/transport-serializer.js", "page/console-message-format.js"]);
const serialize = parts.serializeForTransport as (value: unknown, limits?: Record<string, number>) => unknown;
const format = parts.formatConsoleMessage as (args: unknown[]) => string;

/** The serializer runs in its own V8 context; compare through JSON to ignore realm differences. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

test("primitives pass through; what JSON cannot hold becomes a string or null", () => {
  assert.equal(serialize("hi"), "hi");
  assert.equal(serialize(3.5), 3.5);
  assert.equal(serialize(true), true);
  assert.equal(serialize(null), null);
  assert.equal(serialize(undefined), null);
  assert.equal(serialize(Number.NaN), "NaN");
  assert.equal(serialize(-Infinity), "-Infinity");
  assert.equal(serialize(10n), "10n");
  assert.equal(serialize(Symbol("tag")), "Symbol(tag)");
  assert.equal(serialize(-0), 0);
});

test("long strings are capped with a marker saying how much was cut", () => {
  const text = serialize("x".repeat(9000)) as string;
  assert.ok(text.startsWith("x".repeat(8192)));
  assert.match(text, /…\[truncated 808 chars\]$/);
  assert.equal((serialize("y".repeat(50), { maxStringLength: 10 }) as string).slice(0, 10), "y".repeat(10));
});

test("cycles become [Circular], but a shared non-cyclic object is shown twice", () => {
  const node: Record<string, unknown> = { name: "root" };
  node.self = node;
  const shared = { value: 1 };
  assert.deepEqual(plain(serialize(node)), { name: "root", self: "[Circular]" });
  assert.deepEqual(plain(serialize({ a: shared, b: shared })), { a: { value: 1 }, b: { value: 1 } });
  const list: unknown[] = [1];
  list.push(list);
  assert.deepEqual(plain(serialize(list)), [1, "[Circular]"]);
});

test("DOM-like elements are described as <tag#id.classes>", () => {
  const element = { nodeType: 1, nodeName: "DIV", tagName: "DIV", id: "main", className: "card  wide" };
  assert.equal(serialize(element), "<div#main.card.wide>");
  const withAttributes = { nodeType: 1, nodeName: "svg", tagName: "svg", id: "", getAttribute: (name: string) => (name === "class" ? "icon" : null) };
  assert.equal(serialize(withAttributes), "<svg.icon>");
  assert.equal(serialize({ nodeType: 3, nodeName: "#text", textContent: "hello" }), '#text "hello"');
  assert.equal(serialize({ nodeType: 9, nodeName: "#document" }), "#document");
  assert.deepEqual(plain(serialize([element])), ["<div#main.card.wide>"]);
});

test("errors keep name, message and stack", () => {
  const error = new TypeError("bad thing");
  const serialized = serialize(error) as Record<string, string>;
  assert.equal(serialized.name, "TypeError");
  assert.equal(serialized.message, "bad thing");
  assert.match(serialized.stack ?? "", /TypeError: bad thing/);
});

test("functions, dates, regexps, maps and sets are summarized", () => {
  assert.equal(serialize(function handleClick() {}), "[Function handleClick]");
  assert.equal(serialize(() => 1), "[Function (anonymous)]");
  assert.equal(serialize(new Date("2026-01-02T03:04:05.000Z")), "2026-01-02T03:04:05.000Z");
  assert.equal(serialize(/ab+c/gi), "/ab+c/gi");
  assert.deepEqual(plain(serialize(new Map<unknown, unknown>([["a", 1], [{ k: 1 }, [2]]]))), { "[Map]": 2, entries: [["a", 1], [{ k: 1 }, [2]]] });
  assert.deepEqual(plain(serialize(new Set([1, "two"]))), { "[Set]": 2, values: [1, "two"] });
  assert.equal(serialize(Promise.resolve(1)), "[Promise]");
  assert.equal(serialize(new Uint8Array(16)), "[Uint8Array(16)]");
  assert.equal(serialize(new ArrayBuffer(8)), "[ArrayBuffer 8 bytes]");
});

test("a getter that throws reads as [Unreadable]; a hostile proxy does not break serialization", () => {
  const object = {
    fine: 1,
    get broken(): number {
      throw new Error("nope");
    },
  };
  assert.deepEqual(plain(serialize(object)), { fine: 1, broken: "[Unreadable]" });
  const proxy = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error("no keys for you");
      },
    },
  );
  assert.equal(serialize(proxy), "[Unreadable]");
  assert.deepEqual(plain(serialize({ inner: proxy })), { inner: "[Unreadable]" });
});

test("depth is capped at 4 levels", () => {
  const deep = { l1: { l2: { l3: { l4: { l5: 1 } } } }, list: [[[[[1]]]]] };
  assert.deepEqual(plain(serialize(deep)), { l1: { l2: { l3: { l4: "[Object]" } } }, list: [[["[Array(1)]"]]] });
});

test("objects and arrays are capped at 100 keys / items, saying how many more there were", () => {
  const wide: Record<string, number> = {};
  for (let index = 0; index < 150; index++) wide[`k${index}`] = index;
  const serialized = serialize(wide) as Record<string, unknown>;
  assert.equal(Object.keys(serialized).length, 101);
  assert.equal(serialized["…"], "50 more keys");
  const list = serialize(Array.from({ length: 130 }, (_, index) => index)) as unknown[];
  assert.equal(list.length, 101);
  assert.equal(list[100], "… 30 more items");
});

test("the total number of values visited is bounded", () => {
  const rows = Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, index) => index));
  const serialized = JSON.stringify(serialize(rows));
  assert.ok(serialized.includes("[Truncated]"));
  assert.ok(serialized.length < 20_000, `bounded output, got ${serialized.length} chars`);
});

test("the console message joins the arguments like DevTools, and applies format directives", () => {
  assert.equal(format(["probe: hello from page", { n: 1 }]), 'probe: hello from page {"n":1}');
  assert.equal(format(["%s has %d items (%i%%)", "cart", 3.7, "42"]), "cart has 3 items (42%)");
  assert.equal(format(["%cstyled", "color: red", "tail"]), "styled tail");
  assert.equal(format(["value %o", [1, 2]]), "value [1,2]");
  assert.equal(format([1, null, true]), "1 null true");
  assert.equal(format([]), "");
  assert.match(format(["z".repeat(10_000)]), /…\[truncated\]$/);
});
