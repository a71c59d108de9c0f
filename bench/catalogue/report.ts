/** The bench's table: one row per figure, the goal beside it, and whether it is met. */

import type { CpuPerRequest } from './cpu.js';
import type { LoadFigures } from './load.js';
import type { Percentiles } from './measure.js';
import type { MeasuredRoute } from './routes.js';

export interface ImportGoal {
  mastersPerSecond: number;
  maxRssMb: number;
}

export const IMPORT_GOAL: ImportGoal = { mastersPerSecond: 20_000, maxRssMb: 300 };

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const verdict = (ok: boolean | null) => (ok === null ? '' : ok ? 'ok' : 'MISS');

export function printReport(
  scale: number,
  load: LoadFigures | null,
  routes: Array<{ route: MeasuredRoute; result: Percentiles; cpu?: CpuPerRequest }>,
  out = process.stdout,
): void {
  out.write(`\nbench/catalogue at scale ${scale} (${scale === 1 ? 'full goal scale' : `${scale * 100}% of it`})\n`);
  if (load) {
    const seconds = load.writeSeconds + load.finishSeconds;
    const rate = load.masters / seconds;
    console.table([
      {
        figure: 'import (write + finish)',
        measured: `${Math.round(rate).toLocaleString('en-US')} masters/s`,
        detail: `${load.masters.toLocaleString('en-US')} masters, ${load.releases.toLocaleString('en-US')} releases; write ${load.writeSeconds.toFixed(1)} s (${Math.round(load.masters / load.writeSeconds).toLocaleString('en-US')} masters/s) + finish ${load.finishSeconds.toFixed(1)} s`,
        goal: `≥ ${IMPORT_GOAL.mastersPerSecond.toLocaleString('en-US')} masters/s`,
        verdict: verdict(rate >= IMPORT_GOAL.mastersPerSecond),
      },
      {
        figure: 'finish() by step',
        measured: '',
        detail: Object.entries(load.finishSteps)
          .map(([step, seconds]) => `${step} ${seconds} s`)
          .join(' · '),
        goal: '',
        verdict: '',
      },
      {
        figure: 'loader peak RSS',
        measured: `${load.maxRssMb.toFixed(0)} MB`,
        detail: `peak by the end of: ${Object.entries(load.peakRssMbAfter ?? {})
          .map(([phase, mb]) => `${phase} ${mb}`)
          .join(' · ')} (MB)`,
        goal: `≤ ${IMPORT_GOAL.maxRssMb} MB`,
        verdict: verdict(load.maxRssMb <= IMPORT_GOAL.maxRssMb),
      },
    ]);
  } else {
    out.write('import: not measured (BENCH_DATABASE_URL already loaded)\n');
  }
  console.table(
    routes.map(({ route, result, cpu }) => ({
      route: route.route,
      requests: result.count,
      'p50 ms': ms(result.p50),
      'p95 ms': ms(result.p95),
      'p99 ms': ms(result.p99),
      'max ms': ms(result.max),
      'goal p95': route.goalP95Ms === null ? '–' : `≤ ${route.goalP95Ms} ms`,
      verdict: verdict(route.goalP95Ms === null ? null : result.p95 <= route.goalP95Ms),
      'CPU µs/req host·pg·client': cpu ? [cpu.host, cpu.postgres, cpu.client].map((us) => Math.round(us)).join(' · ') : '',
    })),
  );
}
