/** The bench's results: the targets they are judged by, the printed table, bench/results.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BenchOptions } from './harness.js';
import type { MachineInfo } from './machine.js';
import { median } from './percentiles.js';
import type { DrainRun } from './scenarios/drain.js';
import type { EconomyResult } from './scenarios/economy.js';
import type { MissRun } from './scenarios/miss-overhead.js';
import type { ThroughputRun } from './scenarios/throughput.js';
import type { TwoWorkersResult } from './scenarios/two-workers.js';

export interface BenchResults {
  machine: MachineInfo;
  options: BenchOptions;
  startedAt: string;
  elapsedS: number;
  emulatorFloor: ThroughputRun;
  floor: ThroughputRun[];
  /** The minimal durable cache hit (token, score read, a committed row that refers to it). */
  durableFloor: ThroughputRun[];
  /** Mean size of a cached score's JSON, bytes. */
  scoreBytes: number;
  cacheHit: ThroughputRun[];
  economy: EconomyResult;
  missPath: MissRun[];
  drain: DrainRun[];
  /** Scenario 7: economy and drain across two worker processes (absent in results from before it). */
  twoWorkers?: TwoWorkersResult;
  /** Peak RSS (VmHWM) of each worker process, MiB. */
  memory: Record<string, number>;
  /** SQLite bytes in use added per cache-hit screening (its rows and event), before pruning. */
  dbBytesPerCacheHit?: number;
}

export interface Target {
  id: string;
  what: string;
  value: string;
  target: string;
  met: boolean;
}

/** Server CPU time per request, µs: what the ratio to the floor comes down to. */
const cpuPerRequest = (x: ThroughputRun): number => ((x.cpu.server ?? Number.NaN) * 1e6) / x.rps;
const med = <T>(runs: T[], f: (r: T) => number): number => median(runs.map(f));

/** The medians the targets and the table use. */
export function summary(r: BenchResults) {
  const floorRps = med(r.floor, (x) => x.rps);
  const durableRps = med(r.durableFloor, (x) => x.rps);
  const cacheRps = med(r.cacheHit, (x) => x.rps);
  return {
    floor: {
      rps: floorRps,
      p50Ms: med(r.floor, (x) => x.p50Ms),
      p99Ms: med(r.floor, (x) => x.p99Ms),
      cpuUsPerRequest: med(r.floor, cpuPerRequest),
    },
    durableFloor: {
      rps: durableRps,
      p50Ms: med(r.durableFloor, (x) => x.p50Ms),
      p99Ms: med(r.durableFloor, (x) => x.p99Ms),
      cpuUsPerRequest: med(r.durableFloor, cpuPerRequest),
    },
    cacheHit: {
      rps: cacheRps,
      p50Ms: med(r.cacheHit, (x) => x.p50Ms),
      p99Ms: med(r.cacheHit, (x) => x.p99Ms),
      shareOfFloor: cacheRps / floorRps,
      shareOfDurableFloor: cacheRps / durableRps,
      cpuUsPerRequest: med(r.cacheHit, cpuPerRequest),
      fromCache: r.cacheHit.every((x) => Object.keys(x.tally).every((k) => k === 'cache')),
    },
    missPath: {
      addedP50Ms: med(r.missPath, (x) => x.addedP50Ms),
      addedP99Ms: med(r.missPath, (x) => x.addedP99Ms),
      workerP50Ms: med(r.missPath, (x) => x.workerP50Ms),
      bareP50Ms: med(r.missPath, (x) => x.bareP50Ms),
    },
    drain: {
      achievedShare: med(r.drain, (x) => x.achievedShare),
      rateLimited: Math.max(...r.drain.map((x) => x.rateLimited)),
      elapsedS: med(r.drain, (x) => x.elapsedS),
    },
    peakRssMiB: Math.max(...Object.values(r.memory)),
  };
}

