// The review the panel shows: validation of a present-review payload and the three modes, with
// the same rules and messages as the C++ panel (src/review/ReviewRequest.cpp, ReviewDocument.cpp),
// since both pass one protocol test suite.

export type ReviewMode = 'replace' | 'append' | 'update-section';

export interface ReviewRequest {
  content: string;
  mode: ReviewMode;
  section: string;
  baseUri: string;
}

export interface Review {
  revision: number;
  markdown: string;
  baseUri: string;
  updated: Date;
}

export class ArgumentError extends Error {}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'double';
  return typeof value;
}

export function toFileUri(pathOrUri: string): string {
  if (pathOrUri.startsWith('file://')) return pathOrUri;
  let uri = 'file://';
  for (const byte of Buffer.from(pathOrUri, 'utf8')) {
    const c = String.fromCharCode(byte);
    uri += /[A-Za-z0-9/._~-]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return uri;
}

export function fileUriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  let rest = uri.slice(7);
  if (rest.startsWith('localhost/')) rest = rest.slice(9);
  if (!rest.startsWith('/')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/** Validates a payload ({content, mode?, section?, baseUri?}); throws ArgumentError naming the field and the fix. */
export function parseReviewRequest(payload: Record<string, unknown>, defaultBase: string): ReviewRequest {
  const content = payload.content;
  if (content === undefined) throw new ArgumentError('Missing required parameter: content (the review, as markdown)');
  if (typeof content !== 'string')
    throw new ArgumentError('Invalid content: expected a string of markdown, got ' + describeType(content));
  if (content.trim() === '') throw new ArgumentError('Invalid content: cannot be empty; write the review as markdown');

  let mode: ReviewMode = 'replace';
  if (payload.mode !== undefined && payload.mode !== null) {
    const given = payload.mode === 'update_section' ? 'update-section' : payload.mode;
    if (given !== 'replace' && given !== 'append' && given !== 'update-section')
      throw new ArgumentError('Invalid mode ' + JSON.stringify(payload.mode) + ': must be one of replace, append, update-section');
    mode = given;
  }

  let section = '';
  if (mode === 'update-section') {
    const given = payload.section;
    if (given === undefined || given === null)
      throw new ArgumentError('Missing required parameter: section (required for update-section mode: the heading whose body to replace, e.g. "Findings")');
    if (typeof given !== 'string' || given.trim() === '')
      throw new ArgumentError('Invalid section: expected the non-empty text of a heading, e.g. "Findings"');
    section = given.trim().replace(/^#+/, '').trim();
    if (section === '') throw new ArgumentError("Invalid section: expected the text of a heading, e.g. \"Findings\", not only '#'");
  }

  let base = defaultBase;
  if (payload.baseUri !== undefined && payload.baseUri !== null) {
    if (typeof payload.baseUri !== 'string' || payload.baseUri === '')
      throw new ArgumentError('Invalid baseUri: expected an absolute path or a file:// URI of the directory that relative references are under');
    base = payload.baseUri;
    if (base.includes('://') && fileUriToPath(base) === undefined)
      throw new ArgumentError('Invalid baseUri "' + base + '": only local file:// URIs (or absolute paths) can be opened in the editor');
    if (!base.includes('://') && !base.startsWith('/'))
      throw new ArgumentError('Invalid baseUri "' + base + '": expected an absolute path or a file:// URI, e.g. file:///home/me/project');
  }
  return { content, mode, section, baseUri: toFileUri(base) };
}

interface Heading {
  level: number;
  text: string;
}

function parseHeading(line: string): Heading | undefined {
  const match = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/.exec(line.replace(/\r$/, ''));
  if (!match) return undefined;
  let text = (match[2] ?? '').trim();
  text = text.replace(/[ \t]+#+$/, '').replace(/^#+$/, '').trim();
  return { level: match[1].length, text };
}

interface Line {
  start: number;
  next: number;
  heading?: Heading;
}

function scanLines(text: string): Line[] {
  const lines: Line[] = [];
  let fence: { char: string; length: number } | undefined;
  let position = 0;
  while (position < text.length) {
    const newline = text.indexOf('\n', position);
    const end = newline < 0 ? text.length : newline;
    const next = newline < 0 ? text.length : newline + 1;
    const line = text.slice(position, end);
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    const scanned: Line = { start: position, next };
    if (fenceMatch) {
      const marker = { char: fenceMatch[1][0], length: fenceMatch[1].length };
      if (!fence) fence = marker;
      else if (marker.char === fence.char && marker.length >= fence.length) fence = undefined;
    } else if (!fence) {
      scanned.heading = parseHeading(line);
    }
    lines.push(scanned);
    position = next;
  }
  return lines;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** `markdown` with the body under heading `section` replaced by `body`, or the section appended. */
export function replaceSection(markdown: string, section: string, body: string): string {
  const lines = scanLines(markdown);
  let newBody = body;
  const bodyLines = scanLines(body);
  if (bodyLines.length > 0 && bodyLines[0].heading && sameText(bodyLines[0].heading.text, section))
    newBody = body.slice(bodyLines[0].next);
  newBody = newBody.trim();
  for (let i = 0; i < lines.length; i++) {
    const heading = lines[i].heading;
    if (!heading || !sameText(heading.text, section)) continue;
    let bodyEnd = markdown.length;
    for (let j = i + 1; j < lines.length; j++) {
      const later = lines[j].heading;
      if (later && later.level <= heading.level) {
        bodyEnd = lines[j].start;
        break;
      }
    }
    let result = markdown.slice(0, lines[i].next);
    if (result !== '' && !result.endsWith('\n')) result += '\n';
    result += '\n' + newBody + '\n';
    if (bodyEnd < markdown.length) result += '\n' + markdown.slice(bodyEnd);
    return result;
  }
  let result = markdown.trim();
  if (result !== '') result += '\n\n';
  return result + '## ' + section + '\n\n' + newBody + '\n';
}

export function titleOf(markdown: string): string {
  for (const line of scanLines(markdown)) if (line.heading && line.heading.text) return line.heading.text;
  const first = markdown.split('\n')[0].trim();
  return first.length > 80 ? first.slice(0, 77) + '...' : first;
}

export class ReviewDocument {
  private currentReview: Review = { revision: 0, markdown: '', baseUri: '', updated: new Date(0) };
  private earlier: Review[] = [];
  private revisionCounter = 0;

  constructor(private readonly historyLimit = 50) {}

  get current(): Review {
    return this.currentReview;
  }
  /** Earlier reviews, newest first. */
  get history(): readonly Review[] {
    return this.earlier;
  }

  apply(request: ReviewRequest): Review {
    const previous = this.currentReview;
    let markdown: string;
    if (request.mode === 'replace') {
      markdown = request.content;
      if (previous.markdown.trim() !== '') {
        this.earlier.unshift(previous);
        if (this.earlier.length > this.historyLimit) this.earlier.pop();
      }
    } else if (request.mode === 'append') {
      markdown = previous.markdown.trim();
      if (markdown !== '') markdown += '\n\n';
      markdown += request.content;
    } else {
      markdown = replaceSection(previous.markdown, request.section, request.content);
    }
    this.currentReview = { revision: ++this.revisionCounter, markdown, baseUri: request.baseUri, updated: new Date() };
    return this.currentReview;
  }
}
