// The header's model picker. The choice belongs to the conversation: the host keeps it per session
// and tells every tab of it (`model`), so the picker shows what the host says, not what was clicked.
// The provider's list is asked for once (`list_models`); a provider without one (many local
// servers) leaves the current name alone in the picker, with the reason as its tooltip.

import { el } from './host-dom.js';

/**
 * `select`: the <select>; `request(type, payload, {onAnswer, onError})` and `send(type, payload)`
 * as in host.js; `onModel(model, isDefault)` hears each model the host names.
 */
export function createModelPicker({ select, request, send, onModel }) {
  let current = '';            // the model answering in this conversation
  let fallback = '';           // the host's default, which set_model names with ""
  let choices = [];            // [{ id, displayName? }] from the provider
  let problem = '';            // why there is no list
  let asked = false;
  let answered = false;
  let picked = false;          // the host named this conversation's own model (a `model` frame)

  function render() {
    const seen = new Set();
    const options = [];
    for (const choice of choices) {
      if (!choice?.id || seen.has(choice.id)) continue;
      seen.add(choice.id);
      const label = choice.displayName && choice.displayName !== choice.id ? `${choice.displayName} (${choice.id})` : choice.id;
      options.push(el('option', { value: choice.id, text: label, title: choice.id === fallback ? 'The host\'s default' : null }));
    }
    // A model the list lacks (a name typed into the host's settings, or no list at all) still shows.
    if (current && !seen.has(current)) options.unshift(el('option', { value: current, text: current }));
    select.replaceChildren(...options);
    select.value = current;
    select.title = problem || `The model answering in this chat: ${current}`;
    select.dataset.list = problem ? 'unavailable' : answered ? 'listed' : 'pending';
  }

  function list() {
    if (asked) return;
    asked = true;
    request('list_models', {}, {
      onAnswer(payload) {
        answered = true;
        choices = Array.isArray(payload.models) ? payload.models : [];
        problem = typeof payload.error === 'string' ? payload.error : '';
        render();
      },
      // Lost with the connection: asked again when the next connection names the model.
      onError(message) {
        asked = false;
        problem = message;
        render();
      },
    });
  }

  select.addEventListener('change', () => {
    const chosen = select.value;
    // The picker follows the host's answer (the `model` frame); until then it shows the choice.
    if (!send('set_model', { model: chosen === fallback ? '' : chosen })) select.value = current;
  });

  return {
    /**
     * The host's default (`servers` frame, llm.model): the conversation's model unless a `model`
     * frame named another. Sent again whenever a server changes, so it must not undo a pick.
     */
    defaults(model) {
      if (typeof model !== 'string' || !model) return;
      fallback = model;
      if (picked) return render();
      current = model;
      select.hidden = false;
      render();
      onModel?.(current, true);
      list();
    },
    /** A new connection: its greeting says again whether the conversation picked a model. */
    reset() { picked = false; },
    /** The `model` frame: on connect when the conversation picked one, and whenever a tab of it picks. */
    show({ model, default: defaultModel }) {
      picked = true;
      current = typeof model === 'string' ? model : '';
      fallback = typeof defaultModel === 'string' ? defaultModel : current;
      select.hidden = !current;
      render();
      onModel?.(current, current === fallback);
      if (current) list();
    },
    /** No model is configured (the `servers` frame said so): nothing to pick. */
    hide() { select.hidden = true; },
  };
}
