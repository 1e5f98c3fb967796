// A small, safe markdown renderer for the assistant's answers and tool output.
//
// Safe by construction: every piece of source text is HTML-escaped before any markup is added,
// raw HTML in the source is shown as text, and links are kept only for http:, https: and mailto:
// (rel="noopener noreferrer", new tab). What it covers: ATX headings, paragraphs (a single newline
// is a line break, as chats expect), **bold**, *italic*, ~~strike~~, `code`, fenced code blocks
// (a language label, a copy button, keyword/string/comment/number highlighting), nested bullet,
// numbered and task lists, blockquotes, horizontal rules, GFM tables, [links](…), <autolinks> and
// bare URLs. An unclosed fence (an answer still streaming) runs to the end.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// ---------------------------------------------------------------------------------- highlighting

const C_KEYWORDS = 'auto break case char const continue default do double else enum extern float for goto if ' +
  'inline int long register restrict return short signed sizeof static struct switch typedef union unsigned ' +
  'void volatile while bool true false NULL size_t uint8_t uint16_t uint32_t uint64_t int8_t int16_t int32_t int64_t';
const JS_KEYWORDS = 'async await break case catch class const continue debugger default delete do else export ' +
  'extends finally for from function get if import in instanceof let new of return set static super switch this ' +
  'throw try typeof var void while with yield null undefined true false NaN Infinity';
const LANGUAGES = {
  js: { keywords: JS_KEYWORDS, line: '//', block: true, quotes: '"\'`' },
  ts: {
    keywords: JS_KEYWORDS + ' abstract any as asserts boolean declare enum implements infer interface is keyof ' +
      'namespace never number object private protected public readonly satisfies string symbol type unknown',
    line: '//', block: true, quotes: '"\'`',
  },
  python: {
    keywords: 'and as assert async await break class continue def del elif else except finally for from global ' +
      'if import in is lambda match case nonlocal not or pass raise return try while with yield None True False ' +
      'self int str float bool list dict set tuple print len range',
    line: '#', quotes: '"\'', triple: true, decorators: true,
  },
  c: { keywords: C_KEYWORDS, line: '//', block: true, quotes: '"', chars: true, preprocessor: true },
  cpp: {
    keywords: C_KEYWORDS + ' alignas alignof catch class concept consteval constexpr constinit co_await co_return ' +
      'co_yield decltype delete explicit export final friend mutable namespace new noexcept nullptr operator ' +
      'override private protected public requires static_assert static_cast dynamic_cast reinterpret_cast ' +
      'const_cast template this throw try typename using virtual std string vector map optional',
    line: '//', block: true, quotes: '"', chars: true, preprocessor: true,
  },
  go: {
    keywords: 'break case chan const continue default defer else fallthrough for func go goto if import interface ' +
      'map package range return select struct switch type var nil true false iota string int int64 int32 uint ' +
      'byte rune bool float64 error any make new len cap append',
    line: '//', block: true, quotes: '"`', chars: true,
  },
  rust: {
    keywords: 'as async await break const continue crate dyn else enum extern false fn for if impl in let loop ' +
      'match mod move mut pub ref return self Self static struct super trait true type unsafe use where while ' +
      'Some None Ok Err Box Vec String Option Result i8 i16 i32 i64 u8 u16 u32 u64 usize isize f32 f64 bool str',
    line: '//', block: true, quotes: '"', chars: true, macros: true,
  },
  json: { keywords: 'true false null', quotes: '"', keys: true },
  bash: {
    keywords: 'if then else elif fi for while until do done case esac function in return local export readonly ' +
      'declare unset shift exit set source echo printf cd test true false',
    line: '#', quotes: '"\'', variables: true,
  },
};
const ALIASES = {
  javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', node: 'js', typescript: 'ts', tsx: 'ts', py: 'python',
  python3: 'python', h: 'c', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', hxx: 'cpp', golang: 'go', rs: 'rust',
  sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', jsonc: 'json', json5: 'json',
};
const compiled = new Map();

