// Completes dist/ after tsc: copies the HTML/CSS, and writes manifest.json with the package's
// version and the content-script lists the worker itself uses (src/worker/page-script-files.ts).
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const staticDir = join(root, "static");
const dist = join(root, "dist");

const { MAIN_WORLD_CAPTURE_FILES, ISOLATED_CAPTURE_FILES } = await import(
  new URL("../dist/worker/page-script-files.js", import.meta.url).href
);

const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(staticDir, "manifest.json"), "utf8"));
manifest.version = packageJson.version;
manifest.content_scripts = [
  // MAIN world at document_start: hooks are in place before the page's first script runs.
  { matches: ["<all_urls>"], run_at: "document_start", all_frames: false, world: "MAIN", js: MAIN_WORLD_CAPTURE_FILES },
  { matches: ["<all_urls>"], run_at: "document_start", all_frames: false, js: ISOLATED_CAPTURE_FILES },
];
for (const file of [...MAIN_WORLD_CAPTURE_FILES, ...ISOLATED_CAPTURE_FILES]) {
  if (!existsSync(join(dist, file))) throw new Error(`content script ${file} was not built`);
}
writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");

for (const name of readdirSync(staticDir)) {
  if (name !== "manifest.json") copyFileSync(join(staticDir, name), join(dist, name));
}
console.log(`dist/ ready: mcpkit devconsole ${manifest.version}`);
