import { runCli } from '/work/wt/i13/packages/importer/src/cli/run-cli.ts';
await runCli(['refresh'], { env: { DATABASE_URL: process.argv[2] }, stdout: process.stdout, stderr: process.stderr, onStep: (s, n) => console.error(s, n.toFixed(1)) });