function languageRegex(name) {
  if (compiled.has(name)) return compiled.get(name);
  const spec = LANGUAGES[name];
  const comments = [];
  if (spec.line === '//') comments.push('\\/\\/[^\\n]*');
  if (spec.line === '#') comments.push(spec.variables ? '(?<![\\w$])#[^\\n]*' : '#[^\\n]*');
  if (spec.block) comments.push('\\/\\*[\\s\\S]*?(?:\\*\\/|$)');
  const strings = [];
  if (spec.triple) strings.push('"""[\\s\\S]*?(?:"""|$)', "'''[\\s\\S]*?(?:'''|$)");
  for (const quote of spec.quotes) {
    strings.push(quote === '`' ? '`(?:\\\\[\\s\\S]|[^`\\\\])*`?' : `${quote}(?:\\\\[\\s\\S]|[^${quote}\\\\\\n])*${quote}?`);
  }
  if (spec.chars) strings.push("'(?:\\\\.[^'\\n]{0,8}|[^'\\\\\\n])'");
  const meta = [];
  if (spec.preprocessor) meta.push('^[ \\t]*#[ \\t]*\\w+');
  if (spec.decorators) meta.push('^[ \\t]*@[\\w.]+');
  if (spec.macros) meta.push('\\b[a-z_]\\w*!');
  if (spec.variables) meta.push('\\$(?:\\{[^}\\n]*\\}|\\w+|[@#?$!*0-9])');
  const parts = [];
  if (comments.length) parts.push(`(?<comment>${comments.join('|')})`);
  if (meta.length) parts.push(`(?<meta>${meta.join('|')})`);
  parts.push(`(?<string>${strings.join('|')})`);
  parts.push('(?<number>(?<![\\w$])-?(?:0[xXbBoO][\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?)[a-zA-Z]{0,4}\\b)');
  parts.push('(?<word>[A-Za-z_$][\\w$]*)');
  const entry = { regex: new RegExp(parts.join('|'), 'gm'), keywords: new Set(spec.keywords.split(' ')), spec };
  compiled.set(name, entry);
  return entry;
}

export function languageOf(label) {
  const name = String(label || '').toLowerCase();
  if (LANGUAGES[name]) return name;
  return ALIASES[name] || '';
}

/** The code as HTML with <span class="tok-…"> around tokens; plain escaped text for other languages. */
export function highlight(code, label) {
  const name = languageOf(label);
  if (!name) return escapeHtml(code);
  const { regex, keywords, spec } = languageRegex(name);
  let html = '';
  let last = 0;
  regex.lastIndex = 0;
  for (const match of code.matchAll(regex)) {
    if (!match[0]) continue;
    html += escapeHtml(code.slice(last, match.index));
    const token = escapeHtml(match[0]);
    const groups = match.groups;
    let kind = '';
    if (groups.comment) kind = 'com';
    else if (groups.meta) kind = 'meta';
    else if (groups.string) kind = spec.keys && /^\s*:/.test(code.slice(match.index + match[0].length)) ? 'key' : 'str';
    else if (groups.number) kind = 'num';
    else if (groups.word && keywords.has(match[0])) kind = 'kw';
    html += kind ? `<span class="tok-${kind}">${token}</span>` : token;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(code.slice(last));
}

// ------------------------------------------------------------------------------------------ inline

const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const TRAILING = /(?:&(?:quot|#39|gt|lt);?|[.,;:!?)\]*_~])$/;

function link(url, labelHtml) {
  // `url` is already escaped (quotes included), so it can sit inside the attribute as is.
  return `<a href="${url}" target="_blank" rel="noopener noreferrer">${labelHtml}</a>`;
}

export function renderInline(source) {
  const saved = [];
  const keep = (html) => `\uE000${saved.push(html) - 1}\uE001`;
  let text = String(source ?? '').replace(/[\uE000\uE001]/g, '');
  // Code spans and backslash escapes first: nothing inside them is markup.
  text = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, ticks, code) => keep(`<code>${escapeHtml(code.replace(/^ (.*) $/s, '$1'))}</code>`));
  text = text.replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, (_, char) => keep(escapeHtml(char)));
  text = escapeHtml(text);
  // Links: [label](url "title"), images as links to themselves, <autolinks>, bare URLs.
  text = text.replace(/(!?)\[([^\]\n]*)\]\(\s*([^\s)]+)(?:\s+&quot;[^\n]*?&quot;)?\s*\)/g, (whole, bang, label, url) => {
    const inner = renderEmphasis(label || url);
    // Any other scheme (javascript:, data:, relative paths) keeps its label as plain text.
    return keep(SAFE_URL.test(url) ? link(url, inner) : inner);
  });
  text = text.replace(/&lt;((?:https?:\/\/|mailto:)[^\s<>]*?)&gt;/gi, (_, url) => keep(link(url, url)));
  text = text.replace(/\bhttps?:\/\/[^\s<\uE000]+/g, (match) => {
    // Trailing punctuation and quotes (escaped by now) belong to the sentence, not the URL.
    let url = match;
    for (let tail = url.match(TRAILING); tail && url.length > 8; tail = url.match(TRAILING)) url = url.slice(0, -tail[0].length);
    return keep(link(url, url)) + match.slice(url.length);
  });
  text = renderEmphasis(text);
  // Placeholders can nest (a code span inside a link label), hence the loop.
  while (/\uE000\d+\uE001/.test(text)) text = text.replace(PLACEHOLDER, (_, index) => saved[Number(index)]);
  return text;
}

