/**
 * A bench's table, printed and kept in `bench/<bench>/results/` (issue 32: every README figure
 * names the stored result it comes from). The file starts with what the figures depend on: the
 * time, the commit, the machine's cores and load average before and after, the BENCH_*
 * settings; `BENCH_RESULT=<name>` names it (default: the start time, UTC).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

export interface ResultFile {
  /** Prints a line of the table and keeps it for the file. */
  log(line?: string): void;
  /** Writes the file; returns its path from the repository root. */
  save(): string;
}

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

export function resultFile(bench: string): ResultFile {
  const started = new Date();
  const loadBefore = load();
  const lines: string[] = [];
  return {
    log(line = '') {
      console.log(line);
      lines.push(line);
    },
    save() {
      const dir = join(ROOT, 'bench', bench, 'results');
      mkdirSync(dir, { recursive: true });
      const name = process.env.BENCH_RESULT ?? started.toISOString().slice(0, 16).replace(':', '-');
      const file = join(dir, `${name}.txt`);
      const dirty = git('status', '--porcelain').length > 0 ? ', with uncommitted changes' : '';
      const settings = Object.entries(process.env)
        .filter(([name]) => name.startsWith('BENCH_') || name === 'WEB_CONCURRENCY')
        .map(([name, value]) => `${name}=${value}`);
      const header = [
        `# bench:${bench}, ${started.toISOString()} to ${new Date().toISOString()}`,
        `# commit ${git('rev-parse', '--short', 'HEAD')} (${git('rev-parse', '--abbrev-ref', 'HEAD')}${dirty})`,
        `# ${cpus().length} cores; load average ${loadBefore} before, ${load()} after`,
        `# settings: ${settings.join(' ') || 'defaults'}`,
      ];
      writeFileSync(file, `${[...header, ...lines].join('\n')}\n`);
      const shown = relative(ROOT, file);
      console.log(`\n(kept in ${shown})`);
      return shown;
    },
  };
}
