import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPageScripts } from "./helpers/page-scripts.js";

/** Stand-ins for DOM elements: element-handles.js only asks whether they are still in the document. */
const fakeElement = (name: string) => ({ name, isConnected: true });

function load() {
  const parts = loadPageScripts(["page/toolkit/element-handles.js"]);
  const bySelector = new Map<string, object>();
  parts.findElements = (selector: string) => (bySelector.has(selector) ? [bySelector.get(selector)] : []);
  return { parts, bySelector };
}

test("an element keeps one handle across listings; handles of different elements differ", () => {
  const { parts } = load();
  const save = fakeElement("save");
  const cancel = fakeElement("cancel");
  const first = parts.elementHandleFor(save);
  assert.match(first, /^el-[0-9a-z]{4}-\d+$/);
  assert.equal(parts.elementHandleFor(save), first);
  assert.notEqual(parts.elementHandleFor(cancel), first);
});

test("element_id comes before index, which comes before selector", () => {
  const { parts, bySelector } = load();
  const [a, b, c] = [fakeElement("a"), fakeElement("b"), fakeElement("c")];
  bySelector.set("#c", c);
  parts.rememberListing([a, b]);
  const idOfA = parts.elementHandleFor(a);
  assert.equal(parts.findTarget({ element_id: idOfA, index: 1, selector: "#c" }, {}), a);
  assert.equal(parts.findTarget({ index: 1, selector: "#c" }, {}), b);
  assert.equal(parts.findTarget({ index: "1" }, {}), b, "a numeric string is an index too");
  assert.equal(parts.findTarget({ element_id: "", index: null, selector: "#c" }, {}), c, "empty values do not count");
});

test("a handle whose element left the page is stale: element_not_found saying to list again", () => {
  const { parts } = load();
  const gone = fakeElement("gone");
  const id = parts.elementHandleFor(gone);
  parts.rememberListing([gone]);
  gone.isConnected = false;
  for (const target of [{ element_id: id }, { index: 0 }]) {
    const answer = parts.findTarget(target, {});
    assert.equal(answer.ok, false);
    assert.equal(answer.error, "element_not_found");
    assert.match(answer.message, /list_interactive again/);
    assert.equal(answer.details.stale, true);
  }
});

test("handles from another page, indexes past the list, and indexes before any list are element_not_found", () => {
  const { parts } = load();
  const other = load().parts;
  const foreign = other.elementHandleFor(fakeElement("elsewhere"));
  const answer = parts.findTarget({ element_id: foreign }, {});
  assert.equal(answer.error, "element_not_found");
  assert.match(answer.message, /does not come from this page/);
  assert.match(parts.findTarget({ index: 0 }, {}).message, /no list_interactive result on this page/);
  parts.rememberListing([fakeElement("only")]);
  assert.match(parts.findTarget({ index: 3 }, {}).message, /has 1 elements; index 3/);
});

test("a malformed index is invalid_index; no target at all is missing_selector; an unmatched selector names it", () => {
  const { parts } = load();
  for (const index of [-1, 1.5, "two", true]) assert.equal(parts.findTarget({ index }, {}).error, "invalid_index", String(index));
  assert.equal(parts.findTarget({}, {}).error, "missing_selector");
  const missing = parts.findTarget({ selector: "#nope" }, {});
  assert.equal(missing.error, "element_not_found");
  assert.equal(missing.details.selector, "#nope");
  assert.equal(parts.hasTarget({ index: 0 }), true);
  assert.equal(parts.hasTarget({ selector: " " }), false);
  assert.equal(parts.describeTarget({ element_id: "el-abcd-1", selector: "#x" }), 'element_id "el-abcd-1"');
});
