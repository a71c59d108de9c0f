/** CPU seconds (user + system) a process and its children have used so far, from /proc (Linux). */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function statOf(pid: number): { ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** The process `root` and its direct children (a postmaster and its backends). */
export function cpuSecondsOf(root: number): number {
  let ticks = statOf(root)?.ticks ?? 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === root) continue;
    const stat = statOf(pid);
    if (stat?.ppid === root) ticks += stat.ticks;
  }
  return ticks / TICKS_PER_SECOND;
}
