/**
 * Page code runs as classic scripts (content scripts and chrome.scripting files cannot be ES
 * modules), so its files cannot import each other. Each file registers what it offers on one
 * object, `__mcpkitDevconsoleParts`, in the world it runs in. In the isolated world that object is
 * private to the extension; in the page's MAIN world the entry script removes it once the hooks are
 * installed, so the page never sees it.
 */

type TelemetryStream = "logs" | "websocket" | "bodies" | "actions" | "vitals";

interface SerializeLimits {
  maxDepth: number;
  maxKeys: number;
  maxStringLength: number;
  maxNodes: number;
}

/** Shared by the capture installers: how they hand entries on and whether anyone wants them. */
interface CaptureContext {
  emit(stream: TelemetryStream, entry: Record<string, unknown>): void;
  isCapturing(): boolean;
}

interface MainWorldCaptureContext extends CaptureContext {
  serialize(value: unknown, limits?: Partial<SerializeLimits>): unknown;
  formatMessage(serializedArgs: unknown[]): string;
}

interface ElementSummary {
  id?: string;
  cssPath: string;
  text?: string;
  role?: { role: string; name: string };
}

type SemanticSelector =
  | { kind: "css"; css: string }
  | { kind: "text" | "placeholder" | "label" | "aria-label"; value: string; exact: boolean }
  | { kind: "role"; role: string; name?: string; exact: boolean };

/** What page-side commands answer: plain data on success, an error code and message otherwise. */
type PageCommandAnswer =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string; message: string; details?: Record<string, unknown> };

type FailedPageAnswer = Extract<PageCommandAnswer, { ok: false }>;

/** What overlay-ranking.ts needs to know about one overlay candidate; gathered by top-overlay.ts. */
interface OverlayDescription {
  /** Explicit `role` attribute, lowercased ("" when absent). */
  role: string;
  ariaModal: boolean;
  /** An open <dialog>. */
  openDialog: boolean;
  /** Computed `position`. */
  position: string;
  /** Numeric z-indexes of the positioned ancestors-or-self that set one, outermost first. */
  zPath: number[];
  /** Fraction of the viewport the element's box covers, 0..1. */
  coverage: number;
  /** Sample points of the viewport where this element or a descendant is the topmost element. */
  hits: number;
  visible: boolean;
  /** Contains <main> or [role=main]: an app shell, not something laid over the page. */
  containsMain: boolean;
  /** Position in document order; later elements paint over earlier ones at equal z. */
  order: number;
}

/** What overlay-ranking.ts needs to know about a button inside an overlay. */
interface OverlayButtonDescription {
  /** Accessible name (aria-label, text, value, title). */
  name: string;
  /** Class names and dismiss-like attributes, for icon-only buttons. */
  hints: string;
  /** Submits the form it belongs to. */
  isSubmit: boolean;
  /** A link rather than a button: never taken as the confirming button just for being the only one left. */
  isLink: boolean;
}

interface DevconsolePageParts {
  // transport-serializer.ts, console-message-format.ts
  serializeForTransport(value: unknown, limits?: Partial<SerializeLimits>): unknown;
  formatConsoleMessage(serializedArgs: unknown[]): string;

  // main/*.ts (MAIN world, removed after installation)
  installConsoleCapture(context: MainWorldCaptureContext): void;
  installNetworkCapture(context: MainWorldCaptureContext): void;
  installWebSocketCapture(context: MainWorldCaptureContext): void;

  // isolated/*.ts (isolated world)
  contentBridgeStarted: boolean;
  installUserActionCapture(context: CaptureContext): void;
  installWebVitalsCapture(context: CaptureContext): void;

  // element-description.ts
  cssPathFor(element: Element): string;
  implicitRole(element: Element): string;
  accessibleName(element: Element): string;
  isVisible(element: Element): boolean;
  summarizeElement(element: Element): ElementSummary;
  visibleText(element: Element, maxLength: number): string;

  // toolkit/element-handles.ts
  elementHandleFor(element: Element): string;
  rememberListing(elements: Element[]): void;
  findTarget(target: Record<string, unknown>, scope: ParentNode): Element | FailedPageAnswer;
  hasTarget(target: Record<string, unknown>): boolean;
  describeTarget(target: Record<string, unknown>): string;

  // toolkit/element-input.ts
  clickElement(element: Element): void;
  setElementValue(element: Element, value: string): boolean;
  currentValue(element: Element): string;
  isSensitive(element: Element): boolean;

  // toolkit/key-press.ts
  isSupportedKey(keyName: string): boolean;
  supportedKeys(): string[];
  pressKey(target: Element, keyName: string): Record<string, unknown>;

  // toolkit/overlay-ranking.ts (pure)
  isOverlay(candidate: OverlayDescription): boolean;
  rankOverlays(candidates: OverlayDescription[]): number[];
  closeButtonScore(button: OverlayButtonDescription): number;
  pickCloseButton(buttons: OverlayButtonDescription[]): number;
  pickConfirmButton(buttons: OverlayButtonDescription[]): number;

  // toolkit/*.ts (isolated world, injected on demand)
  parseSemanticSelector(selector: string): SemanticSelector;
  findElements(selector: string, scope?: ParentNode): Element[];
  resolveScope(scopeSelector: unknown): ParentNode | PageCommandAnswer;
  runDomAction(params: Record<string, unknown>): PageCommandAnswer | Promise<PageCommandAnswer>;
  pasteText(params: Record<string, unknown>, scope: ParentNode): PageCommandAnswer;
  showSubtitle(params: Record<string, unknown>): PageCommandAnswer;
  handleTopOverlay(intent: "dismiss" | "confirm", scope: ParentNode): Promise<PageCommandAnswer>;
  writeStorage(params: Record<string, unknown>): PageCommandAnswer;
  cookieApplies(path: string, domain: string | undefined, url: { hostname: string; pathname: string }): { domainOk: boolean; visible: boolean };
  listInteractive(params: Record<string, unknown>): PageCommandAnswer;
  readableContent(params: Record<string, unknown>, format: "text" | "markdown"): PageCommandAnswer;
  accessibilitySnapshot(params: Record<string, unknown>): PageCommandAnswer;
  inspectPage(command: string, params: Record<string, unknown>): PageCommandAnswer | undefined;
  discoverForms(params: Record<string, unknown>): PageCommandAnswer;
  runPageCommand(command: string, params: Record<string, unknown>): Promise<PageCommandAnswer>;
}

declare var __mcpkitDevconsoleParts: DevconsolePageParts | undefined;
