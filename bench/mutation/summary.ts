/**
 * The per-folder table of a Stryker run (npm run mutate): reads reports/mutation/mutation.json
 * (or the file named) and prints, in Markdown, each folder's mutation score as Stryker counts
 * it — (killed + timeout) / (killed + timeout + survived + no coverage); compile errors and
 * ignored mutants (static, or disabled in the source) are left out — then every surviving or uncovered mutant.
 *
 *   node --import tsx bench/mutation/summary.ts [reports/mutation/mutation.json]
 */
import { readFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

const file = process.argv[2] ?? 'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> };

/** The folder a file is reported under: its directory below packages/core/src. */
const folderOf = (path: string) => path.replace(/^.*packages\/core\/src\//, '').replace(/\/[^/]+$/, '/');

const rows = new Map<string, Record<string, number>>();
const left: string[] = [];
for (const [path, { mutants }] of Object.entries(report.files)) {
  const counts = rows.get(folderOf(path)) ?? {};
  rows.set(folderOf(path), counts);
  for (const m of mutants) {
    counts[m.status] = (counts[m.status] ?? 0) + 1;
    if (m.status === 'Survived' || m.status === 'NoCoverage') {
      const where = `${path.replace(/^.*packages\/core\/src\//, '')}:${m.location.start.line}`;
      left.push(`| ${where} | ${m.status} | ${m.mutatorName} | \`${(m.replacement ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 80)}\` |`);
    }
  }
}

const n = (counts: Record<string, number>, status: string) => counts[status] ?? 0;
const scoreOf = (c: Record<string, number>) => {
  const detected = n(c, 'Killed') + n(c, 'Timeout');
  const valid = detected + n(c, 'Survived') + n(c, 'NoCoverage');
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
};

const total: Record<string, number> = {};
console.log('| Folder | Score | Killed | Timeout | Survived | No coverage | Compile errors | Ignored (static or disabled) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [folder, c] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
  for (const [status, count] of Object.entries(c)) total[status] = (total[status] ?? 0) + count;
  console.log(
    `| ${folder} | ${scoreOf(c)} | ${n(c, 'Killed')} | ${n(c, 'Timeout')} | ${n(c, 'Survived')} | ${n(c, 'NoCoverage')} | ${n(c, 'CompileError')} | ${n(c, 'Ignored')} |`,
  );
}
console.log(
  `| **all** | **${scoreOf(total)}** | ${n(total, 'Killed')} | ${n(total, 'Timeout')} | ${n(total, 'Survived')} | ${n(total, 'NoCoverage')} | ${n(total, 'CompileError')} | ${n(total, 'Ignored')} |`,
);
console.log(`\n${left.length} mutants left (survived or without coverage):\n`);
console.log('| Where | Status | Mutator | Replacement |');
console.log('|---|---|---|---|');
for (const line of left) console.log(line);
