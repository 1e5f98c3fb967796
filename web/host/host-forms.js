// Forms generated from JSON Schema: an elicitation's requestedSchema and a tool's inputSchema.
//
// Each property becomes a labelled control: string (format email/uri/date/date-time/time → the
// matching input type, minLength/maxLength/pattern), number/integer (minimum/maximum, step),
// boolean (checkbox), enum and oneOf/anyOf of {const, title} (select), arrays of such (checkbox
// group), anything else (arrays, objects, unions) as a JSON textarea. Titles and descriptions label
// the controls, required ones are marked, defaults are filled in. collect() answers the values with
// their JSON types (numbers as numbers), leaving out optional fields the user left empty.

import { el, freshId, prettyJson } from './host-dom.js';

const LONG_TEXT = /(?:content|body|text|message|description|code|query|script|prompt|markdown|diff|patch|sql)$/i;

function mainType(schema) {
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  if (!type) {
    if ('const' in schema) type = typeof schema.const;
    else if (schema.properties) type = 'object';
    else if (schema.items) type = 'array';
  }
  return type;
}

/** [{value, title}] for an enum-like schema, or null. */
function choicesOf(schema) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value, title: names[i] ?? String(value) }));
  }
  const alternatives = schema.oneOf || schema.anyOf;
  if (Array.isArray(alternatives) && alternatives.length && alternatives.every((alt) => alt && typeof alt === 'object' && 'const' in alt)) {
    return alternatives.map((alt) => ({ value: alt.const, title: alt.title ?? String(alt.const) }));
  }
  return null;
}

function kindOf(schema) {
  if (!schema || typeof schema !== 'object') return 'json';
  if (choicesOf(schema)) return 'select';
  const type = mainType(schema);
  if (type === 'array' && choicesOf(schema.items)) return 'multi';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') return type;
  if (type === 'string') return 'string';
  return 'json';
}

const STRING_INPUTS = { email: 'email', uri: 'url', url: 'url', 'uri-reference': 'text', date: 'date', 'date-time': 'datetime-local', time: 'time' };

