// The browser side of the devconsole tests: a test site (an app page that exercises every capture
// kind, a strict-CSP page, JSON endpoints, a WebSocket echo, pages of links) and Debian's Chromium
// with the mcpkit extension (extensions/chrome/dist) loaded, pointed at a daemon.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { repo } from './support.mjs';

const dist = path.join(repo, 'extensions/chrome/dist');

export const APP = `<!doctype html><html lang="en"><head><title>devconsole test app</title>
<script>console.log('app: loading', { n: 1, nested: { a: [1, 2, 3] } }); console.debug('app: debug line');</script></head>
<body><main><h1 id="title">Test app</h1>
<button id="btn" onclick="this.textContent = 'clicked ' + (++window.clicks)">Click me</button>
<form id="signup"><label>Name <input id="name" name="name" required></label>
<label>Password <input id="password" name="password" type="password"></label></form>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">
<div id="later"></div></main>
<script>
window.clicks = 0;
setTimeout(async () => {
  console.info('app: info'); console.warn('app: warning'); console.error('app: error', new Error('inner'));
  const cycle = { name: 'cycle' }; cycle.self = cycle; console.log('app: cycle', cycle, document.getElementById('btn'));
  await fetch('/data.json'); await fetch('/missing.json');
  const xhr = new XMLHttpRequest(); xhr.open('POST', '/echo'); xhr.send(JSON.stringify({ sent: true }));
  const socket = new WebSocket('ws://' + location.host + '/ws');
  socket.onopen = () => socket.send('ping from page');
  setTimeout(() => { throw new Error('app: uncaught boom'); }, 50);
  Promise.reject(new Error('app: unhandled rejection'));
}, 300);
setTimeout(() => { document.getElementById('later').innerHTML = '<p id="late">arrived late</p>'; }, 1500);
</script></body></html>`;

/** The test site: the app, a strict-CSP page, JSON endpoints and a WebSocket echo. */
export function startSite() {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const send = (status, type, body, headers = {}) => {
      response.writeHead(status, { 'Content-Type': type, ...headers });
      response.end(body);
    };
    if (url.pathname === '/app.html') return send(200, 'text/html', APP);
    if (url.pathname === '/blank.html') return send(200, 'text/html', '<title>blank</title>');
    if (url.pathname === '/second.html') return send(200, 'text/html', '<title>second page</title><p id="second">second</p>');
    if (url.pathname === '/strict.html')
      return send(200, 'text/html', '<title>strict</title><button id="b" onclick="">b</button><p id="p">no eval here</p>',
        { 'Content-Security-Policy': "script-src 'self'" });
    if (url.pathname === '/links.html')
      return send(200, 'text/html', '<title>links</title><a href="/data.json">ok</a> <a href="/missing.json">broken</a> ' +
        '<a href="#top">anchor</a> <a href="mailto:a@b.c">mail</a>');
    if (url.pathname === '/outward.html')  // links to wherever ?to= says
      return send(200, 'text/html', '<title>outward</title>' +
        url.searchParams.getAll('to').map((to) => `<a href="${encodeURI(to)}">${encodeURI(to)}</a>`).join(' '));
    if (url.pathname === '/modal.html')
      return send(200, 'text/html', '<title>modal</title><div role="dialog" aria-modal="true" id="modal" ' +
        'style="position:fixed;inset:10%;z-index:100;background:white"><p>Subscribe?</p>' +
        '<button aria-label="Close" onclick="this.parentNode.remove()">×</button></div>');
    if (url.pathname === '/data.json') return send(200, 'application/json', JSON.stringify({ data: { items: [{ id: 7 }] } }));
    if (url.pathname === '/echo') {
      let body = '';
      for await (const chunk of request) body += chunk;
      return send(200, 'application/json', body);
    }
    send(404, 'text/plain', 'not here');
  });
  server.on('upgrade', (request, socket) => {
    const accept = createHash('sha1').update(request.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const frame = (text) => Buffer.concat([Buffer.from([0x81, Buffer.byteLength(text)]), Buffer.from(text)]);
    socket.write(frame('hello from server'));
    socket.on('data', (data) => {
      if ((data[0] & 0x0f) !== 1) return;
      const length = data[1] & 0x7f;
      const mask = data.subarray(2, 6);
      socket.write(frame(`echo: ${Buffer.from(data.subarray(6, 6 + length).map((b, i) => b ^ mask[i % 4]))}`));
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function launchBrowser(daemonBase, extraArgs = []) {
  const context = await chromium.launchPersistentContext('', {
    executablePath: '/usr/bin/chromium',
    headless: false,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--disable-extensions-except=${dist}`, `--load-extension=${dist}`, ...extraArgs],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15000 }));
  await worker.evaluate((url) => globalThis.devconsole.setServerUrl(url), daemonBase);
  return { context, worker };
}
