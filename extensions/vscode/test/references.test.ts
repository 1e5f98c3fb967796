import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { findReferences, parseReference, renderReview } from '../src/references';

test('the three reference forms, and prose that is not one', () => {
  assert.deepEqual(parseReference('src/a.cpp:42-60'), { path: 'src/a.cpp', line: 42, endLine: 60, search: '' });
  assert.equal(parseReference('src/a.cpp?void f(')?.search, 'void f(');
  for (const prose of ['ratio 3:1', 'note:5', 'http://h/a.cpp:3', 'a.cpp:0', 'a.cpp:9-3']) assert.equal(parseReference(prose), undefined, prose);
  const text = 'See (src/a.cpp:4), then lib/b.h:1-3. Also c_d.py?def f and 10:30.';
  assert.deepEqual(findReferences(text).map((found) => text.slice(found.offset, found.offset + found.length)), ['src/a.cpp:4', 'lib/b.h:1-3', 'c_d.py?def']);
});

test('rendering links references, resolves searches and escapes raw HTML', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'refs-'));
  fs.writeFileSync(path.join(base, 'main.cpp'), 'int x;\nint main() {\n}\n');
  const { html, references } = renderReview('See main.cpp:1, `main.cpp?int main(` and [it](main.cpp).\n\n<script>alert(1)</script>', base);
  assert.equal(references.length, 3);
  assert.equal(references[1].line, 2);
  assert.match(html, /<a href="#" class="reference" data-path="[^"]*main\.cpp" data-line="1"/);
  assert.match(html, /<code>main\.cpp\?int main\(<\/code><\/a>/);
  assert.ok(!html.includes('<script>'));
  fs.rmSync(base, { recursive: true });
});
