// The smoke checks of interact's storage writes and page-level actions, on a page of their own:
// storage and cookie writes read back, paste, the subtitle bar, dismissing and confirming overlays,
// element_id / index from list_interactive, and scope_selector. Params are sent as the daemon sends
// them: the MCP arguments with `what` and `action` set to the mode.

export const INTERACT_PAGE = `<!doctype html><html><head><title>devconsole interact</title>
<style>
  /* A page that would hide or shrink the subtitle bar if it could reach it. */
  mcpkit-devconsole-subtitle { display: none; }
  div { font-size: 2px !important; color: red !important; }
  .backdrop { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.4); z-index: 1040; }
  .modal { position: fixed; top: 20%; left: 25%; width: 50%; background: #fff; z-index: 1050; padding: 16px; }
  #esc-panel { position: fixed; inset: 10%; z-index: 500; background: #eee; }
  [hidden] { display: none !important; }
</style></head>
<body><main><h1>Interact</h1>
<button id="count" onclick="this.textContent = 'count ' + (++window.counted)">count 0</button>
<button id="remove-me">Remove me</button>
<section id="left"><button onclick="window.side = 'left'">Go</button></section>
<section id="right"><button onclick="window.side = 'right'">Go</button></section>
<input id="paste-target" placeholder="Paste here"> <input id="paste-upper" placeholder="Upper">
<p id="editor" contenteditable="true">Hello</p>
<button id="open-modal" onclick="backdrop.hidden = false; modal.hidden = false">Open modal</button>
</main>
<div class="backdrop" id="backdrop" hidden></div>
<div class="modal" id="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" hidden>
  <h2 id="modal-title">Subscribe?</h2>
  <button type="button" class="btn-close" aria-label="Close" onclick="closeModal('closed')"></button>
  <button type="button" onclick="closeModal('cancelled')">Cancel</button>
  <button type="button" class="btn-primary" onclick="closeModal('confirmed')">Yes, subscribe</button>
</div>
<div id="esc-panel" hidden>Press Escape to close this panel. <a href="#help">Help</a></div>
<dialog id="native"><p>Proceed?</p><form method="dialog"><button value="no">No</button> <button value="yes">Proceed</button></form></dialog>
<script>
window.counted = 0; window.modalResult = ""; window.pasteEvents = []; window.escaped = false;
function closeModal(result) { window.modalResult = result; backdrop.hidden = true; modal.hidden = true; }
document.getElementById("remove-me").onclick = (event) => event.target.remove();
document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !document.getElementById("esc-panel").hidden) { document.getElementById("esc-panel").hidden = true; window.escaped = true; } });
const target = document.getElementById("paste-target");
target.addEventListener("paste", (event) => window.pasteEvents.push(event.clipboardData?.getData("text/plain")));
target.addEventListener("input", (event) => (window.lastInputType = event.inputType));
document.getElementById("paste-upper").addEventListener("paste", (event) => { event.preventDefault(); event.target.value = event.clipboardData.getData("text/plain").toUpperCase(); });
</script></body></html>`;

const STORAGE_MODES = new Set(["set_storage", "delete_storage", "clear_storage", "set_cookie", "delete_cookie"]);

/** One interact mode as the daemon sends it; "storage_read" is observe({what: "storage"}), which sends no action. */
function interact(run, mode, params = {}) {
  if (mode === "storage_read") return run("storage", { ...params, what: "storage" });
  return run(STORAGE_MODES.has(mode) ? "storage" : "dom_action", { ...params, what: mode, action: mode });
}
const brief = (result) => JSON.stringify(result.result ?? {}).slice(0, 240);

