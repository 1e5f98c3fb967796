/**
 * Isolated world: the primitives the actions use to touch one element the way a user would. They
 * dispatch real DOM events, so the page's handlers (React, Vue, plain listeners) react as to a user;
 * setting `value` from this world bypasses frameworks' value trackers in the MAIN world, which is
 * what makes them see the change.
 */
(function registerElementInput() {
  function fire(element: Element, type: string): void {
    element.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
  }

  /** Values of these fields are never returned to the agent. */
  function isSensitive(element: Element): boolean {
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    return type === "password" || /password|one-time-code|cc-/.test((element.getAttribute("autocomplete") ?? "").toLowerCase());
  }

  /** The whole pointer sequence, since pages listen to any of pointerdown, mousedown, click. */
  function clickElement(element: Element): void {
    element.scrollIntoView({ block: "center", inline: "center" });
    const rect = element.getBoundingClientRect();
    const pointer = { bubbles: true, cancelable: true, composed: true, clientX: rect.x + rect.width / 2, clientY: rect.y + rect.height / 2, button: 0 };
    element.dispatchEvent(new PointerEvent("pointerdown", pointer));
    element.dispatchEvent(new MouseEvent("mousedown", pointer));
    if (element instanceof HTMLElement) element.focus({ preventScroll: true });
    element.dispatchEvent(new PointerEvent("pointerup", pointer));
    element.dispatchEvent(new MouseEvent("mouseup", pointer));
    if (element instanceof HTMLElement) element.click();
    else element.dispatchEvent(new MouseEvent("click", pointer));
  }

  function setElementValue(element: Element, value: string): boolean {
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      element.value = value;
    } else if (element instanceof HTMLSelectElement) {
      const option = Array.from(element.options).find((candidate) => candidate.value === value || candidate.text.trim() === value.trim());
      if (!option) return false;
      element.value = option.value;
    } else if (element instanceof HTMLElement && element.isContentEditable) {
      element.textContent = value;
    } else {
      return false;
    }
    element.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: value }));
    fire(element, "change");
    return true;
  }

  function currentValue(element: Element): string {
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return element.value;
    return element instanceof HTMLElement && element.isContentEditable ? element.innerText : "";
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.clickElement = clickElement;
  registry.setElementValue = setElementValue;
  registry.currentValue = currentValue;
  registry.isSensitive = isSensitive;
})();
