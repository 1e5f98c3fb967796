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

  // toolkit/*.ts (isolated world, injected on demand)
  parseSemanticSelector(selector: string): SemanticSelector;
  findElements(selector: string, scope?: ParentNode): Element[];
  resolveScope(scopeSelector: unknown): ParentNode | PageCommandAnswer;
  runDomAction(params: Record<string, unknown>): PageCommandAnswer | Promise<PageCommandAnswer>;
  listInteractive(params: Record<string, unknown>): PageCommandAnswer;
  readableContent(params: Record<string, unknown>, format: "text" | "markdown"): PageCommandAnswer;
  accessibilitySnapshot(params: Record<string, unknown>): PageCommandAnswer;
  inspectPage(command: string, params: Record<string, unknown>): PageCommandAnswer | undefined;
  discoverForms(params: Record<string, unknown>): PageCommandAnswer;
  runPageCommand(command: string, params: Record<string, unknown>): Promise<PageCommandAnswer>;
}

declare var __mcpkitDevconsoleParts: DevconsolePageParts | undefined;
