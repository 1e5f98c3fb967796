// `mcpkit analyze report` as a person runs it: the text report agrees with the JSON one, the
// progress bar goes to stderr only, Ctrl-C prints the part that is done and exits with 130, and
// bad input is refused with a message that names it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { mcpkit } from './support.mjs';

const report = (...args) => spawnSync(mcpkit, ['analyze', 'report', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });

describe('mcpkit analyze report', () => {
  let project;

  before(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'analyze-report-'));
    fs.mkdirSync(path.join(project, 'pkg'));
    fs.writeFileSync(path.join(project, 'pkg/__init__.py'), '');
    fs.writeFileSync(path.join(project, 'pkg/a.py'),
      '"""Module a."""\nfrom pkg import b\n\n\ndef run(x):\n    # TODO: handle None\n'
      + '    if x and b.ready():\n        return 1\n    elif x or x > 2:\n        return 2\n    return 0\n');
    fs.writeFileSync(path.join(project, 'pkg/b.py'), 'from pkg import a\n\n\ndef ready():\n    return a.run(0) == 0\n');
    const cases = Array.from({ length: 24 }, (_, i) => `    case ${i}: return ${i} * x;`).join('\n');
    fs.writeFileSync(path.join(project, 'pick.c'),
      `/* many cases */\nint pick(int k, int x) {\n  switch (k) {\n${cases}\n  }\n  return 0;\n}\n`);
    fs.writeFileSync(path.join(project, 'README.md'), '# not code\n');
  });

  after(() => fs.rmSync(project, { recursive: true, force: true }));

  test('the text report shows the JSON report\'s totals, hotspots, findings and cycles', () => {
    const json = report(project, '--json', '--no-cache', '--progress', 'never');
    assert.equal(json.status, 0, json.stderr);
    const data = JSON.parse(json.stdout);
    assert.equal(data.totals.files, 4);
    const text = report(project, '--no-cache', '--progress', 'never');
    assert.equal(text.status, 0, text.stderr);
    assert.equal(text.stderr, '');
    const lines = text.stdout.split('\n');
    assert.match(lines[0], /: 4 files in \d+\.\d\d s$/);
    const row = (name) => lines.find((line) => line.startsWith(`${name} `))?.trim().split(/\s+/).slice(-7, -2).map(Number);
    for (const [language, totals] of Object.entries(data.byLanguage))
      assert.deepEqual(row(language), [totals.files, totals.lines.blank, totals.lines.comment, totals.lines.code, totals.functions],
        `${language} row of:\n${text.stdout}`);
    const sum = data.totals;
    assert.deepEqual(row('SUM'), [sum.files, sum.lines.blank, sum.lines.comment, sum.lines.code, sum.functions]);
    // The C switch is the top hotspot: 24 cases + 1, as pmccabe counts it.
    const hotspot = lines[lines.findIndex((line) => line.startsWith('Hotspots')) + 2];
    assert.match(hotspot, /^\s+25\s+\d+\s+\d+\s+pick\.c:2 pick$/);
    assert.match(text.stdout, /pick\.c:2: high-complexity: Cyclomatic complexity 25/);
    assert.match(text.stdout, /todo \d/);
    assert.match(text.stdout, /cycle: pkg\/a\.py pkg\/b\.py|cycle: pkg\/b\.py pkg\/a\.py/);
  });

  test('one file: its functions with their numbers, then its findings at file:line', () => {
    const file = path.join(project, 'pkg/a.py');
    const text = report(file);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^.*a\.py \(python\): 11 lines: 7 code, 2 comment, 2 blank/);
    assert.match(text.stdout, /\n\s+5\s+\d+\s+1\s+7\s+.*a\.py:5 run\n/);
    assert.match(text.stdout, /a\.py:6: todo: /);
  });

  test('the progress bar goes to stderr and leaves stdout as it is without it', () => {
    const quiet = report(project, '--no-cache', '--progress', 'never');
    const shown = report(project, '--no-cache', '--progress', 'always');
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stderr, /\r\[#{30}\] 4\/4 files\n$/);
    const withoutTiming = (out) => out.split('\n').slice(1).join('\n');
    assert.equal(withoutTiming(shown.stdout), withoutTiming(quiet.stdout));
  });

  test('Ctrl-C stops a long run, prints the part that is done and exits with 130', async () => {
    // /usr/include takes about a minute cold on two cores: long enough to interrupt.
    const child = spawn(mcpkit, ['analyze', 'report', '/usr/include', '--no-cache', '--progress', 'always'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    const started = new Promise((resolve) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (/\] [1-9]\d*\/\d+ files/.test(stderr)) resolve();
      });
    });
    await started;
    const sentAt = Date.now();
    child.kill('SIGINT');
    const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    assert.equal(status, 130, stderr.slice(-500));
    assert.ok(Date.now() - sentAt < 10000, `took ${Date.now() - sentAt} ms to stop`);
    assert.match(stdout.split('\n')[0], /^\/usr\/include: \d+ files in .* — CANCELLED, partial$/);
    assert.match(stdout, /\nC\/C\+\+ Header +[1-9]/);
    assert.ok(stderr.endsWith('\n'), 'the progress line is ended');
  });

  test('bad input is refused with a message that names it', () => {
    const missing = report(path.join(project, 'nowhere'), '--progress', 'never');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nowhere/);
    const language = report(project, '--language', 'cobol');
    assert.equal(language.status, 2);
    assert.match(language.stderr, /--language cobol: unknown; use c, cpp, python/);
    const unknown = report(path.join(project, 'README.md'));
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /README\.md from its extension/);
    const progress = report(project, '--progress', 'sometimes');
    assert.notEqual(progress.status, 0);
    assert.match(progress.stderr, /--progress/);
  });
});