function renderEmphasis(html) {
  return html
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
    .replace(/(^|[^*\w])\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?=[^\s_])([\s\S]*?[^\s_])_(?!\w)/g, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
}

// ------------------------------------------------------------------------------------------ blocks

const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

function indentOf(line) {
  return line.replace(/\t/g, '    ').match(/^ */)[0].length;
}

function startsBlock(line, next) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || /^ {0,3}>/.test(line) ||
    /^[ \t]{0,3}(?:[-*+]|1[.)])[ \t]+\S/.test(line) || (line.includes('|') && next !== undefined && TABLE_RULE.test(next) && next.includes('-'));
}

function splitRow(line) {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < row.length; i += 1) {
    const char = row[i];
    if (char === '\\' && row[i + 1] === '|') { cell += '|'; i += 1; continue; }
    if (char === '`') inCode = !inCode;
    if (char === '|' && !inCode) { cells.push(cell.trim()); cell = ''; continue; }
    cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function renderCode(lines, label) {
  const language = String(label || '').replace(/[^\w+#.-]/g, '').slice(0, 24);
  const code = lines.join('\n');
  const name = languageOf(language);
  return `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(language || 'text')}</span>` +
    '<button type="button" class="copy-code" aria-label="Copy code">Copy</button></div>' +
    `<pre><code${name ? ` class="language-${name}"` : ''}>${highlight(code, language)}</code></pre></div>`;
}

function renderList(lines, start) {
  // Gathers the list that starts at lines[start]: items at the first item's indent, each with its
  // continuation lines (indented deeper), blank lines between items allowed.
  const first = lines[start].match(ITEM);
  const baseIndent = indentOf(first[1]);
  const ordered = /\d/.test(first[2]);
  const items = [];
  let index = start;
  let loose = false;
  while (index < lines.length) {
    const line = lines[index];
    const match = line.match(ITEM);
    if (match && indentOf(match[1]) === baseIndent && /\d/.test(match[2]) === ordered) {
      items.push({ lines: [match[4]], contentIndent: indentOf(match[1]) + match[2].length + Math.max(1, match[3].length) });
      index += 1;
      continue;
    }
    if (!items.length) break;
    if (line.trim() === '') {
      const next = lines[index + 1];
      if (next === undefined) break;
      const nextItem = next.match(ITEM);
      const continues = indentOf(next) > baseIndent || (nextItem && indentOf(nextItem[1]) === baseIndent && /\d/.test(nextItem[2]) === ordered);
      if (!continues) break;
      if (indentOf(next) <= baseIndent) loose = true;
      items[items.length - 1].lines.push('');
      index += 1;
      continue;
    }
    if (indentOf(line) > baseIndent) {
      const item = items[items.length - 1];
      const strip = Math.min(item.contentIndent, indentOf(line));
      item.lines.push(line.replace(/\t/g, '    ').slice(strip));
      index += 1;
      continue;
    }
    // A lazy continuation: a plain line right after an item's text joins it.
    const previous = lines[index - 1];
    if (previous.trim() !== '' && !startsBlock(line, lines[index + 1])) {
      items[items.length - 1].lines.push(line.trim());
      index += 1;
      continue;
    }
    break;
  }
  const startNumber = ordered ? parseInt(first[2], 10) : 1;
  let html = ordered ? `<ol${startNumber !== 1 ? ` start="${startNumber}"` : ''}>` : '<ul>';
  for (const item of items) {
    let body = item.lines;
    let task = '';
    const checkbox = body[0].match(/^\[([ xX])\][ \t]+(.*)$/);
    if (checkbox) {
      task = `<input type="checkbox" disabled${checkbox[1] === ' ' ? '' : ' checked'}> `;
      body = [checkbox[2], ...body.slice(1)];
    }
    const tight = !loose && !body.some((line) => line.trim() === '');
    let inner = renderBlocks(body);
    if (tight) inner = inner.replace(/^<p>([\s\S]*?)<\/p>/, '$1');
    html += `<li${task ? ' class="task"' : ''}>${task}${inner}</li>`;
  }
  html += ordered ? '</ol>' : '</ul>';
  return { html, next: index };
}

function renderBlocks(lines) {
  let html = '';
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === '') { index += 1; continue; }
    const fence = line.match(FENCE);
    if (fence) {
      const marker = fence[1];
      const body = [];
      index += 1;
      while (index < lines.length) {
        const closing = lines[index].match(/^ {0,3}(`{3,}|~{3,})[ \t]*$/);
        if (closing && closing[1][0] === marker[0] && closing[1].length >= marker.length) { index += 1; break; }
        body.push(lines[index]);
        index += 1;
      }
      html += renderCode(body, fence[2]);
      continue;
    }
    const heading = line.match(HEADING);
    if (heading) {
      const level = heading[1].length;
      html += `<h${level}>${renderInline(heading[2] || '')}</h${level}>`;
      index += 1;
      continue;
    }
    if (RULE.test(line)) { html += '<hr>'; index += 1; continue; }
    if (/^ {0,3}>/.test(line)) {
      const quoted = [];
      while (index < lines.length && lines[index].trim() !== '' ) {
        if (/^ {0,3}>/.test(lines[index])) quoted.push(lines[index].replace(/^ {0,3}> ?/, ''));
        else if (quoted.length && !startsBlock(lines[index], lines[index + 1])) quoted.push(lines[index]);
        else break;
        index += 1;
      }
      html += `<blockquote>${renderBlocks(quoted)}</blockquote>`;
      continue;
    }
    if (ITEM.test(line) && line.match(ITEM)[4].trim() !== '' || /^[ \t]*(?:[-*+]|\d{1,9}[.)])$/.test(line) && lines[index + 1]?.match(/^\s+\S/)) {
      const list = renderList(lines, index);
      if (list.next > index) { html += list.html; index = list.next; continue; }
    }
    if (line.includes('|') && index + 1 < lines.length && TABLE_RULE.test(lines[index + 1]) && lines[index + 1].includes('-')) {
      const header = splitRow(line);
      const aligns = splitRow(lines[index + 1]).map((cell) =>
        cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : '');
      const cellHtml = (tag, text, column) =>
        `<${tag}${aligns[column] ? ` class="align-${aligns[column]}"` : ''}>${renderInline(text)}</${tag}>`;
      html += '<div class="table-wrap"><table><thead><tr>' + header.map((cell, column) => cellHtml('th', cell, column)).join('') + '</tr></thead><tbody>';
      index += 2;
      while (index < lines.length && lines[index].includes('|') && lines[index].trim() !== '') {
        const cells = splitRow(lines[index]);
        html += '<tr>' + header.map((_, column) => cellHtml('td', cells[column] ?? '', column)).join('') + '</tr>';
        index += 1;
      }
      html += '</tbody></table></div>';
      continue;
    }
    const paragraph = [line];
    index += 1;
    while (index < lines.length && lines[index].trim() !== '' && !startsBlock(lines[index], lines[index + 1])) {
      paragraph.push(lines[index]);
      index += 1;
    }
    html += `<p>${paragraph.map((text) => renderInline(text.trim())).join('<br>')}</p>`;
  }
  return html;
}

/** The markdown source as safe HTML. */
export function renderMarkdown(source) {
  return renderBlocks(String(source ?? '').replace(/\r\n?/g, '\n').split('\n'));
}

/** Whether a tool's plain text output looks like markdown (else it is better shown verbatim). */
export function looksLikeMarkdown(text) {
  return /^(?:#{1,6} |```|[-*+] |\d+\. |> )|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\(https?:|^\|.*\|$/m.test(String(text));
}