async function storageChecks({ page, check, run }) {
  const first = await interact(run, "set_storage", { key: "smoke-key", value: "v1" });
  const second = await interact(run, "set_storage", { key: "smoke-key", value: "v2" });
  const read = await interact(run, "storage_read", {});
  check(
    "set_storage writes localStorage (previous_value reported) and observe's read sees it",
    first.status === "complete" && first.result.previous_value === null && second.result.previous_value === "v1" &&
      read.result.local_storage?.items?.["smoke-key"] === "v2" && (await page.evaluate(() => localStorage.getItem("smoke-key"))) === "v2",
    brief(second),
  );
  await interact(run, "set_storage", { key: "s", value: "session value", storage_type: "sessionStorage" });
  const deleted = await interact(run, "delete_storage", { key: "smoke-key" });
  const cleared = await interact(run, "clear_storage", { storage_type: "sessionStorage" });
  check(
    "delete_storage and clear_storage remove what the page sees",
    deleted.result.previous_value === "v2" && cleared.result.removed_count === 1 &&
      (await page.evaluate(() => [localStorage.getItem("smoke-key"), sessionStorage.length])).join() === ",0",
    `${brief(deleted)} ${brief(cleared)}`,
  );
  const missing = await interact(run, "set_storage", { value: "x" });
  check("set_storage without key is missing_key naming the field", missing.error === "missing_key" && missing.result.field === "key", missing.result.message);

  const set = await interact(run, "set_cookie", { name: "smoke_cookie", value: "c1" });
  const cookies = await interact(run, "storage_read", { storage_type: "cookies" });
  check(
    "set_cookie sets a cookie the page and observe's read both see",
    set.result.verified === true && cookies.result.cookies?.smoke_cookie === "c1" && (await page.evaluate(() => document.cookie)).includes("smoke_cookie=c1"),
    brief(set),
  );
  const unset = await interact(run, "delete_cookie", { name: "smoke_cookie" });
  check("delete_cookie removes it", unset.result.previous_value === "c1" && !(await page.evaluate(() => document.cookie)).includes("smoke_cookie"), brief(unset));
  const foreign = await interact(run, "set_cookie", { name: "x", value: "1", domain: "other.test" });
  check("set_cookie for another site is refused", foreign.error === "invalid_domain", foreign.result.message);
}

async function pasteAndSubtitleChecks({ page, check, run }) {
  const pasted = await interact(run, "paste", { selector: "#paste-target", text: "hello paste" });
  check(
    "paste dispatches a paste event with the text, then inserts it as typing would",
    pasted.result.inserted === true && (await page.inputValue("#paste-target")) === "hello paste" &&
      (await page.evaluate(() => window.pasteEvents.join("|"))) === "hello paste" && (await page.evaluate(() => window.lastInputType)) === "insertText",
    brief(pasted),
  );
  const handled = await interact(run, "paste", { selector: "placeholder=Upper", text: "shout" });
  check("a paste the page handles itself is left to the page", handled.result.handled_by_page === true && handled.result.inserted === false && (await page.inputValue("#paste-upper")) === "SHOUT", brief(handled));
  await interact(run, "focus", { selector: "#editor" });
  const focused = await interact(run, "paste", { text: " world" });
  check("paste without a selector goes to the focused element (contenteditable)", focused.result.inserted === true && (await page.textContent("#editor")).includes("world"), brief(focused));

  const shown = await interact(run, "subtitle", { text: "Narrating the smoke test" });
  const bar = await page.evaluate(() => {
    const host = document.querySelector("mcpkit-devconsole-subtitle");
    const rect = host?.getBoundingClientRect();
    return host && { height: rect.height, bottom: rect.bottom, innerHeight, display: getComputedStyle(host).display, pageCanReachInside: host.shadowRoot !== null };
  });
  check(
    "subtitle shows a bar at the bottom that the page's CSS and scripts cannot touch",
    shown.result.shown === true && bar && bar.display === "block" && bar.height >= 35 && bar.bottom === bar.innerHeight && !bar.pageCanReachInside,
    JSON.stringify(bar),
  );
  const none = await interact(run, "dismiss_top_overlay", {});
  check("with only the subtitle on screen there is no overlay to dismiss", none.error === "no_overlay", none.result.message);
  const cleared = await interact(run, "subtitle", { text: "" });
  check("an empty subtitle removes the bar", cleared.result.shown === false && (await page.evaluate(() => document.querySelector("mcpkit-devconsole-subtitle"))) === null);
}

