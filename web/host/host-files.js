// Files the user attaches to a message — pasted, dropped on the message box, or picked with
// Attach: pictures (PNG, JPEG, GIF, WebP, up to 700 KB) go to the model as pictures, text files (up
// to 200 KB) as text after the message; at most 4 (the host checks the same, docs/host.md).

import { el } from './host-dom.js';

const PICTURES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_PICTURE = 700 * 1024;
const MAX_TEXT = 200 * 1024;
const MAX_FILES = 4;
// A page's WebSocket message is at most 1 MiB: the files of one message, with room for the rest.
const MAX_TOTAL = 900 * 1024;
export const FILE_LIMITS = 'Pictures (PNG, JPEG, GIF, WebP) up to 700 KB, text files up to 200 KB, 4 at most and 900 KB in all.';
const sizeOf = (file) => (file.data ? file.data.length : new TextEncoder().encode(file.text).length);

const isText = (file) => file.type.startsWith('text/') || file.type === 'application/json' ||
  (!file.type && /\.(txt|md|csv|log|json|ya?ml|toml|ini|xml|html?|css|js|mjs|ts|tsx|py|rb|go|rs|java|kt|c|cc|cpp|h|hpp|sh|sql)$/i.test(file.name));

function readAs(file, how) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    if (how === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}

/** `area`: where the chips go; `picker`: an <input type=file>; `onError(text)` says why a file was refused. */
export function createFileAttachments({ area, picker, onError, changed = () => {} }) {
  let files = [];  // { name, mimeType, data? , text?, url? }

  function render() {
    area.replaceChildren(...files.map((file, i) => el('span', { class: 'chip file-chip', testid: 'file-chip', title: file.name },
      file.url ? el('img', { class: 'file-thumb', src: file.url, alt: '' }) : el('span', { class: 'icon', 'aria-hidden': 'true', text: '¶' }),
      el('span', { text: file.name }),
      el('button', { type: 'button', class: 'icon-button', 'aria-label': `Remove ${file.name}`, text: '×',
        onclick: () => { files.splice(i, 1); render(); } }))));
    area.hidden = files.length === 0;
    changed();
  }

  async function add(list) {
    for (const file of list) {
      if (files.length >= MAX_FILES) { onError(`At most ${MAX_FILES} files a message.`); break; }
      try {
        let entry;
        if (PICTURES.includes(file.type)) {
          if (file.size > MAX_PICTURE) { onError(`${file.name} is over 700 KB. ${FILE_LIMITS}`); continue; }
          const url = await readAs(file, 'url');
          entry = { name: file.name, mimeType: file.type, data: url.slice(url.indexOf(',') + 1), url };
        } else if (isText(file)) {
          if (file.size > MAX_TEXT) { onError(`${file.name} is over 200 KB. ${FILE_LIMITS}`); continue; }
          entry = { name: file.name, mimeType: file.type || 'text/plain', text: await readAs(file, 'text') };
        }
        if (entry) {
          const total = files.reduce((sum, each) => sum + sizeOf(each), 0) + sizeOf(entry);
          if (total > MAX_TOTAL) { onError(`With ${file.name} the files come to over 900 KB. ${FILE_LIMITS}`); continue; }
          files.push(entry);
        } else {
          onError(`${file.name} is neither a picture nor a text file. ${FILE_LIMITS}`);
        }
      } catch (error) {
        onError(`${file.name} could not be read: ${error?.message || error}`);
      }
    }
    render();
  }

  picker.addEventListener('change', () => { add([...picker.files]); picker.value = ''; });

  return {
    add,
    count: () => files.length,
    /** The files for a `message` frame, and the box empty again. */
    take() {
      const taken = files.map(({ name, mimeType, data, text }) => (data ? { name, mimeType, data } : { name, mimeType, text }));
      const shown = files.map(({ name, url }) => ({ name, url }));
      files = [];
      render();
      return { taken, shown };
    },
  };
}
