/**
 * Messages the popup and options page send to the worker with chrome.runtime.sendMessage.
 * The worker accepts them only from extension pages, never from content scripts, so a page
 * cannot track itself.
 */
export type ExtensionPageRequest =
  | { kind: "status" }
  | { kind: "track-tab"; tabId: number }
  | { kind: "untrack" };

/** Content scripts are compiled as classic scripts and cannot import this; src/page/page-parts.d.ts repeats these shapes. */
export type ContentScriptRequest =
  | { kind: "capture-hello" }
  | { kind: "telemetry"; entries: Array<{ stream: string; entry: Record<string, unknown> }>; dropped: number };

export interface CaptureHelloAnswer {
  tracked: boolean;
}

export type ContentScriptNotice = { kind: "tracking-changed"; tracked: boolean };
