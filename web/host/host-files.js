// Files the user attaches to a message — pasted, dropped on the message box, or picked with
// Attach: pictures (PNG, JPEG, GIF, WebP, up to 700 KB) go to the model as pictures, text files (up
// to 200 KB) as text after the message; at most 4 (the host checks the same, docs/host.md).

import { el } from './host-dom.js';

const PICTURES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_PICTURE = 700 * 1024;
const MAX_TEXT = 200 * 1024;
const MAX_FILES = 4;
export const FILE_LIMITS = 'Pictures (PNG, JPEG, GIF, WebP) up to 700 KB, text files up to 200 KB, 4 at most.';

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
        if (PICTURES.includes(file.type)) {
          if (file.size > MAX_PICTURE) { onError(`${file.name} is over 700 KB. ${FILE_LIMITS}`); continue; }
          const url = await readAs(file, 'url');
          files.push({ name: file.name, mimeType: file.type, data: url.slice(url.indexOf(',') + 1), url });
        } else if (isText(file)) {
          if (file.size > MAX_TEXT) { onError(`${file.name} is over 200 KB. ${FILE_LIMITS}`); continue; }
          files.push({ name: file.name, mimeType: file.type || 'text/plain', text: await readAs(file, 'text') });
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
