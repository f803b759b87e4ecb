import fs from 'node:fs';

/** Percentile (nearest rank) of an already sorted array; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(values: number[]): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

/** Resident set size of a process in KiB (VmRSS), or NaN when it is gone. */
export function rssKiB(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size of a process in KiB (VmHWM). */
export function peakRssKiB(pid: number): number {
  return statusField(pid, 'VmHWM');
}

function statusField(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Linux reports CPU time in clock ticks; 100 per second on every mainstream kernel (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used, or NaN when it is gone / not readable. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = values[3] + values[4];
  return { busy: total - idle, total };
}

/** The soft and hard limits on open files of this process. */
export function openFileLimits(): { soft: number; hard: number } {
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  const parse = (value: string | undefined) => (value === undefined || value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value));
  return { soft: parse(match?.[1]), hard: parse(match?.[2]) };
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '–');
export const mib = (kib: number) => (Number.isFinite(kib) ? `${(kib / 1024).toFixed(1)} MiB` : '–');
