/**
 * Isolated world: `paste` — puts text into the focused element (or the one named by selector,
 * element_id or index) the way a paste does. First a cancelable `paste` ClipboardEvent carrying the
 * text in its DataTransfer, because rich editors and upload widgets handle pastes themselves and
 * cancel the event; only when nobody cancelled it is the text inserted, by the browser's own
 * insertText editing command (caret, selection, maxlength, undo and `input` events as for typing),
 * or, where that does nothing, by a beforeinput/insert/input sequence of our own.
 */
(function registerPasteAction() {
  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  function failure(error: string, message: string, details?: Record<string, unknown>): FailedPageAnswer {
    return details ? { ok: false, error, message, details } : { ok: false, error, message };
  }

  type TextField = HTMLInputElement | HTMLTextAreaElement;

  function isTextField(element: Element): element is TextField {
    return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && !/^(checkbox|radio|button|submit|reset|image|file|hidden|range|color)$/.test(element.type));
  }

  function isEditable(element: Element): boolean {
    if (isTextField(element)) return !element.disabled && !element.readOnly;
    return element instanceof HTMLElement && element.isContentEditable;
  }

  /** The selection APIs throw for input types such as email and number; those get the text appended. */
  function selectionOf(field: TextField): { start: number; end: number } | undefined {
    try {
      if (field.selectionStart === null || field.selectionEnd === null) return undefined;
      return { start: field.selectionStart, end: field.selectionEnd };
    } catch {
      return undefined;
    }
  }

  /** A field the agent just named (rather than one that had focus) gets the caret at its end, as after a click. */
  function placeCaretAtEnd(element: Element): void {
    if (isTextField(element)) {
      const length = element.value.length;
      try {
        element.setSelectionRange(length, length);
      } catch {
        // Types without a selection API: insertion appends anyway.
      }
      return;
    }
    const range = document.createRange();
    range.selectNodeContents(element);
    range.collapse(false);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }

  function contentOf(element: Element): string {
    return isTextField(element) ? element.value : (element.textContent ?? "");
  }

  /** Our own insertion, for when the editing command is unavailable or did nothing. */
  function insertByHand(element: Element, text: string): boolean {
    const before = new InputEvent("beforeinput", { bubbles: true, cancelable: true, composed: true, inputType: "insertFromPaste", data: text });
    if (!element.dispatchEvent(before)) return false;
    if (isTextField(element)) {
      const selection = selectionOf(element);
      if (selection) element.setRangeText(text, selection.start, selection.end, "end");
      else element.value += text;
    } else {
      const selection = getSelection();
      const range = selection && selection.rangeCount > 0 && element.contains(selection.getRangeAt(0).commonAncestorContainer) ? selection.getRangeAt(0) : undefined;
      const node = document.createTextNode(text);
      if (range) {
        range.deleteContents();
        range.insertNode(node);
        range.setStartAfter(node);
        range.collapse(true);
      } else {
        element.appendChild(node);
      }
    }
    element.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertFromPaste", data: text }));
    return true;
  }

  function pasteEvent(text: string): Event {
    try {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      return new ClipboardEvent("paste", { bubbles: true, cancelable: true, composed: true, clipboardData: data });
    } catch {
      // Without DataTransfer the page still learns that a paste happened; it reads nothing from it.
      return new Event("paste", { bubbles: true, cancelable: true, composed: true });
    }
  }

  function pasteText(params: Record<string, unknown>, scope: ParentNode): PageCommandAnswer {
    if (typeof params.text !== "string") return failure("missing_text", "paste needs text: the text to paste.", { field: "text" });
    const text = params.text;
    let element: Element | null = document.activeElement;
    let wasFocused = true;
    if (parts().hasTarget(params)) {
      const found = parts().findTarget(params, scope);
      if (!(found instanceof Element)) return found;
      wasFocused = found === document.activeElement;
      element = found;
    }
    if (!element || element === document.body || element === document.documentElement) {
      return failure("no_focused_element", "Nothing is focused to paste into; give selector, element_id or index.");
    }
    if (element instanceof HTMLElement) element.focus({ preventScroll: false });
    if (!wasFocused) placeCaretAtEnd(element);

    const summary = parts().summarizeElement(element);
    const handledByPage = !element.dispatchEvent(pasteEvent(text));
    const answer = (inserted: boolean, method: string): PageCommandAnswer => ({
      ok: true,
      value: {
        inserted,
        handled_by_page: handledByPage,
        method,
        element: summary,
        ...(isTextField(element as Element) || isEditable(element as Element)
          ? { value: parts().isSensitive(element as Element) ? "[redacted]" : parts().currentValue(element as Element) }
          : {}),
      },
    });
    if (handledByPage) return answer(false, "page_paste_handler");
    if (!isEditable(element)) {
      return failure("not_editable", "The paste event was dispatched but nobody handled it, and the element does not take text.", { element: summary });
    }
    const contentBefore = contentOf(element);
    let changed = false;
    try {
      changed = document.execCommand("insertText", false, text) && contentOf(element) !== contentBefore;
    } catch {
      changed = false;
    }
    if (changed || text === "") return answer(changed, "insert_text");
    return answer(insertByHand(element, text), "input_events");
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.pasteText = pasteText;
})();
