// activate() with the vscode module substituted (test/stub/vscode): the socket, the variable for
// terminals, the discovery file, the webview, opening references and copying.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
// eslint-disable-next-line @typescript-eslint/no-var-requires
const vscode = require('vscode');
import { activate, deactivate, runtimeDirectory } from '../src/extension';

function send(socketPath: string, message: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\n')) {
        socket.end();
        resolve(JSON.parse(received.slice(0, received.indexOf('\n'))));
      }
    });
    socket.on('error', reject);
    socket.write(JSON.stringify(message) + '\n');
  });
}

test('activation serves the socket, sets DIALECTIC_IPC_PATH and shows reviews with working references', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ext-'));
  process.env.MCPKIT_REVIEW_DISCOVERY = path.join(home, 'review-panel.json');
  fs.writeFileSync(path.join(home, 'main.cpp'), 'int x;\nint main() {\n}\n');
  const context = vscode.__makeContext(path.join(home, 'storage'));
  await activate(context);
  try {
    await exercise(home);
  } finally {
    await deactivate();
  }
  assert.ok(!fs.existsSync(path.join(home, 'storage', 'review.sock')));
  assert.ok(!fs.existsSync(process.env.MCPKIT_REVIEW_DISCOVERY!));
  fs.rmSync(home, { recursive: true });
});

async function exercise(home: string): Promise<void> {
  const calls = vscode.__calls;
  const socketPath = calls.environment.DIALECTIC_IPC_PATH;
  assert.equal(socketPath, path.join(home, 'storage', 'review.sock'));
  assert.equal(fs.statSync(socketPath).mode & 0o777, 0o600);
  assert.deepEqual(JSON.parse(fs.readFileSync(process.env.MCPKIT_REVIEW_DISCOVERY!, 'utf8')), { socket: socketPath, pid: process.pid });

  const reply = await send(socketPath, { type: 'present-review', id: 'a1', payload: { content: '## Summary\nSee `main.cpp?int main(`', baseUri: home } });
  assert.deepEqual(reply, { id: 'a1', success: true });
  assert.equal(calls.panels.length, 1);
  const panel = calls.panels[0];
  assert.equal(panel.title, 'Review: Summary');
  assert.match(panel.webview.html, /<h2>Summary<\/h2>/);
  assert.match(panel.webview.html, /data-line="2"/);

  await panel.receive({ command: 'open', path: path.join(home, 'main.cpp'), line: 2 });
  assert.equal(calls.shownDocuments.length, 1);
  assert.equal(calls.shownDocuments[0].document.uri.fsPath, path.join(home, 'main.cpp'));
  assert.equal(calls.shownDocuments[0].options.selection.start.line, 1);
  await panel.receive({ command: 'copy' });
  assert.equal(calls.clipboard, '## Summary\nSee `main.cpp?int main(`');
  await calls.commands['mcpkitReview.copy']();

  const refused = await send(socketPath, { type: 'present-review', id: 'a2', payload: { content: 'x', mode: 'merge' } });
  assert.equal(refused.success, false);
  assert.match(String(refused.error), /Invalid mode/);

}

test('the runtime directory is refused when another user could have made it: a symlink, open under a shared parent', () => {
  const saved = process.env.XDG_RUNTIME_DIR;
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-'));
  try {
    process.env.XDG_RUNTIME_DIR = shared;
    // Ours and private: made 0700.
    assert.equal(fs.statSync(runtimeDirectory()).mode & 0o777, 0o700);
    fs.rmSync(path.join(shared, 'mcpkit'), { recursive: true });
    // A planted symlink.
    fs.mkdirSync(path.join(shared, 'elsewhere'));
    fs.symlinkSync(path.join(shared, 'elsewhere'), path.join(shared, 'mcpkit'));
    assert.throws(() => runtimeDirectory(), /is a symbolic link/);
    fs.rmSync(path.join(shared, 'mcpkit'));
    // Open, under a parent everyone may write to (as /tmp).
    fs.chmodSync(shared, 0o1777);
    fs.mkdirSync(path.join(shared, 'mcpkit'));
    fs.chmodSync(path.join(shared, 'mcpkit'), 0o777);
    assert.throws(() => runtimeDirectory(), /has mode 777 under the shared directory/);
  } finally {
    if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved;
    fs.rmSync(shared, { recursive: true, force: true });
  }
});
