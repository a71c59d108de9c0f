/**
 * Entry point of `catalogue` (run through bin/catalogue.mjs). Sets the exit code rather than
 * calling process.exit, so output and database connections are flushed and closed first.
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
