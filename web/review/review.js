// The review panel page: shows the current review, follows changes through the event stream,
// opens references in the editor, copies the markdown, and browses earlier reviews.
'use strict';

const token = new URLSearchParams(location.search).get('token') || '';
const view = {
  title: document.getElementById('title'),
  review: document.getElementById('review'),
  history: document.getElementById('history'),
  copy: document.getElementById('copy'),
  status: document.getElementById('status'),
};
let shown = null;       // the review on screen
let latest = 0;         // the newest revision
let pinned = false;     // showing an earlier review from the history

function say(text, failed) {
  view.status.textContent = text;
  view.status.classList.toggle('failed', Boolean(failed));
}

async function fetchReview(revision) {
  const query = new URLSearchParams({ token });
  if (revision) query.set('revision', String(revision));
  const response = await fetch('/api/review?' + query);
  if (!response.ok) throw new Error((await response.json()).error || response.statusText);
  return response.json();
}

function render(review) {
  shown = review;
  view.title.textContent = review.revision ? (review.title || 'Review') : 'Waiting for a review…';
  document.title = review.revision ? 'Review: ' + (review.title || review.revision) : 'Review';
  // The HTML comes from the panel's own markdown renderer, which drops raw HTML from reviews.
  view.review.innerHTML = review.revision ? review.html : view.review.innerHTML;
  view.review.dataset.revision = String(review.revision);
  view.copy.disabled = !review.revision;
  document.body.classList.toggle('earlier', pinned);
}

function renderHistory(current) {
  view.history.replaceChildren();
  const entries = [{ revision: current.revision, title: current.title, updated: current.updated, current: true },
                   ...current.history];
  for (const entry of entries) {
    if (!entry.revision) continue;
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = (entry.title || 'Review') + (entry.current ? ' (current)' : '');
    button.title = entry.updated;
    button.dataset.revision = String(entry.revision);
    button.addEventListener('click', () => showRevision(entry.revision, Boolean(entry.current)));
    item.append(button);
    view.history.append(item);
  }
}

async function refresh() {
  try {
    const current = await fetchReview();
    latest = current.revision;
    renderHistory(current);
    if (!pinned) render(current);
  } catch (error) {
    say('Could not load the review: ' + error.message, true);
  }
}

async function showRevision(revision, current) {
  pinned = !current;
  try {
    render(await fetchReview(current ? 0 : revision));
    say(current ? '' : 'Showing an earlier review; pick the current one to follow changes');
  } catch (error) {
    say(error.message, true);
  }
}

async function openReference(link) {
  const target = new URL(link.href);
  const body = { path: target.searchParams.get('path'), line: Number(target.searchParams.get('line')) };
  if (target.searchParams.get('end')) body.end = Number(target.searchParams.get('end'));
  try {
    const response = await fetch('/open', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Review-Token': token },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    say('Opened ' + answer.opened);
  } catch (error) {
    say('Could not open ' + body.path + ': ' + error.message, true);
  }
}

document.addEventListener('click', (event) => {
  const link = event.target.closest('a');
  if (!link || !view.review.contains(link)) return;
  if (new URL(link.href).pathname === '/open' && new URL(link.href).origin === location.origin) {
    event.preventDefault();
    openReference(link);
  }
});

view.copy.addEventListener('click', async () => {
  if (!shown) return;
  try {
    await navigator.clipboard.writeText(shown.markdown);
  } catch {
    // No clipboard permission (an http page, a headless browser): the selection route still works.
    const area = document.createElement('textarea');
    area.value = shown.markdown;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  say('Copied the markdown');
});

function listen() {
  const events = new EventSource('/api/events?' + new URLSearchParams({ token }));
  events.addEventListener('review', (event) => {
    const { revision } = JSON.parse(event.data);
    if (revision !== latest) refresh();
  });
  events.onopen = () => say('');
  events.onerror = () => say('Disconnected from the panel; retrying…', true);
}

refresh();
listen();
