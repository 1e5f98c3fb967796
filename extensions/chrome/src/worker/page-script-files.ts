/**
 * The compiled page scripts, in load order. The build writes the manifest's content_scripts from
 * these lists (scripts/copy-static.mjs), and the worker injects the same files into tabs that were
 * open before the extension loaded, so the two can never disagree.
 */

/** MAIN world, document_start: the capture hooks. main-world-entry.js must come last: it installs what the others registered. */
export const MAIN_WORLD_CAPTURE_FILES = [
  "page/transport-serializer.js",
  "page/console-message-format.js",
  "page/main/console-capture.js",
  "page/main/network-capture.js",
  "page/main/websocket-capture.js",
  "page/main/main-world-entry.js",
];

/** Isolated world, document_start: action and vitals capture and the bridge to the worker (last). */
export const ISOLATED_CAPTURE_FILES = [
  "page/element-description.js",
  "page/isolated/user-action-capture.js",
  "page/isolated/web-vitals-capture.js",
  "page/isolated/content-bridge.js",
];

/** Isolated world, injected on the first command: the DOM commands. */
export const TOOLKIT_FILES = [
  "page/element-description.js",
  "page/toolkit/semantic-selector.js",
  "page/toolkit/element-handles.js",
  "page/toolkit/element-input.js",
  "page/toolkit/key-press.js",
  "page/toolkit/dom-actions.js",
  "page/toolkit/paste-action.js",
  "page/toolkit/subtitle-bar.js",
  "page/toolkit/overlay-ranking.js",
  "page/toolkit/top-overlay.js",
  "page/toolkit/interactive-listing.js",
  "page/toolkit/readable-content.js",
  "page/toolkit/accessibility-snapshot.js",
  "page/toolkit/page-inspection.js",
  "page/toolkit/form-discovery.js",
  "page/toolkit/storage-writes.js",
  "page/toolkit/page-command-dispatch.js",
];

/** Injected into the MAIN world right before an `execute`, for the result's serialization. */
export const SERIALIZER_FILE = "page/transport-serializer.js";
