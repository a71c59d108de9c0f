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

// An import passes every COPY batch through this thread as a 1 MB buffer that dies at once; with
// V8's default 16 MB semi-spaces the loader's peak RSS was 297–308 MB at 100,000 records per kind,
// with 4 MB 277–278 MB in the same time (issue 13: goal ≤ 300 MB). bench/import runs the same.
const importing = process.argv[2] === 'import';
const nodeFlags = importing ? ['--max-semi-space-size=4'] : [];
// glibc raises its mmap threshold each time a large block is freed, so after the first few the
// 1 MB COPY batches and record segments of the import's threads came from per-thread arenas that
// keep freed memory: the loader peaked at 301–308 MB at 1 M records once a parse helper thread
// joined (issue 29), 279 MB with the threshold held at 128 kB, where every such block is mapped
// and unmapped. Other C libraries ignore the variable; an operator's own setting wins.
const env = importing ? { MALLOC_MMAP_THRESHOLD_: '131072', ...process.env } : process.env;
const child = spawn(process.execPath, [...nodeFlags, '--conditions=catalogue-source', '--import', tsxLoader, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});

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
