/**
 * CPU time and memory of processes, read from /proc (Linux). Used to show which process was
 * busy during a measurement (the one measured should be; the load generator should not) and
 * to read the worker's peak RSS (VmHWM).
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process so far, or NaN when /proc cannot tell. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU seconds of one thread of a process (default its main thread: the event loop), or NaN. */
export function threadCpuSeconds(pid: number, tid = pid): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds all processes on the machine have been busy so far (summed over cores). */
export function machineBusySeconds(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Peak resident set size so far, in MiB. */
export function peakRssMiB(pid: number): number {
  return statusKb(pid, 'VmHWM') / 1024;
}

/**
 * CPU share (1 = one full core) of each labelled process between start() and stop(), and
 * `others`: what every other process on the machine used meanwhile (a shared machine is noisy).
 */
export class CpuMeter {
  readonly #pids: Record<string, number>;
  #t0 = 0;
  #cpu0: Record<string, number> = {};
  #machine0 = 0;

  constructor(pids: Record<string, number>) {
    this.#pids = pids;
  }

  start(): this {
    this.#t0 = performance.now();
    this.#cpu0 = Object.fromEntries(Object.entries(this.#pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
    this.#machine0 = machineBusySeconds();
    return this;
  }

  stop(): Record<string, number> {
    const wall = (performance.now() - this.#t0) / 1000;
    const shares = Object.fromEntries(Object.entries(this.#pids).map(([k, pid]) => [k, (cpuSeconds(pid) - this.#cpu0[k]!) / wall]));
    // A process gone meanwhile (a pool's idle connection closed) is NaN; what it used counts as others'.
    const ours = Object.values(shares)
      .filter((x) => Number.isFinite(x))
      .reduce((a, b) => a + b, 0);
    return { ...shares, others: Math.max(0, (machineBusySeconds() - this.#machine0) / wall - ours) };
  }
}
