import { readFileSync } from "node:fs";
import vm from "node:vm";

/** dist/ as built by `npm run build`: tests exercise the very files the extension ships. */
const distDirectory = new URL("../../../dist/", import.meta.url);

/**
 * Runs compiled page scripts (classic scripts, see src/page/page-parts.d.ts) in a fresh V8 context
 * and returns what they registered. `globals` become that context's globals (fake DOM pieces).
 */
export function loadPageScripts(files: string[], globals: Record<string, unknown> = {}, options: vm.CreateContextOptions = {}): any {
  const context = vm.createContext({ ...globals }, options);
  for (const file of files) {
    vm.runInContext(readFileSync(new URL(file, distDirectory), "utf8"), context, { filename: file });
  }
  return (context as { __mcpkitDevconsoleParts?: unknown }).__mcpkitDevconsoleParts;
}

/** A fresh context with the given options; for code that must run outside this test's realm. */
export function createContext(globals: Record<string, unknown> = {}, options: vm.CreateContextOptions = {}): vm.Context {
  return vm.createContext({ ...globals }, options);
}

export function readDistFile(file: string): string {
  return readFileSync(new URL(file, distDirectory), "utf8");
}
