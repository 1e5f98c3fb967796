// What comes with an answer beside its text: the model's reasoning, folded above it; the notice
// while a failed request waits to be tried again; and how the answer ended — the error box of a
// failed turn (plain words, with the provider's own words folded under them) or the notice of an
// answer cut short. The transcript decides where they go; this module builds and updates them.

import { el } from './host-dom.js';

/** The model that wrote an answer, when it is not the host's default (a choice of the picker). */
export function modelLabel(model) {
  return model ? el('span', { class: 'answer-model', testid: 'answer-model', title: 'The model that wrote this answer', text: model }) : null;
}

/** `add(node)` appends to the transcript (and returns the node); `announce(text)` speaks to screen readers. */
export function createAnswers({ add, announce }) {
  let retry = null;             // { turnId, node, timer }: one notice, however many retries

  const thinking = (message) => message.reasoning?.node.dataset.state === 'thinking';

  /**
   * Adds `text` to the reasoning of `message` (the transcript's { node, body, raw }). It stays out
   * of the answer's own text, so that copying the answer copies what the model said, not what it mused.
   */
  function addReasoning(message, text, done = false) {
    if (!message.reasoning) {
      const summary = el('summary', { text: 'Thinking…' });
      const body = el('div', { class: 'reasoning-text' });
      const node = el('details', { class: 'reasoning', testid: 'reasoning', dataset: { state: 'thinking' } }, summary, body);
      message.node.insertBefore(node, message.body);
      message.reasoning = { node, summary, body };
    }
    if (text) message.reasoning.body.append(text);
    if (done) settleReasoning(message);
  }

  /** The model has moved on from thinking (its text began, a tool was called, or the turn ended). */
  function settleReasoning(message) {
    if (!thinking(message)) return;
    message.reasoning.node.dataset.state = 'done';
    message.reasoning.summary.textContent = 'Thought';
  }

  function clearRetry() {
    if (!retry) return;
    clearInterval(retry.timer);
    retry.node.remove();
    retry = null;
  }

  /**
   * A failed request of the turn is tried again after `delayMs`: a notice counts down to it. The
   * host starts the answer over (same message id), so what the failed attempt thought is dropped
   * from `messages` (the transcript's map) rather than shown twice.
   */
  function retrying({ turnId, attempt, attempts, delayMs, reason }, messages) {
    clearRetry();
    for (const [id, message] of messages) {
      if (message.turnId !== turnId || message.raw || !thinking(message)) continue;
      message.node.remove();
      messages.delete(id);
    }
    const lead = (typeof reason === 'string' && reason.trim()) || 'The answer failed.';
    const of = Number(attempts) > 0 ? ` (attempt ${attempt} of ${attempts})` : '';
    const deadline = Date.now() + Math.max(0, Number(delayMs) || 0);
    // Not a live region: a count read out every second would drown everything else; it is announced once.
    const node = el('div', { class: 'notice notice-muted retrying', testid: 'retrying', dataset: { turnId: turnId || '' } });
    const render = () => {
      const seconds = Math.ceil((deadline - Date.now()) / 1000);
      node.textContent = seconds > 0 ? `${lead} Retrying in ${seconds} s${of}…` : `${lead} Retrying now${of}…`;
    };
    render();
    // Ticking faster than the count keeps it from repeating or skipping a second as timers drift.
    retry = { turnId, node, timer: setInterval(render, 250) };
    add(node);
    announce(`${lead} Retrying${of}.`);
  }

  /** The one box of a failed answer: what went wrong and what to do; the technical side folded. */
  function failure(message, details) {
    return add(el('div', { class: 'notice notice-error turn-error', testid: 'turn-error', role: 'alert' },
      el('p', { class: 'turn-error-message', text: message || 'The answer failed.' }),
      details ? el('details', { class: 'turn-error-details', testid: 'turn-error-details' },
        el('summary', { text: 'Details' }), el('pre', { text: details })) : null));
  }

  /** An answer that ended early for a stated reason (output limit, content filter, refusal): its text stays above. */
  function ending(text) {
    return add(el('div', { class: 'notice notice-warning turn-notice', testid: 'turn-notice', role: 'status', text }));
  }

  return { addReasoning, settleReasoning, retrying, clearRetry, failure, ending };
}
