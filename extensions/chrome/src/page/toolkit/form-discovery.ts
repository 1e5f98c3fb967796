/**
 * Isolated world: `form_discovery` — the forms of the page and their fields, so the agent can fill
 * them with fill_form. Password values are never returned; other values are capped.
 */
(function registerFormDiscovery() {
  const FORM_LIMIT = 50;
  const FIELD_LIMIT = 100;
  const FIELDS = "input:not([type=hidden]), select, textarea, [contenteditable='true']";

  function describeField(element: Element): Record<string, unknown> {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const type = element instanceof HTMLInputElement ? element.type : element.localName;
    const sensitive = type === "password" || /password|one-time-code|cc-/.test((element.getAttribute("autocomplete") ?? "").toLowerCase());
    let value = "";
    if (element instanceof HTMLInputElement && (type === "checkbox" || type === "radio")) value = String(element.checked);
    else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) value = element.value;
    const field: Record<string, unknown> = {
      name: element.getAttribute("name") ?? "",
      id: element.id,
      type,
      label: parts.accessibleName(element),
      required: (element as HTMLInputElement).required === true,
      value: sensitive ? "[redacted]" : value.slice(0, 200),
      placeholder: element.getAttribute("placeholder") ?? "",
      selector: parts.cssPathFor(element),
      visible: parts.isVisible(element),
    };
    if (element instanceof HTMLSelectElement) {
      field.options = Array.from(element.options)
        .slice(0, 50)
        .map((option) => ({ value: option.value, text: option.text.trim(), selected: option.selected }));
    }
    return field;
  }

  function discoverForms(params: Record<string, unknown>): PageCommandAnswer {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const scope = parts.resolveScope(params.selector ?? params.scope_selector);
    if (!(scope instanceof Node)) return scope;
    const forms = scope instanceof HTMLFormElement ? [scope] : Array.from(scope.querySelectorAll("form"));
    const described = forms.slice(0, FORM_LIMIT).map((form, index) => ({
      index,
      selector: parts.cssPathFor(form),
      id: form.id,
      name: form.getAttribute("name") ?? "",
      action: form.action,
      method: (form.getAttribute("method") ?? "get").toLowerCase(),
      fields: Array.from(form.querySelectorAll(FIELDS)).slice(0, FIELD_LIMIT).map(describeField),
      submit_selectors: Array.from(form.querySelectorAll("button:not([type=button]):not([type=reset]), input[type=submit]"))
        .slice(0, 5)
        .map((button) => parts.cssPathFor(button)),
    }));
    // Single-page apps often have fields with no <form> around them.
    const loose = Array.from(scope.querySelectorAll(FIELDS))
      .filter((field) => !field.closest("form"))
      .slice(0, FIELD_LIMIT)
      .map(describeField);
    return { ok: true, value: { forms: described, count: forms.length, fields_outside_forms: loose } };
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.discoverForms = discoverForms;
})();
