// Code references in a review and their links: path:line, path:start-end and path?text, with
// the same grammar as the C++ panel (src/review/References.cpp).

import * as fs from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
type Token = MarkdownIt.Token;

export interface Reference {
  path: string;
  line: number;
  endLine: number;
  search: string;
}

export interface ResolvedReference {
  path: string;
  line: number;
  endLine: number;
  exists: boolean;
  note: string;
}

function looksLikePath(candidate: string): boolean {
  if (candidate === '' || candidate.startsWith('-') || candidate.length > 4096) return false;
  if (!/^[A-Za-z0-9/._+@~-]+$/.test(candidate) || !/[A-Za-z]/.test(candidate)) return false;
  return candidate.includes('/') || /[^./]\.[^./]/.test(candidate);
}

function lineNumber(digits: string): number {
  return /^\d{1,9}$/.test(digits) ? Number(digits) : 0;
}

export function parseReference(text: string): Reference | undefined {
  if (text.includes('://')) return undefined;
  const question = text.indexOf('?');
  if (question >= 0) {
    const reference = { path: text.slice(0, question), line: 0, endLine: 0, search: text.slice(question + 1) };
    return looksLikePath(reference.path) && reference.search !== '' ? reference : undefined;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const reference: Reference = { path: text.slice(0, colon), line: 0, endLine: 0, search: '' };
  if (!looksLikePath(reference.path)) return undefined;
  const rest = text.slice(colon + 1);
  const dash = rest.indexOf('-');
  const secondColon = rest.indexOf(':');
  if (dash >= 0 && (secondColon < 0 || dash < secondColon)) {
    reference.line = lineNumber(rest.slice(0, dash));
    const end = rest.slice(dash + 1);
    reference.endLine = lineNumber(end.split(':')[0]);
    if (reference.endLine === 0 || reference.endLine < reference.line) return undefined;
  } else {
    reference.line = lineNumber(secondColon < 0 ? rest : rest.slice(0, secondColon));
    if (secondColon >= 0 && lineNumber(rest.slice(secondColon + 1)) === 0) return undefined;
  }
  return reference.line > 0 ? reference : undefined;
}

export function parseLinkDestination(destination: string): Reference | undefined {
  const reference = parseReference(destination);
  if (reference) return reference;
  if (destination.includes(':') || destination.startsWith('#') || destination.includes('?') || !looksLikePath(destination))
    return undefined;
  return { path: destination, line: 1, endLine: 0, search: '' };
}

export interface FoundReference {
  offset: number;
  length: number;
  reference: Reference;
}

const leading = new Set(['(', '[', '{', '<', '"', "'", '`', '*', '_']);
const trailing = new Set([')', ']', '}', '>', '"', "'", '`', ',', ';', '.', ':', '!', '?', '*', '_']);

export function findReferences(text: string): FoundReference[] {
  const found: FoundReference[] = [];
  const words = /[^ \t\r\n]+/g;
  for (let match; (match = words.exec(text)); ) {
    let start = match.index;
    let stop = start + match[0].length;
    while (start < stop && leading.has(text[start])) start++;
    while (stop > start && trailing.has(text[stop - 1])) stop--;
    if (stop <= start) continue;
    const reference = parseReference(text.slice(start, stop));
    if (reference) found.push({ offset: start, length: stop - start, reference });
  }
  return found;
}

export function resolveReference(reference: Reference, baseDirectory: string): ResolvedReference {
  const file = path.normalize(path.isAbsolute(reference.path) ? reference.path : path.join(baseDirectory, reference.path));
  const resolved: ResolvedReference = { path: file, line: reference.line > 0 ? reference.line : 1, endLine: reference.endLine, exists: false, note: '' };
  try {
    resolved.exists = fs.statSync(file).isFile();
  } catch {
    resolved.exists = false;
  }
  if (!resolved.exists) {
    resolved.note = 'no such file: ' + file;
    return resolved;
  }
  if (reference.search === '') return resolved;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(reference.search));
  if (index >= 0) resolved.line = index + 1;
  else resolved.note = 'no line of ' + file + ' contains "' + reference.search + '"';
  return resolved;
}

function describe(reference: ResolvedReference): string {
  let title = reference.path + ':' + reference.line;
  if (reference.endLine > 0) title += '-' + reference.endLine;
  if (reference.note) title += ' (' + reference.note + ')';
  return title;
}

/** Renders a review: markdown-it (raw HTML escaped, never run), with every reference a link. */
export function renderReview(markdown: string, baseDirectory: string): { html: string; references: ResolvedReference[] } {
  const references: ResolvedReference[] = [];
  const md = new MarkdownIt({ html: false, linkify: false });
  const markLink = (token: Token, reference: Reference) => {
    const resolved = resolveReference(reference, baseDirectory);
    references.push(resolved);
    token.attrSet('href', '#');
    token.attrSet('class', 'reference');
    token.attrSet('data-path', resolved.path);
    token.attrSet('data-line', String(resolved.line));
    if (resolved.endLine > 0) token.attrSet('data-end', String(resolved.endLine));
    token.attrSet('title', describe(resolved));
  };
  md.core.ruler.push('review_references', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const output: Token[] = [];
      let insideLink = 0;
      for (const token of block.children) {
        if (token.type === 'link_open') {
          insideLink++;
          const reference = parseLinkDestination(token.attrGet('href') ?? '');
          if (reference) markLink(token, reference);
        }
        if (token.type === 'link_close') insideLink--;
        if (insideLink === 0 && token.type === 'code_inline') {
          const reference = parseReference(token.content);
          if (reference) {
            const open = new state.Token('link_open', 'a', 1);
            markLink(open, reference);
            output.push(open, token, new state.Token('link_close', 'a', -1));
            continue;
          }
        }
        if (insideLink === 0 && token.type === 'text') {
          const found = findReferences(token.content);
          let done = 0;
          for (const match of found) {
            if (match.offset > done) {
              const text = new state.Token('text', '', 0);
              text.content = token.content.slice(done, match.offset);
              output.push(text);
            }
            const open = new state.Token('link_open', 'a', 1);
            markLink(open, match.reference);
            const text = new state.Token('text', '', 0);
            text.content = token.content.slice(match.offset, match.offset + match.length);
            output.push(open, text, new state.Token('link_close', 'a', -1));
            done = match.offset + match.length;
          }
          if (found.length > 0) {
            if (done < token.content.length) {
              const rest = new state.Token('text', '', 0);
              rest.content = token.content.slice(done);
              output.push(rest);
            }
            continue;
          }
        }
        output.push(token);
      }
      block.children = output;
    }
  });
  return { html: md.render(markdown), references };
}
