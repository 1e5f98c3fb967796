import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPageScripts } from "./helpers/page-scripts.js";

const parts = loadPageScripts(["page/toolkit/overlay-ranking.js"]);

interface Overlay {
  role: string;
  ariaModal: boolean;
  openDialog: boolean;
  position: string;
  zPath: number[];
  coverage: number;
  hits: number;
  visible: boolean;
  containsMain: boolean;
  order: number;
}

/** A plain, visible, non-dialog element; each test says what makes it different. */
const element = (fields: Partial<Overlay>): Overlay => ({
  role: "",
  ariaModal: false,
  openDialog: false,
  position: "static",
  zPath: [],
  coverage: 0.1,
  hits: 0,
  visible: true,
  containsMain: false,
  order: 0,
  ...fields,
});
const rank = (candidates: Overlay[]): number[] => Array.from(parts.rankOverlays(candidates) as number[]);
const button = (name: string, fields: { hints?: string; isSubmit?: boolean; isLink?: boolean } = {}) => ({
  name,
  hints: fields.hints ?? "",
  isSubmit: fields.isSubmit ?? false,
  isLink: fields.isLink ?? false,
});

test("dialogs count by role, aria-modal or <dialog open>, whatever their size; hidden ones never", () => {
  assert.equal(parts.isOverlay(element({ role: "dialog", coverage: 0.02 })), true);
  assert.equal(parts.isOverlay(element({ role: "alertdialog" })), true);
  assert.equal(parts.isOverlay(element({ ariaModal: true })), true);
  assert.equal(parts.isOverlay(element({ openDialog: true })), true);
  assert.equal(parts.isOverlay(element({ role: "dialog", visible: false })), false);
  assert.equal(parts.isOverlay(element({ role: "dialog", coverage: 0 })), false, "scrolled out of the viewport");
  assert.equal(parts.isOverlay(element({})), false);
});

test("a plain element counts only when positioned, stacked high, large, on top somewhere, and not the app shell", () => {
  const layer = { position: "fixed", zPath: [1000], coverage: 0.6, hits: 5 };
  assert.equal(parts.isOverlay(element(layer)), true);
  assert.equal(parts.isOverlay(element({ ...layer, position: "relative" })), false);
  assert.equal(parts.isOverlay(element({ ...layer, zPath: [5] })), false, "z below 10 is page layout");
  assert.equal(parts.isOverlay(element({ ...layer, coverage: 0.1 })), false, "a fixed header is not an overlay");
  assert.equal(parts.isOverlay(element({ ...layer, hits: 0 })), false, "painted over by something else everywhere");
  assert.equal(parts.isOverlay(element({ ...layer, containsMain: true })), false, "a fixed app shell contains <main>");
  assert.equal(parts.isOverlay(element({ ...layer, position: "absolute", coverage: 0.3 })), false, "absolute needs half the viewport");
  assert.equal(parts.isOverlay(element({ ...layer, position: "absolute", coverage: 0.8 })), true);
});

test("the highest stacking wins; levels compare from the outermost context", () => {
  // Neither is a dialog by markup; the layer stacked higher wins although its sibling is hit more often and comes later.
  const modal = element({ position: "fixed", zPath: [1050], coverage: 0.3, hits: 1, order: 1 });
  const backdrop = element({ position: "fixed", zPath: [1040], coverage: 1, hits: 8, order: 2 });
  assert.deepEqual(rank([modal, backdrop]), [0, 1], "the modal (1050) is above its backdrop (1040)");
  // A z 9999 toast inside a z 1 container stays below a top-level z 50 modal, even with more hits.
  const toast = element({ role: "alertdialog", position: "fixed", zPath: [1, 9999], coverage: 0.05, hits: 3, order: 3 });
  const topModal = element({ role: "dialog", position: "fixed", zPath: [50], coverage: 0.4, hits: 2, order: 1 });
  assert.deepEqual(rank([toast, topModal]), [1, 0]);
});

