/**
 * Pure rules (no DOM) behind dismiss_top_overlay and confirm_top_dialog, kept apart from the DOM
 * walk in top-overlay.ts so they can be tested with plain descriptions under Node:
 * which candidates count as an overlay, which one is on top, and which of its buttons closes or
 * confirms it. The button rules are deliberately narrow: a wrong click ("Close account", "Continue
 * without accepting") does more harm than an honest "no button found".
 */
(function registerOverlayRanking() {
  /**
   * A non-dialog element must cover this much of the viewport to count as an overlay: a fixed one a
   * quarter (a bottom sheet, a consent wall), an absolute one half (below that it is more often a
   * positioned part of the layout, such as a hero image, than a layer over the page)…
   */
  const MIN_FIXED_COVERAGE = 0.25;
  const MIN_ABSOLUTE_COVERAGE = 0.5;
  /** …and be stacked at least this high (page layout rarely goes above single digits). */
  const MIN_Z_INDEX = 10;

  const CLOSE_EXACT = new Set(["close", "dismiss", "×", "✕", "✖", "✗", "╳", "⨯", "x", "close x", "close ×"]);
  const CLOSE_PHRASE = /^(close|dismiss|hide)( (this|the))? (dialog|modal|popup|pop-up|window|banner|notification|message|panel|overlay|alert|box|sheet|drawer|toast)$/;
  const DECLINE_EXACT = new Set(["cancel", "no thanks", "no, thanks", "not now", "maybe later", "skip", "later"]);
  const CLOSE_HINT = /(^|[\s_-])(close|dismiss)([\s_-]|$)|btn-close|modal-close|data-dismiss/;
  const CONFIRM_START = /^(ok|okay|confirm|yes|accept|agree|i agree|i accept|allow|continue|proceed|submit|got it|done|save|apply|understood)\b/;
  /** Words that turn a confirm-looking label into a refusal ("Continue without accepting"). */
  const CONFIRM_VETO = /\b(without|don't|do not|reject|decline|deny|refuse|cancel|not now)\b/;
  const PRIMARY_HINT = /primary|confirm|accept|submit|default/;

  function normalized(name: string): string {
    return name.replace(/\s+/g, " ").trim().toLowerCase().replace(/[.!…]+$/, "").trim();
  }

  function isSemantic(candidate: OverlayDescription): boolean {
    return candidate.role === "dialog" || candidate.role === "alertdialog" || candidate.ariaModal || candidate.openDialog;
  }

  function isOverlay(candidate: OverlayDescription): boolean {
    if (!candidate.visible || candidate.coverage <= 0) return false;
    if (isSemantic(candidate)) return true;
    const minCoverage = candidate.position === "fixed" ? MIN_FIXED_COVERAGE : candidate.position === "absolute" ? MIN_ABSOLUTE_COVERAGE : Infinity;
    const z = candidate.zPath.length > 0 ? Math.max(...candidate.zPath) : 0;
    // hits: it must actually be on top somewhere, not just be a large layer painted over by the page.
    return candidate.coverage >= minCoverage && z >= MIN_Z_INDEX && candidate.hits > 0 && !candidate.containsMain;
  }

  /**
   * Stacking order, approximated: compare z-indexes level by level from the outermost stacking
   * context (a missing level counts as 0), so z 9999 inside a z 1 container stays below a z 50
   * modal at the top level, and a dialog with its own z inside its backdrop ranks above the backdrop.
   */
  function compareZ(left: number[], right: number[]): number {
    for (let level = 0; level < Math.max(left.length, right.length); level++) {
      const difference = (right[level] ?? 0) - (left[level] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  /** Negative when `left` is the better "top overlay". */
  function compareOverlays(left: OverlayDescription, right: OverlayDescription): number {
    return (
      compareZ(left.zPath, right.zPath) ||
      Number(isSemantic(right)) - Number(isSemantic(left)) ||
      right.hits - left.hits ||
      right.coverage - left.coverage ||
      right.order - left.order
    );
  }

  /** Indexes of the candidates that are overlays, topmost first. */
  function rankOverlays(candidates: OverlayDescription[]): number[] {
    return candidates
      .map((candidate, index) => ({ candidate, index }))
      .filter(({ candidate }) => isOverlay(candidate))
      .sort((left, right) => compareOverlays(left.candidate, right.candidate))
      .map(({ index }) => index);
  }

  /** 3: says close; 2: declines, or an unlabelled button styled as a close button; 1: "no"; 0: not a way out. */
  function closeButtonScore(button: OverlayButtonDescription): number {
    const name = normalized(button.name);
    if (CLOSE_EXACT.has(name) || CLOSE_PHRASE.test(name)) return 3;
    if (DECLINE_EXACT.has(name)) return 2;
    if (name === "no") return 1;
    if (name.length <= 1 && CLOSE_HINT.test(button.hints.toLowerCase())) return 2;
    return 0;
  }

  function confirmButtonScore(button: OverlayButtonDescription): number {
    if (closeButtonScore(button) > 0) return 0;
    const name = normalized(button.name);
    if (CONFIRM_VETO.test(name)) return 0;
    if (CONFIRM_START.test(name)) return 3;
    if (button.isSubmit) return 2;
    return 0;
  }

  /** Best by score; the first in document order wins a tie (the × in the header comes before the footer). */
  function pickCloseButton(buttons: OverlayButtonDescription[]): number {
    let best = -1;
    let bestScore = 0;
    buttons.forEach((button, index) => {
      const score = closeButtonScore(button);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    return best;
  }

  /**
   * Best by score, then a primary-looking one, then the last (dialog footers end with the
   * affirmative button). With no labelled match, the one button (not link) that is not a way out is
   * taken when a way out exists beside it: a dialog of "Cancel" and "Delete" is confirmed with "Delete".
   */
  function pickConfirmButton(buttons: OverlayButtonDescription[]): number {
    let best = -1;
    let bestScore = 0;
    let bestPrimary = false;
    buttons.forEach((button, index) => {
      const score = confirmButtonScore(button);
      const primary = PRIMARY_HINT.test(button.hints.toLowerCase());
      if (score > 0 && (score > bestScore || (score === bestScore && (primary || !bestPrimary)))) {
        best = index;
        bestScore = score;
        bestPrimary = primary;
      }
    });
    if (best >= 0) return best;
    const hasWayOut = buttons.some((button) => closeButtonScore(button) > 0);
    const others = buttons
      .map((button, index) => ({ button, index }))
      .filter(({ button }) => !button.isLink && closeButtonScore(button) === 0 && !CONFIRM_VETO.test(normalized(button.name)));
    return hasWayOut && others.length === 1 ? (others[0] as { index: number }).index : -1;
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.isOverlay = isOverlay;
  registry.rankOverlays = rankOverlays;
  registry.closeButtonScore = closeButtonScore;
  registry.pickCloseButton = pickCloseButton;
  registry.pickConfirmButton = pickConfirmButton;
})();
