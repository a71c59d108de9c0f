#!/usr/bin/env node
// `npx catalogue …`: runs the CLI's TypeScript sources without a build. Workspace packages
// resolve to their sources through the `catalogue-source` export condition, which must be set
// when node starts, so the CLI runs in a child node with that condition and tsx's loader.
// Paths are resolved from this file, so any working directory works.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;
const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

const child = spawn(process.execPath, ['--conditions=catalogue-source', '--import', tsxLoader, main, ...process.argv.slice(2)], { stdio: 'inherit' });

// Ctrl-C reaches the child through the terminal's process group; forward explicit signals too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 : 1);
});
child.on('error', (error) => {
  console.error(`catalogue: cannot start node: ${error.message}`);
  process.exitCode = 1;
});