export function targets(r: BenchResults): Target[] {
  const s = summary(r);
  const w = r.economy.worker;
  return [
    {
      id: '2a',
      what: 'cache-hit throughput vs durable floor',
      value: pct(s.cacheHit.shareOfDurableFloor),
      target: '≥ 50 %',
      met: s.cacheHit.shareOfDurableFloor >= 0.5,
    },
    { id: '2b', what: 'cache-hit latency p99', value: ms(s.cacheHit.p99Ms), target: '≤ 10 ms', met: s.cacheHit.p99Ms <= 10 },
    {
      id: '2c',
      what: 'cache-hit worker CPU per hit',
      value: `${s.cacheHit.cpuUsPerRequest.toFixed(0)} µs`,
      target: '≤ 150 µs',
      met: s.cacheHit.cpuUsPerRequest <= 150,
    },
    {
      id: '2d',
      // The score is stored once per fetch (worker/store/score-refs.ts): what a hit adds is all beyond it.
      what: 'SQLite bytes per hit (the score stored once per fetch)',
      value: r.dbBytesPerCacheHit === undefined ? '—' : `${num(r.dbBytesPerCacheHit)} B (a score is ${num(r.scoreBytes)} B)`,
      target: '≤ 1 KB',
      met: r.dbBytesPerCacheHit !== undefined && r.dbBytesPerCacheHit <= 1024,
    },
    {
      id: '3',
      what: 'worker /v1 lookups per distinct carrier',
      value: `${w.lookupsPerCarrier.toFixed(3)} (max ${w.maxLookupsPerCarrier} on one)`,
      target: 'exactly 1',
      met: w.lookups === r.economy.stream.distinct && w.maxLookupsPerCarrier === 1,
    },
    {
      id: '4',
      what: 'miss path: added p50 vs bare undici',
      value: ms(s.missPath.addedP50Ms),
      target: '≤ 3 ms',
      met: s.missPath.addedP50Ms <= 3,
    },
    {
      id: '5a',
      what: 'backlog drain: rate achieved',
      value: pct(s.drain.achievedShare),
      target: '≥ 95 % of limit',
      met: s.drain.achievedShare >= 0.95,
    },
    { id: '5b', what: 'backlog drain: 429s received', value: String(s.drain.rateLimited), target: '0', met: s.drain.rateLimited === 0 },
    ...twoWorkerTargets(r.twoWorkers),
  ];
}

function twoWorkerTargets(t: TwoWorkersResult | undefined): Target[] {
  if (!t) return [];
  const e = t.economy;
  return [
    {
      id: '7a',
      what: 'two workers: /v1 lookups per distinct carrier',
      value: `${e.lookupsPerCarrier.toFixed(3)} (max ${e.maxLookupsPerCarrier} on one)`,
      target: 'exactly 1',
      met: e.lookups === e.distinct && e.maxLookupsPerCarrier === 1,
    },
    { id: '7b', what: 'two workers: economy 429s received', value: String(e.rateLimited), target: '0', met: e.rateLimited === 0 },
    {
      id: '7c',
      what: 'two workers: backlog drain rate achieved',
      value: pct(t.drain.achievedShare),
      target: '≥ 95 % of limit',
      met: t.drain.achievedShare >= 0.95,
    },
    {
      id: '7d',
      what: 'two workers: backlog drain 429s received',
      value: String(t.drain.rateLimited),
      target: '0',
      met: t.drain.rateLimited === 0,
    },
  ];
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}
function ms(x: number): string {
  return `${x.toFixed(2)} ms`;
}
function num(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}
function cpu(c: Record<string, number>, keys: string[]): string {
  return keys.map((k) => `${k} ${Math.round((c[k] ?? Number.NaN) * 100)} %`).join(', ');
}

