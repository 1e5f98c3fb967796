// Small DOM and formatting helpers shared by the host page's modules.

const PROPERTIES = new Set(['value', 'checked', 'indeterminate', 'selected']);

/**
 * Builds an element. `props`: class, text, html (trusted HTML only: the markdown renderer's
 * output), testid, dataset, on<event> listeners, value/checked (set as properties, after the
 * children so a select can take its value), anything else as an attribute (true → "", false/null
 * → left out).
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  node.append(...children.flat(Infinity).filter((child) => child != null && child !== false));
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'html') node.innerHTML = value;
    else if (key === 'testid') node.dataset.testid = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (PROPERTIES.has(key)) node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  return node;
}

let counter = 0;
/** A fresh id for requests and element ids; unique within the page, unlikely to repeat across tabs. */
export function freshId(prefix = 'r') {
  counter += 1;
  const random = Math.floor(Math.random() * 0x100000000).toString(36);
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}-${random}`;
}

export function prettyJson(value) {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export function formatDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60000);
  return `${minutes} min ${Math.round((ms % 60000) / 1000)} s`;
}

const numberFormat = new Intl.NumberFormat();
export function formatCount(value) {
  return typeof value === 'number' && Number.isFinite(value) ? numberFormat.format(value) : '0';
}

export function formatTime(value) {
  if (!value) return '';
  const date = new Date(typeof value === 'number' && value < 1e12 ? value * 1000 : value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** Copies text, falling back to a selection when the clipboard API is refused (plain http). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/**
 * A tool's qualified name (`files__write_file`, the host's name for the model) as a person reads
 * it: { server: 'files', tool: 'write_file', label: 'files › write_file' }. Used where the tool is
 * not in the server list (its server has gone, or the model made the name up).
 */
export function toolParts(qualifiedName) {
  const name = String(qualifiedName ?? '');
  const at = name.indexOf('__');
  if (at <= 0 || at + 2 >= name.length) return { server: '', tool: name, label: name };
  const server = name.slice(0, at);
  const tool = name.slice(at + 2);
  return { server, tool, label: `${server} › ${tool}` };
}
