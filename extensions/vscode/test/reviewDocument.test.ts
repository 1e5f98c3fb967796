import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { parseReviewRequest, replaceSection, ReviewDocument, toFileUri } from '../src/reviewDocument';

const errorOf = (payload: Record<string, unknown>) => {
  try {
    parseReviewRequest(payload, '/work');
    return '<accepted>';
  } catch (error) {
    return (error as Error).message;
  }
};

test('bad payloads are refused with the same messages as the C++ panel', () => {
  assert.equal(errorOf({}), 'Missing required parameter: content (the review, as markdown)');
  assert.equal(errorOf({ content: 3 }), 'Invalid content: expected a string of markdown, got int64');
  assert.equal(errorOf({ content: ' ' }), 'Invalid content: cannot be empty; write the review as markdown');
  assert.equal(errorOf({ content: 'x', mode: 'merge' }), 'Invalid mode "merge": must be one of replace, append, update-section');
  assert.match(errorOf({ content: 'x', mode: 'update-section' }), /^Missing required parameter: section/);
  assert.match(errorOf({ content: 'x', baseUri: 'src' }), /absolute path or a file:\/\/ URI/);
});

test('modes: replace keeps a history, append adds, update-section replaces one section', () => {
  const document = new ReviewDocument();
  const request = (content: string, mode = 'replace', section?: string) => parseReviewRequest({ content, mode, section }, '/work');
  document.apply(request('## Summary\nok\n\n## Findings\n- old'));
  document.apply(request('## Suggestions\n- more', 'append'));
  document.apply(request('- new', 'update-section', 'Findings'));
  assert.equal(document.current.markdown, '## Summary\nok\n\n## Findings\n\n- new\n\n## Suggestions\n- more');
  assert.equal(document.current.revision, 3);
  document.apply(request('# Second'));
  assert.equal(document.history.length, 1);
  assert.equal(toFileUri('/a b'), 'file:///a%20b');
  assert.equal(replaceSection('## Code\n```\n## Findings\n```\n', 'Findings', 'x'), '## Code\n```\n## Findings\n```\n\n## Findings\n\nx\n');
});