function twoWorkerRows(t: TwoWorkersResult | undefined): string[][] {
  if (!t) return [];
  const e = t.economy;
  const d = t.drain;
  const rate = (x: { limit: number; windowMs: number; offsetMs?: number }): string =>
    `${x.limit}/${x.windowMs} ms, windows ${x.offsetMs ?? 0} ms off the clock's`;
  return [
    [
      '7 two worker processes, one',
      'economy: lookups / distinct carriers',
      `${e.lookups} / ${e.distinct} (${e.lookupsPerCarrier.toFixed(2)} per carrier, max ${e.maxLookupsPerCarrier} on one)`,
    ],
    [
      '  Redis prefix and database',
      'economy: 429s, tenders without a score',
      `${e.rateLimited}, ${e.withoutScore} (limit ${rate(t.economyRate)})`,
    ],
    [
      `  (/v1 latency ${t.emulatorLatencyMs} ms)`,
      'economy: p50 / p99 per worker',
      `${e.p50Ms.map(ms).join(', ')} / ${e.p99Ms.map(ms).join(', ')}; ${e.wallS.toFixed(1)} s`,
    ],
    ['', `drain: ${d.carriers} carriers, rate achieved`, `${pct(d.achievedShare)} of limit (${rate(t.drainRate)})`],
    ['', 'drain: lookups per window', `${d.perWindow.join(' ')} (${d.windowsUsed}/${d.minWindows} windows)`],
    ['', 'drain: 429s received', String(d.rateLimited)],
  ];
}

/** Rows as aligned columns (two spaces apart). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The most CPU other processes took during any floor or cache-hit run. */
function maxOthers(r: BenchResults): number {
  return Math.max(...[...r.floor, ...r.durableFloor, ...r.cacheHit].map((x) => x.cpu.others ?? 0));
}