async function overlayChecks({ page, check, run }) {
  await interact(run, "click", { selector: "#open-modal" });
  const dismissed = await interact(run, "dismiss_top_overlay", {});
  check(
    "dismiss_top_overlay picks the modal over its backdrop and clicks its close button",
    dismissed.result.dismissed === true && dismissed.result.method === "close_button" && dismissed.result.selector === "#modal" &&
      (await page.evaluate(() => window.modalResult)) === "closed",
    brief(dismissed),
  );
  await interact(run, "click", { selector: "#open-modal" });
  const confirmed = await interact(run, "confirm_top_dialog", {});
  check(
    "confirm_top_dialog clicks the confirming button",
    confirmed.result.confirmed === true && confirmed.result.button?.name === "Yes, subscribe" && confirmed.result.closed === true &&
      (await page.evaluate(() => window.modalResult)) === "confirmed",
    brief(confirmed),
  );
  await page.evaluate(() => (document.getElementById("esc-panel").hidden = false));
  const escaped = await interact(run, "dismiss_top_overlay", {});
  check("an overlay without a close button is dismissed with Escape", escaped.result.method === "escape" && escaped.result.dismissed === true && (await page.evaluate(() => window.escaped)), brief(escaped));
  await page.evaluate(() => document.getElementById("native").showModal());
  const native = await interact(run, "confirm_top_dialog", {});
  check(
    "confirm_top_dialog on a modal <dialog> submits its form with the affirmative button",
    native.result.button?.name === "Proceed" && (await page.evaluate(() => [document.getElementById("native").open, document.getElementById("native").returnValue].join())) === "false,yes",
    brief(native),
  );
}

async function targetingChecks({ page, check, run }) {
  const listed = await interact(run, "list_interactive", {});
  const count = listed.result.elements?.find((element) => element.selector === "#count");
  const byId = await interact(run, "click", { element_id: count?.element_id });
  const byIndex = await interact(run, "click", { index: count?.index });
  check(
    "list_interactive gives element_id and index; click by each reaches that element",
    /^el-/.test(count?.element_id ?? "") && byId.status === "complete" && byIndex.status === "complete" && (await page.textContent("#count")) === "count 2",
    `${count?.element_id} / index ${count?.index}`,
  );
  const again = await interact(run, "list_interactive", {});
  check("the same element keeps its element_id in a new listing", again.result.elements?.find((element) => element.selector === "#count")?.element_id === count?.element_id);
  const removable = again.result.elements?.find((element) => element.selector === "#remove-me");
  await interact(run, "click", { element_id: removable?.element_id });
  const stale = await interact(run, "click", { element_id: removable?.element_id });
  check("a handle whose element is gone is element_not_found, saying to list again", stale.error === "element_not_found" && /list_interactive again/.test(stale.result.message), stale.result.message);
  const scoped = await interact(run, "click", { selector: "text=Go", scope_selector: "#right" });
  const scopedList = await interact(run, "list_interactive", { scope_selector: "#left" });
  check(
    "scope_selector limits selector lookups and list_interactive to its container",
    scoped.status === "complete" && (await page.evaluate(() => window.side)) === "right" && scopedList.result.count === 1,
    `clicked ${await page.evaluate(() => window.side)}, ${scopedList.result.count} listed in #left`,
  );
  await page.reload();
  const afterReload = await interact(run, "click", { element_id: count?.element_id });
  check("a handle from before a reload is element_not_found", afterReload.error === "element_not_found" && /does not come from this page/.test(afterReload.result.message), afterReload.result.message);
}

/** run(type, params) sends one command to the extension and resolves with its command_result. */
export async function runInteractChecks(context) {
  await storageChecks(context);
  await pasteAndSubtitleChecks(context);
  await overlayChecks(context);
  await targetingChecks(context);
}