test("a dialog inside its backdrop ranks above the backdrop; ties go to dialogs, then hits, coverage, later in the document", () => {
  const backdrop = element({ position: "fixed", zPath: [1000], coverage: 1, hits: 9, order: 0 });
  const inner = element({ role: "dialog", position: "relative", zPath: [1000], coverage: 0.3, hits: 1, order: 1 });
  assert.deepEqual(rank([backdrop, inner]), [1, 0], "same stacking level: the dialog");
  const innerWithZ = element({ position: "absolute", zPath: [1000, 1], coverage: 0.6, hits: 3, order: 1 });
  assert.deepEqual(rank([backdrop, innerWithZ]), [1, 0], "its own z inside the backdrop's context puts it above");
  const first = element({ role: "dialog", order: 0 });
  const second = element({ role: "dialog", order: 1 });
  assert.deepEqual(rank([first, second]), [1, 0], "later in the document paints on top");
  const moreHits = element({ role: "dialog", hits: 3, order: 0 });
  assert.deepEqual(rank([moreHits, second]), [0, 1]);
});

test("close buttons: close, dismiss and × first, then declines, then unlabelled close-styled icons; never 'Close account'", () => {
  assert.equal(parts.closeButtonScore(button("Close")), 3);
  assert.equal(parts.closeButtonScore(button(" × ")), 3);
  assert.equal(parts.closeButtonScore(button("Close dialog")), 3);
  assert.equal(parts.closeButtonScore(button("Dismiss notification.")), 3);
  assert.equal(parts.closeButtonScore(button("Cancel")), 2);
  assert.equal(parts.closeButtonScore(button("No thanks")), 2);
  assert.equal(parts.closeButtonScore(button("", { hints: "btn-close" })), 2);
  assert.equal(parts.closeButtonScore(button("", { hints: "icon data-dismiss" })), 2);
  assert.equal(parts.closeButtonScore(button("No")), 1);
  assert.equal(parts.closeButtonScore(button("Close account")), 0);
  assert.equal(parts.closeButtonScore(button("Cancel subscription")), 0);
  assert.equal(parts.closeButtonScore(button("Closed captions")), 0);
  assert.equal(parts.closeButtonScore(button("Save", { hints: "close" })), 0, "a labelled button is judged by its label");
  assert.equal(parts.pickCloseButton([button("Cancel"), button("OK"), button("×")]), 2);
  assert.equal(parts.pickCloseButton([button("OK"), button("Learn more")]), -1);
});

test("confirm buttons: affirmative labels, then the form's submit; refusals and ways out never", () => {
  assert.equal(parts.pickConfirmButton([button("Cancel"), button("OK")]), 1);
  assert.equal(parts.pickConfirmButton([button("Yes, delete it"), button("No")]), 0);
  assert.equal(parts.pickConfirmButton([button("Accept all cookies"), button("Reject all")]), 0);
  assert.equal(parts.pickConfirmButton([button("Accept"), button("Continue without accepting")]), 0);
  assert.equal(parts.pickConfirmButton([button("×"), button("Continue without accepting")]), -1);
  assert.equal(parts.pickConfirmButton([button("×"), button("Send message", { isSubmit: true })]), 1);
  assert.equal(parts.pickConfirmButton([button("Continue"), button("Confirm order", { hints: "btn btn-primary" })]), 1, "the primary-styled one among equals");
  assert.equal(parts.pickConfirmButton([button("OK"), button("Done")]), 1, "equals: the last, where footers put the affirmative");
  assert.equal(parts.pickConfirmButton([button("Cancel")]), -1);
  assert.equal(parts.pickConfirmButton([button("Reject all"), button("Decline")]), -1);
});

test("with no labelled match, the single remaining button beside a way out confirms; a link never does", () => {
  assert.equal(parts.pickConfirmButton([button("Cancel"), button("Delete")]), 1);
  assert.equal(parts.pickConfirmButton([button("×"), button("Learn more", { isLink: true })]), -1);
  assert.equal(parts.pickConfirmButton([button("Delete"), button("Archive")]), -1, "two candidates and no way out: ambiguous");
  assert.equal(parts.pickConfirmButton([button("Cancel"), button("Delete"), button("Archive")]), -1, "two candidates: ambiguous");
});