export function render(r: BenchResults): string {
  const s = summary(r);
  const e = r.economy;
  const m = r.machine;
  const o = r.options;
  const lastFloor = r.floor[r.floor.length - 1]!;
  const lastCache = r.cacheHit[r.cacheHit.length - 1]!;
  const rows: string[][] = [
    ['scenario', 'metric', 'value'],
    ['1 floor (empty Fastify route)', 'throughput', `${num(s.floor.rps)} req/s`],
    ['', 'latency p50 / p99', `${ms(s.floor.p50Ms)} / ${ms(s.floor.p99Ms)}`],
    ['', 'server CPU per request', `${s.floor.cpuUsPerRequest.toFixed(0)} µs`],
    ['1b durable floor (token, score read,', 'throughput', `${num(s.durableFloor.rps)} req/s`],
    ['   a committed row, 3 KB answer)', 'latency p50 / p99', `${ms(s.durableFloor.p50Ms)} / ${ms(s.durableFloor.p99Ms)}`],
    ['', 'server CPU per request', `${s.durableFloor.cpuUsPerRequest.toFixed(0)} µs`],
    [
      '2 cache hit (POST /screenings)',
      'throughput',
      `${num(s.cacheHit.rps)} req/s (${pct(s.cacheHit.shareOfDurableFloor)} of durable floor, ${pct(s.cacheHit.shareOfFloor)} of floor)`,
    ],
    ['', 'latency p50 / p99', `${ms(s.cacheHit.p50Ms)} / ${ms(s.cacheHit.p99Ms)}`],
    ['', 'server CPU per request', `${s.cacheHit.cpuUsPerRequest.toFixed(0)} µs`],
    ['', 'answers', s.cacheHit.fromCache ? 'all source=cache, HTTP 200' : `NOT all cache: ${JSON.stringify(lastCache.tally)}`],
    [
      '',
      'SQLite bytes per screening',
      r.dbBytesPerCacheHit === undefined
        ? '—'
        : `${num(r.dbBytesPerCacheHit)} B (its rows and event, before pruning; a score is ${num(r.scoreBytes)} B)`,
    ],
    [`3 economy: ${e.stream.tenders} tenders,`, '', 'worker | naive (undici RetryAgent)'],
    [
      `  Zipf s=${e.stream.s} over ${e.stream.carriers}`,
      '/v1 lookups (quota spent)',
      `${e.worker.lookups} | ${e.naive.lookups}  (${pct(e.lookupsSaved)} saved)`,
    ],
    [
      `  carriers, ${e.stream.distinct} distinct;`,
      'lookups per distinct carrier',
      `${e.worker.lookupsPerCarrier.toFixed(2)} | ${e.naive.lookupsPerCarrier.toFixed(2)}`,
    ],
    [`  limit ${e.rateLimit.perWindow}/${e.rateLimit.windowMs} ms,`, '429s received', `${e.worker.rateLimited} | ${e.naive.rateLimited}`],
    [`  /v1 latency ${e.emulatorLatencyMs} ms`, 'tender latency p50', `${ms(e.worker.p50Ms)} | ${ms(e.naive.p50Ms)}`],
    ['', 'tender latency p99', `${ms(e.worker.p99Ms)} | ${ms(e.naive.p99Ms)}`],
    ['', 'tenders without a score', `${e.worker.withoutScore} | ${e.naive.withoutScore}`],
    ['', 'stream wall time', `${e.worker.wallS.toFixed(1)} s | ${e.naive.wallS.toFixed(1)} s`],
    ['4 miss path (fresh DOT, wait)', 'p50: worker vs bare undici', `${ms(s.missPath.workerP50Ms)} vs ${ms(s.missPath.bareP50Ms)}`],
    ['', 'added p50 / p99', `${ms(s.missPath.addedP50Ms)} / ${ms(s.missPath.addedP99Ms)}`],
    [
      `5 backlog drain: ${r.drain[0]?.carriers} carriers,`,
      'rate achieved (all windows but last)',
      `${pct(s.drain.achievedShare)} of limit`,
    ],
    [
      `  limit ${r.drain[0]?.limit}/${r.drain[0]?.windowMs} ms`,
      'lookups per window (last run)',
      `${r.drain[r.drain.length - 1]?.perWindow.join(' ')}`,
    ],
    ['', 'windows used / fewest possible', r.drain.map((d) => `${d.windowsUsed}/${d.minWindows}`).join(', ')],
    ['', '429s received (max over runs)', String(s.drain.rateLimited)],
    ...twoWorkerRows(r.twoWorkers),
    [
      '6 memory',
      'worker peak RSS (VmHWM)',
      `${s.peakRssMiB.toFixed(0)} MiB (${Object.entries(r.memory)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')})`,
    ],
  ];
  const t = targets(r);
  const targetRows = [['#', 'target', 'value', 'goal', ''], ...t.map((x) => [x.id, x.what, x.value, x.target, x.met ? 'met' : 'NOT MET'])];
  const checks = [
    `- load generator in its own process; CPU share of one core (last run): floor: ${cpu(lastFloor.cpu, ['server', 'loadgen', 'others'])};`,
    `  cache hit: ${cpu(lastCache.cpu, ['server', 'loadgen', 'redis', 'others'])}. A server near 100 % with the load generator well below it`,
    `  means the server is the limit; the floor's server and load generator share ${m.cores} cores, so the floor is a conservative one.`,
    `- other processes on this machine used ${Math.round(maxOthers(r) * 100)} % of a core at most during a throughput run, ${Math.round(Math.max(...r.drain.map((d) => d.cpu.others ?? 0)) * 100)} % during a drain${maxOthers(r) > 0.2 ? ': NOISY, compare ratios or run again' : ''}.`,
    `- emulator floor (no limit, no latency, concurrency ${o.concurrency}): ${num(r.emulatorFloor.rps)} req/s, p50 ${ms(r.emulatorFloor.p50Ms)}, p99 ${ms(r.emulatorFloor.p99Ms)};`,
    `  the scenarios ask at most ${r.drain[0]?.limit ?? 100} lookups/s of it. Emulator CPU during the economy run: worker arm ${Math.round(e.worker.emulatorCpu * 100)} %, naive arm ${Math.round(e.naive.emulatorCpu * 100)} %.`,
  ];
  return [
    `carrier-screen bench — ${m.cores} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, temp fs ${m.tempFs}`,
    `concurrency ${o.concurrency}, ${o.durationS} s per throughput run, ${o.repeats} repeat(s): medians over repeats${o.quick ? ' (QUICK run: smoke check only)' : ''}`,
    '',
    table(rows),
    '',
    table(targetRows),
    '',
    'Bottleneck checks:',
    ...checks,
    '',
    `took ${r.elapsedS.toFixed(0)} s`,
  ].join('\n');
}

export function writeResults(path: string, r: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...r, summary: summary(r), targets: targets(r) }, null, 2) + '\n');
}
