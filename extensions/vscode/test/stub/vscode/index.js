// A stand-in for the `vscode` module, for unit tests under plain Node (NODE_PATH=test/stub):
// just enough API for the extension, recording what it was asked to do.
'use strict';

const calls = { panels: [], shownDocuments: [], clipboard: undefined, messages: [], commands: {}, environment: {} };

class Uri {
  static file(fsPath) {
    const uri = new Uri();
    uri.scheme = 'file';
    uri.fsPath = fsPath;
    return uri;
  }
}

class Range {
  constructor(startLine, startCharacter, endLine, endCharacter) {
    this.start = { line: startLine, character: startCharacter };
    this.end = { line: endLine, character: endCharacter };
  }
}

const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };

const window = {
  createWebviewPanel(viewType, title, showOptions, options) {
    const panel = {
      viewType, title, showOptions, options, revealed: 0,
      webview: { html: '', onDidReceiveMessage(listener) { panel.receive = listener; return { dispose() {} }; } },
      reveal() { panel.revealed++; },
      onDidDispose(listener) { panel.dispose = listener; return { dispose() {} }; },
    };
    calls.panels.push(panel);
    return panel;
  },
  createOutputChannel() { return { lines: [], appendLine(line) { this.lines.push(line); }, dispose() {} }; },
  showTextDocument(document, options) { calls.shownDocuments.push({ document, options }); return Promise.resolve(); },
  showErrorMessage(message) { calls.messages.push(message); return Promise.resolve(); },
  showInformationMessage(message) { calls.messages.push(message); return Promise.resolve(); },
};

const workspace = {
  workspaceFolders: undefined,
  openTextDocument(uri) { return Promise.resolve({ uri }); },
};

const commands = {
  registerCommand(name, callback) { calls.commands[name] = callback; return { dispose() {} }; },
};

const env = { clipboard: { writeText(text) { calls.clipboard = text; return Promise.resolve(); } } };

/** An ExtensionContext for activate(): storage under `storage`, the variable collection recorded. */
function makeContext(storage) {
  return {
    storageUri: Uri.file(storage),
    globalStorageUri: Uri.file(storage),
    subscriptions: [],
    environmentVariableCollection: { replace(name, value) { calls.environment[name] = value; } },
  };
}

module.exports = { Uri, Range, ViewColumn, window, workspace, commands, env, __calls: calls, __makeContext: makeContext };
