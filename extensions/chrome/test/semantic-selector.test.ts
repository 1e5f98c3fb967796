import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPageScripts } from "./helpers/page-scripts.js";

const parts = loadPageScripts(["page/toolkit/semantic-selector.js"]);
const parse = (selector: string) => JSON.parse(JSON.stringify(parts.parseSemanticSelector(selector)));

test("plain CSS stays CSS, including selectors that contain '='", () => {
  assert.deepEqual(parse("#submit"), { kind: "css", css: "#submit" });
  assert.deepEqual(parse(' a[href="x=y"] '), { kind: "css", css: 'a[href="x=y"]' });
  assert.deepEqual(parse("input[name=email]"), { kind: "css", css: "input[name=email]" });
  assert.deepEqual(parse("textarea"), { kind: "css", css: "textarea" });
});

test("text=, placeholder=, label=, aria-label= take the rest as the value; unquoted means substring", () => {
  assert.deepEqual(parse("text=Submit"), { kind: "text", value: "Submit", exact: false });
  assert.deepEqual(parse("text = Sign in "), { kind: "text", value: "Sign in", exact: false });
  assert.deepEqual(parse("placeholder=Email"), { kind: "placeholder", value: "Email", exact: false });
  assert.deepEqual(parse("label=Full name"), { kind: "label", value: "Full name", exact: false });
  assert.deepEqual(parse("aria-label=Close"), { kind: "aria-label", value: "Close", exact: false });
  assert.deepEqual(parse("TEXT=ok"), { kind: "text", value: "ok", exact: false });
});

test("a quoted value means an exact match, with escaped quotes", () => {
  assert.deepEqual(parse('text="Save"'), { kind: "text", value: "Save", exact: true });
  assert.deepEqual(parse("aria-label='Close dialog'"), { kind: "aria-label", value: "Close dialog", exact: true });
  assert.deepEqual(parse('text="Say \\"hi\\""'), { kind: "text", value: 'Say "hi"', exact: true });
});

test("role= takes a role and an optional [name=…]", () => {
  assert.deepEqual(parse("role=button"), { kind: "role", role: "button", exact: false });
  assert.deepEqual(parse("role=Button"), { kind: "role", role: "button", exact: false });
  assert.deepEqual(parse('role=button[name="Save"]'), { kind: "role", role: "button", name: "Save", exact: true });
  assert.deepEqual(parse("role=link[name=docs]"), { kind: "role", role: "link", name: "docs", exact: false });
});
