// MCP content shown in the page: a tool's result (content items and structuredContent), a read
// resource's contents, a sampling request's messages.

import { el, prettyJson } from './host-dom.js';
import { highlight, looksLikeMarkdown, renderMarkdown } from './host-markdown.js';

const BASE64 = /^[A-Za-z0-9+/=\s]*$/;
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

/** The text of a message's content: a string, text parts, or (anything else) its JSON. */
export function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : part?.text ?? '')).join('');
  if (content && typeof content === 'object' && typeof content.text === 'string') return content.text;
  return content == null ? '' : prettyJson(content);
}

export function jsonBlock(value, { label } = {}) {
  const text = typeof value === 'string' ? value : prettyJson(value);
  return el('pre', { class: 'json', 'aria-label': label, html: highlight(text, 'json') });
}

/** Plain text shown verbatim, as JSON when it parses as an object or array, or as markdown. */
export function textBlock(text) {
  const trimmed = String(text ?? '').trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return jsonBlock(JSON.parse(trimmed));
    } catch { /* not JSON: fall through */ }
  }
  if (looksLikeMarkdown(trimmed)) return el('div', { class: 'markdown', html: renderMarkdown(text) });
  return el('pre', { class: 'plain', text });
}

function dataUrl(mimeType, data, prefix) {
  const type = String(mimeType || '');
  if (!type.startsWith(prefix) || !/^[\w.+-]+\/[\w.+-]+$/.test(type) || typeof data !== 'string' || !BASE64.test(data)) return null;
  return `data:${type};base64,${data.replace(/\s/g, '')}`;
}

function resourceLine(uri, title, onView) {
  const label = title && title !== uri ? `${title} — ${uri}` : uri;
  const link = SAFE_LINK.test(uri || '')
    ? el('a', { href: uri, target: '_blank', rel: 'noopener noreferrer', text: label })
    : el('code', { text: label });
  return el('div', { class: 'resource-line' }, el('span', { class: 'icon', 'aria-hidden': 'true', text: '↗' }), link,
    onView && uri ? el('button', { type: 'button', class: 'link-button', text: 'view', 'aria-label': `View ${uri}`, onclick: () => onView(uri) }) : null);
}

/** One resource content entry {uri, mimeType, text | blob}. */
export function resourceContents(entry) {
  const nodes = [];
  if (typeof entry?.text === 'string') {
    nodes.push(/json/.test(entry.mimeType || '') ? textBlock(entry.text) : /markdown/.test(entry.mimeType || '')
      ? el('div', { class: 'markdown', html: renderMarkdown(entry.text) }) : el('pre', { class: 'plain', text: entry.text }));
  } else if (typeof entry?.blob === 'string') {
    const image = dataUrl(entry.mimeType, entry.blob, 'image/');
    nodes.push(image ? el('img', { src: image, alt: entry.uri || 'image', class: 'content-image' })
      : el('p', { class: 'muted', text: `Binary content (${entry.mimeType || 'unknown type'}, ${Math.round(entry.blob.length * 0.75)} bytes)` }));
  }
  return el('div', { class: 'resource-contents' },
    entry?.uri ? el('div', { class: 'resource-uri' }, el('code', { text: entry.uri }), entry.mimeType ? el('span', { class: 'muted', text: ` ${entry.mimeType}` }) : null) : null,
    nodes);
}

/** One MCP content item. `onView(uri)` reads a linked resource through the host. */
export function contentItem(item, onView) {
  if (!item || typeof item !== 'object') return jsonBlock(item);
  switch (item.type) {
    case 'text':
      return textBlock(item.text);
    case 'image': {
      const src = dataUrl(item.mimeType, item.data, 'image/');
      return src ? el('img', { src, alt: 'Image from the tool', class: 'content-image' }) : jsonBlock(item);
    }
    case 'audio': {
      const src = dataUrl(item.mimeType, item.data, 'audio/');
      return src ? el('audio', { src, controls: true, class: 'content-audio' }) : jsonBlock(item);
    }
    case 'resource_link':
      return el('div', { class: 'resource-link' }, resourceLine(item.uri, item.title || item.name, onView),
        item.description ? el('p', { class: 'muted', text: item.description }) : null);
    case 'resource':
      return resourceContents(item.resource);
    default:
      return jsonBlock(item);
  }
}

/**
 * A tool's result: a CallToolResult ({content, structuredContent, isError}), a bare content array,
 * or any other JSON (shown as such).
 */
export function toolResult(data, onView) {
  const parts = [];
  let content = null;
  let structured;
  if (Array.isArray(data)) content = data;
  else if (data && typeof data === 'object' && (Array.isArray(data.content) || 'structuredContent' in data)) {
    content = Array.isArray(data.content) ? data.content : [];
    structured = data.structuredContent;
  } else if (typeof data === 'string') {
    parts.push(textBlock(data));
  } else if (data !== undefined && data !== null) {
    parts.push(jsonBlock(data));
  }
  if (content) {
    // Text that only repeats the structured content (the spec's backward-compatible form) is left out.
    const repeated = structured !== undefined && content.length === 1 && content[0]?.type === 'text' &&
      (() => { try { return JSON.stringify(JSON.parse(content[0].text)) === JSON.stringify(structured); } catch { return false; } })();
    if (!repeated) for (const item of content) parts.push(contentItem(item, onView));
    if (structured !== undefined) {
      // Beside text that says it in words, the same data as JSON is a click away, not shown twice.
      const alone = repeated || !content.length;
      parts.push(el('details', { class: 'structured', open: alone, testid: 'structured-content' }, el('summary', { text: 'Structured content' }), jsonBlock(structured)));
    }
    if (!content.length && structured === undefined) parts.push(el('p', { class: 'muted', text: 'No content.' }));
  }
  if (!parts.length) parts.push(el('p', { class: 'muted', text: 'No result.' }));
  return parts;
}

/** A sampling request's messages ({role, content: item | [items]}) and system prompt. */
export function samplingMessages(payload) {
  const rows = [];
  if (payload.systemPrompt) {
    rows.push(el('div', { class: 'sample-message role-system' }, el('span', { class: 'role', text: 'system' }), textBlock(payload.systemPrompt)));
  }
  for (const message of Array.isArray(payload.messages) ? payload.messages : []) {
    const items = Array.isArray(message?.content) ? message.content : [message?.content];
    rows.push(el('div', { class: `sample-message role-${message?.role === 'assistant' ? 'assistant' : 'user'}` },
      el('span', { class: 'role', text: message?.role || 'user' }),
      items.map((item) => (typeof item === 'string' ? textBlock(item) : contentItem(item)))));
  }
  return rows;
}
