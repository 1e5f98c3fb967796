// The extension's IPC core without VS Code: `node out/src/standalone.js SOCKET [STATE_FILE]`
// serves the review protocol; after each change, before replying, it writes the review as JSON,
// {revision, mode, markdown}, to STATE_FILE. The protocol test suite runs it beside
// `mcpkit review-panel`.

import * as fs from 'node:fs';
import { startIpcServer } from './ipcCore';
import { ArgumentError, parseReviewRequest, ReviewDocument } from './reviewDocument';

async function main(): Promise<void> {
  const [socketPath, stateFile] = process.argv.slice(2);
  if (!socketPath) {
    process.stderr.write('usage: standalone.js SOCKET [STATE_FILE]\n');
    process.exit(2);
  }
  const document = new ReviewDocument();
  const server = await startIpcServer({
    socketPath,
    handle: (type, payload) => {
      if (type === 'present-review' || type === 'present_review') {
        try {
          const request = parseReviewRequest(payload, process.cwd());
          const review = document.apply(request);
          if (stateFile)
            fs.writeFileSync(stateFile, JSON.stringify({ revision: review.revision, mode: request.mode, markdown: review.markdown }));
          return { success: true };
        } catch (error) {
          if (error instanceof ArgumentError) return { success: false, error: error.message };
          throw error;
        }
      }
      if (type === 'log') return { success: true };
      return { success: false, error: 'Unknown message type: ' + type };
    },
  });
  process.stderr.write('listening on ' + server.socketPath + '\n');
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(String(error instanceof Error ? error.message : error) + '\n');
  process.exit(1);
});