function toLocalDateTime(value) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One property's field: { node, control, collect() → {value?, error?} }. */
function buildField(name, schema, required, idPrefix) {
  const id = `${idPrefix}-${name.replace(/[^\w-]/g, '_')}`;
  const kind = kindOf(schema);
  const title = (schema && schema.title) || name;
  const description = schema && schema.description;
  const hasDefault = schema && 'default' in schema;
  const descriptionId = description ? `${id}-description` : null;
  const hint = description ? el('small', { class: 'field-hint', id: descriptionId, text: description }) : null;
  const mark = required ? el('span', { class: 'required', 'aria-hidden': 'true', text: '*' }) : null;
  const common = { id, name, 'aria-describedby': descriptionId, required, 'aria-required': required ? 'true' : null };
  let control;
  let collect;

  if (kind === 'boolean') {
    control = el('input', { ...common, type: 'checkbox', required: false, checked: hasDefault ? Boolean(schema.default) : false });
    let touched = false;
    control.addEventListener('change', () => { touched = true; });
    collect = () => (required || hasDefault || touched ? { value: control.checked } : {});
    const label = el('label', { class: 'check-label', for: id }, control, el('span', { text: title }), mark);
    return { node: el('div', { class: 'field field-boolean', dataset: { field: name } }, label, hint), control, collect };
  }

  if (kind === 'select') {
    const choices = choicesOf(schema);
    const placeholder = el('option', { value: '', text: required ? 'Choose…' : '—' });
    const options = choices.map((choice, i) => el('option', { value: String(i), text: choice.title }));
    const initial = hasDefault ? choices.findIndex((choice) => sameValue(choice.value, schema.default)) : -1;
    control = el('select', { ...common, value: initial >= 0 ? String(initial) : '' }, placeholder, options);
    collect = () => (control.value === '' ? {} : { value: choices[Number(control.value)].value });
  } else if (kind === 'multi') {
    const choices = choicesOf(schema.items);
    const defaults = Array.isArray(schema.default) ? schema.default : [];
    const boxes = choices.map((choice, i) => el('input', {
      type: 'checkbox', id: `${id}-${i}`, value: String(i), checked: defaults.some((value) => sameValue(value, choice.value)),
    }));
    control = boxes[0] || el('span');
    const group = el('fieldset', { class: 'field field-multi', dataset: { field: name }, 'aria-describedby': descriptionId },
      el('legend', {}, title, mark),
      boxes.map((box, i) => el('label', { class: 'check-label', for: box.id }, box, el('span', { text: choices[i].title }))),
      hint);
    collect = () => {
      const value = boxes.filter((box) => box.checked).map((box) => choices[Number(box.value)].value);
      if (required && !value.length) return { error: 'Choose at least one.', control };
      if (schema.minItems && value.length < schema.minItems) return { error: `Choose at least ${schema.minItems}.`, control };
      if (schema.maxItems && value.length > schema.maxItems) return { error: `Choose at most ${schema.maxItems}.`, control };
      return value.length || required ? { value } : {};
    };
    return { node: group, control, collect };
  } else if (kind === 'integer' || kind === 'number') {
    const minimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
    const maximum = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
    control = el('input', {
      ...common, type: 'number', inputmode: kind === 'integer' ? 'numeric' : 'decimal', step: kind === 'integer' ? '1' : 'any',
      min: minimum, max: maximum, value: hasDefault && typeof schema.default === 'number' ? String(schema.default) : null,
    });
    collect = () => {
      if (control.value === '') return {};
      const value = Number(control.value);
      if (!Number.isFinite(value)) return { error: 'Enter a number.', control };
      if (kind === 'integer' && !Number.isInteger(value)) return { error: 'Enter a whole number.', control };
      if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return { error: `Must be more than ${schema.exclusiveMinimum}.`, control };
      if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return { error: `Must be less than ${schema.exclusiveMaximum}.`, control };
      return { value };
    };
  } else if (kind === 'string') {
    const format = schema.format;
    const inputType = STRING_INPUTS[format] || 'text';
    let initial = hasDefault && typeof schema.default === 'string' ? schema.default : '';
    if (initial && inputType === 'datetime-local') initial = toLocalDateTime(initial);
    const long = inputType === 'text' && !format && (LONG_TEXT.test(name) || (schema.maxLength || 0) > 200);
    const limits = { minlength: schema.minLength, maxlength: schema.maxLength };
    control = long
      ? el('textarea', { ...common, ...limits, rows: 3, value: initial })
      : el('input', { ...common, ...limits, type: inputType, pattern: schema.pattern, value: initial, autocomplete: inputType === 'email' ? 'email' : 'off' });
    if (inputType === 'datetime-local') control.step = '1';
    collect = () => {
      if (control.value === '') return {};
      if (inputType === 'datetime-local') {
        const date = new Date(control.value);
        return Number.isNaN(date.getTime()) ? { error: 'Enter a date and time.', control } : { value: date.toISOString() };
      }
      if (long && schema.pattern && !new RegExp(`^(?:${schema.pattern})$`, 'u').test(control.value)) {
        return { error: `Must match ${schema.pattern}.`, control };
      }
      return { value: control.value };
    };
  } else {
    const type = mainType(schema || {});
    control = el('textarea', {
      ...common, class: 'json-input', rows: 4, spellcheck: 'false',
      placeholder: type === 'array' ? '[ … ]  (JSON)' : type === 'object' ? '{ … }  (JSON)' : 'JSON value',
      value: hasDefault ? prettyJson(schema.default) : '',
    });
    collect = () => {
      if (control.value.trim() === '') return {};
      try {
        const value = JSON.parse(control.value);
        if (type === 'array' && !Array.isArray(value)) return { error: 'Enter a JSON array.', control };
        if (type === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) return { error: 'Enter a JSON object.', control };
        return { value };
      } catch (error) {
        return { error: `Not valid JSON: ${error.message}`, control };
      }
    };
  }
  const label = el('label', { for: id }, el('span', { text: title }), mark,
    kind === 'json' ? el('span', { class: 'field-type', text: mainType(schema || {}) || 'json' }) : null);
  return { node: el('div', { class: `field field-${kind}`, dataset: { field: name } }, label, control, hint), control, collect };
}

/**
 * The fields for an object schema. Answers { node, collect(), focus(), empty }: collect() checks the
 * controls (showing the browser's messages) and answers { ok: true, value } or { ok: false }.
 */
export function schemaFields(schema, { idPrefix = freshId('f') } = {}) {
  const properties = (schema && typeof schema === 'object' && schema.properties) || {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const fields = Object.entries(properties).map(([name, property]) => ({ name, ...buildField(name, property, required.has(name), idPrefix) }));
  const node = el('div', { class: 'fields' }, fields.map((field) => field.node));
  // `quiet`: answer what is there without showing the browser's messages (to seed a JSON editor).
  const collect = ({ quiet = false } = {}) => {
    const value = {};
    for (const field of fields) field.control.setCustomValidity?.('');
    for (const field of fields) {
      const answer = field.collect();
      if (answer.error) {
        answer.control.setCustomValidity(answer.error);
        answer.control.addEventListener('input', () => answer.control.setCustomValidity(''), { once: true });
        answer.control.addEventListener('change', () => answer.control.setCustomValidity(''), { once: true });
      }
      if ('value' in answer) value[field.name] = answer.value;
    }
    const invalid = fields.find((field) => field.control.matches?.(':invalid'));
    if (quiet) return { ok: !invalid, value };
    if (invalid) {
      invalid.control.reportValidity();
      invalid.control.focus();
      return { ok: false };
    }
    return { ok: true, value };
  };
  const focus = () => fields[0]?.control.focus();
  return { node, collect, focus, empty: fields.length === 0 };
}
