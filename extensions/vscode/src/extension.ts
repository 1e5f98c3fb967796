// The VS Code side of mcpkit review: the IPC server on a socket in the extension's storage, the
// DIALECTIC_IPC_PATH variable for new terminals (and the discovery file for everything else), and
// a webview panel that renders the review; references open the document at the line.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startIpcServer, RunningIpcServer } from './ipcCore';
import { ArgumentError, fileUriToPath, parseReviewRequest, Review, ReviewDocument, titleOf } from './reviewDocument';
import { renderReview } from './references';

/** Longest Unix socket path Linux accepts (sun_path is 108 bytes with its NUL). */
const maxSocketPath = 107;

/**
 * $XDG_RUNTIME_DIR/mcpkit, else /tmp/mcpkit-<uid>, made 0700 or checked as `mcpkit review` checks
 * it: another user may have made it first in /tmp (or planted a symlink) to read what lands there.
 * Throws an Error naming the path, what is wrong and the fix.
 */
export function runtimeDirectory(): string {
  const base = process.env.XDG_RUNTIME_DIR;
  const directory = base ? path.join(base, 'mcpkit') : path.join(os.tmpdir(), 'mcpkit-' + process.getuid!());
  try {
    fs.mkdirSync(directory, { recursive: Boolean(base), mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const status = fs.lstatSync(directory);
  if (status.isSymbolicLink()) throw new Error(`${directory} is a symbolic link, which another user may have planted; remove it`);
  if (!status.isDirectory()) throw new Error(`${directory} is not a directory; remove it`);
  if (status.uid !== process.getuid!()) {
    throw new Error(`${directory} belongs to user id ${status.uid}, not to you (${process.getuid!()}); ` +
      'ask them or an administrator to remove it, or set XDG_RUNTIME_DIR to a directory of yours');
  }
  if ((status.mode & 0o077) !== 0) {
    const parent = fs.statSync(path.dirname(directory));
    if (parent.uid !== process.getuid!() || (parent.mode & 0o022) !== 0) {
      throw new Error(`${directory} has mode ${(status.mode & 0o777).toString(8)} under the shared directory ` +
        `${path.dirname(directory)}, so other users may have put files in it; remove it (rm -r ${directory})`);
    }
    fs.chmodSync(directory, 0o700);
  }
  return directory;
}

export function discoveryFilePath(): string {
  return process.env.MCPKIT_REVIEW_DISCOVERY || path.join(runtimeDirectory(), 'review-panel.json');
}

/** The socket lives in the extension's storage, unless that path is too long for a socket. */
export function chooseSocketPath(storage: string): string {
  const preferred = path.join(storage, 'review.sock');
  if (preferred.length <= maxSocketPath) return preferred;
  try {
    return path.join(runtimeDirectory(), 'vscode-' + process.pid + '.sock');
  } catch {
    // The runtime directory is not the user's alone: a fresh private one (mkdtemp makes it 0700).
    return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-vscode-')), 'review.sock');
  }
}

function nonce(): string {
  return [...Array(24)].map(() => Math.floor(Math.random() * 36).toString(36)).join('');
}

export class ReviewView {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly document: ReviewDocument) {}

  show(): void {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      this.panel = vscode.window.createWebviewPanel('mcpkitReview', 'Review', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, retainContextWhenHidden: true });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((message) => this.onMessage(message));
    }
    this.update();
  }

  update(): void {
    if (!this.panel) return;
    const review = this.document.current;
    this.panel.title = review.revision ? 'Review: ' + titleOf(review.markdown) : 'Review';
    this.panel.webview.html = this.html(review);
  }

  private html(review: Review): string {
    const scriptNonce = nonce();
    const base = fileUriToPath(review.baseUri) ?? process.cwd();
    const body = review.revision
      ? renderReview(review.markdown, base).html
      : '<p>No review yet. An assistant shows one here by calling <code>present_review</code>.</p>';
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${scriptNonce}'">
<style>body{font-family:var(--vscode-font-family);line-height:1.5;padding:0 1rem}
a.reference{text-decoration:underline dotted;cursor:pointer}pre{padding:.6rem;overflow-x:auto;background:var(--vscode-textCodeBlock-background)}
header{display:flex;justify-content:flex-end}</style></head>
<body><header><button id="copy">Copy markdown</button></header><article data-revision="${review.revision}">${body}</article>
<script nonce="${scriptNonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (event) => {
  const link = event.target.closest('a.reference');
  if (!link) return;
  event.preventDefault();
  vscode.postMessage({ command: 'open', path: link.dataset.path, line: Number(link.dataset.line), end: Number(link.dataset.end || 0) });
});
document.getElementById('copy').addEventListener('click', () => vscode.postMessage({ command: 'copy' }));
</script></body></html>`;
  }

  async onMessage(message: { command?: string; path?: string; line?: number; end?: number }): Promise<void> {
    if (message.command === 'copy') {
      await copyReview(this.document);
      return;
    }
    if (message.command !== 'open' || typeof message.path !== 'string' || !path.isAbsolute(message.path)) return;
    const line = Math.max(1, Number(message.line) || 1);
    const end = Math.max(line, Number(message.end) || line);
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(message.path));
      await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.One,
        selection: new vscode.Range(line - 1, 0, end - 1, 0),
      });
    } catch (error) {
      vscode.window.showErrorMessage('Cannot open ' + message.path + ': ' + (error instanceof Error ? error.message : String(error)));
    }
  }
}

async function copyReview(document: ReviewDocument): Promise<void> {
  if (!document.current.revision) {
    vscode.window.showInformationMessage('There is no review to copy yet.');
    return;
  }
  await vscode.env.clipboard.writeText(document.current.markdown);
  vscode.window.showInformationMessage('Review copied as markdown.');
}

let running: { server: RunningIpcServer; discovery: string } | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  fs.mkdirSync(storage, { recursive: true });
  const output = vscode.window.createOutputChannel('mcpkit Review');
  const document = new ReviewDocument();
  const view = new ReviewView(document);
  const server = await startIpcServer({
    socketPath: chooseSocketPath(storage),
    log: (message) => output.appendLine(message),
    handle: (type, payload) => {
      if (type === 'present-review' || type === 'present_review') {
        try {
          const request = parseReviewRequest(payload, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());
          document.apply(request);
        } catch (error) {
          if (error instanceof ArgumentError) return { success: false, error: error.message };
          throw error;
        }
        view.show();
        return { success: true };
      }
      if (type === 'log') {
        output.appendLine(String((payload as { message?: unknown }).message ?? ''));
        return { success: true };
      }
      return { success: false, error: 'Unknown message type: ' + type };
    },
  });
  // Terminals opened from now on find the panel through the variable; the discovery file serves the rest.
  context.environmentVariableCollection.replace('DIALECTIC_IPC_PATH', server.socketPath);
  // A runtime directory that is not the user's alone gets no discovery file (it would tell its
  // owner where reviews go): the terminals' variable still works.
  let discovery = '';
  try {
    discovery = discoveryFilePath();
    fs.writeFileSync(discovery, JSON.stringify({ socket: server.socketPath, pid: process.pid }) + '\n', { mode: 0o600 });
  } catch (error) {
    discovery = '';
    output.appendLine(`No discovery file: ${(error as Error).message}`);
  }
  running = { server, discovery };
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('mcpkitReview.show', () => view.show()),
    vscode.commands.registerCommand('mcpkitReview.copy', () => copyReview(document)),
    { dispose: () => void deactivate() },
  );
}

export async function deactivate(): Promise<void> {
  if (!running) return;
  const { server, discovery } = running;
  running = undefined;
  try {
    const recorded = JSON.parse(fs.readFileSync(discovery, 'utf8')) as { pid?: number };
    if (recorded.pid === process.pid) fs.rmSync(discovery, { force: true });
  } catch {
    // gone already
  }
  await server.close();
}
