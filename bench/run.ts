/**
 * `npm run bench`: every scenario on this machine, side by side, in one run. Starts its own
 * redis-server (free port), emulators, worker processes and SQLite files in a temp dir, and
 * stops them all. Prints a table and writes bench/results.json. See bench/README.md.
 */
import { Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveDots } from './carriers.js';
import { dbUsedBytes } from './db-bytes.js';
import { startProbedEmulator } from './emulator-probe.js';
import { Harness, type BenchOptions } from './harness.js';
import { machineInfo } from './machine.js';
import { render, writeResults, type BenchResults } from './report.js';
import { measureCacheHits, screeningRequests, warmCache } from './scenarios/cache-hit.js';
import { measureDrain, type DrainRun } from './scenarios/drain.js';
import { runEconomy } from './scenarios/economy.js';
import { measureEmulatorFloor } from './scenarios/emulator-floor.js';
import { measureDurableFloor, measureFloor, seedDurableFloor, startFloor } from './scenarios/floor.js';
import { measureMissOverhead, type MissRun } from './scenarios/miss-overhead.js';
import type { ThroughputRun } from './scenarios/throughput.js';
import { PG_TARGETS, renderPg, runPgScenario, type PgTarget } from './scenarios/pg.js';
import { runTwoWorkers } from './scenarios/two-workers.js';
import { BENCH_PG_URL } from './pg-db.js';
import { writeFileSync } from 'node:fs';
import { runYear3Ab, type Year3AbOptions } from './year3/ab.js';
import { runYear3, type Year3Options } from './year3/run-year3.js';

/** Disjoint DOT ranges, so no scenario sees a carrier another one has cached. */
const DOTS = {
  emulatorFloor: 1_000_000,
  cacheHit: 1_500_000,
  economy: 2_000_000,
  miss: 3_000_000,
  drain: 4_000_000,
  twoEconomy: 5_000_000,
  twoDrain: 6_000_000,
  pg: 7_000_000,
  pgTwoEconomy: 8_000_000,
};
const DRAIN_RATE = { limit: 100, windowMs: 1000 };
const HOT_CARRIERS = 200;

function wholeNumber(flag: string, min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max}`);
    return n;
  };
}

type Parsed = BenchOptions & {
  out: string;
  year3: Year3Options | undefined;
  ab: Year3AbOptions | undefined;
  pg: boolean;
  /** `--targets`: the PostgreSQL scenario's targets to run (default all, and the two-worker economy). */
  pgTargets?: PgTarget[];
};

function parseOptions(argv: string[]): Parsed {
  const program = new Command('bench')
    .description(
      'carrier-screen benchmarks: floor, cache hits, tender-stream economy, miss-path overhead, backlog drain, memory, economy and drain across two worker processes',
    )
    .option('--duration <s>', 'seconds per throughput measurement', wholeNumber('--duration', 1, 120))
    .option('--concurrency <n>', 'concurrent requests of the load generator (and tenders in flight)', wholeNumber('--concurrency', 1, 256))
    .option('--stream <n>', 'tenders in the economy stream', wholeNumber('--stream', 10, 100_000))
    .option('--repeats <n>', 'repeats of the noisy measurements (medians are reported)', wholeNumber('--repeats', 1, 20))
    .option('--drain <n>', 'carriers queued at once in the backlog drain', wholeNumber('--drain', 10, 10_000))
    .option('--quick', 'a small run for a smoke check (flags given still win)')
    .option('--profile <dir>', 'write CPU profiles of the worker processes to <dir> (node --cpu-prof)')
    .option('--out <file>', 'where to write the results (default bench/results.json; --year3: bench/year3-results.json)')
    .option(
      '--year3',
      'the year-three scenario instead: a database of N screenings over 3 years against a small one (bench/README.md → Year three)',
    )
    .option('--n <n>', '--year3: screenings in the big database (default 2000000)', wholeNumber('--n', 1_000, 50_000_000))
    .option('--small <n>', '--year3: screenings in the small database (default 20000)', wholeNumber('--small', 1_000, 50_000_000))
    .option('--samples <n>', '--year3: requests per read route (default 50)', wholeNumber('--samples', 5, 10_000))
    .option(
      '--ab <dist>',
      "--year3: only the cache hit alone and under heavy reads, this build against another build's dist/, alternating (bench/README.md → Year three)",
    )
    .option('--rounds <n>', '--year3 --ab: alternations (default 3)', wholeNumber('--rounds', 1, 50))
    .option('--hits <n>', '--year3 --ab: cache hits per measurement (default 200)', wholeNumber('--hits', 10, 10_000))
    .option(
      '--pg',
      'the PostgreSQL scenario instead (issue 34): durable floors, the worker process and the cache hit sequences on PostgreSQL at SCREEN_BENCH_PG_URL, beside SQLite; skipped when none answers',
    )
    .option(
      '--targets <names>',
      `--pg: only these targets, comma-separated (${PG_TARGETS.join(', ')}); the two-worker economy runs only without it`,
    )
    .option('--data-dir <dir>', '--year3: where built databases are kept and reused (default bench/data, or BENCH_DATA_DIR)')
    .showHelpAfterError();
  program.parse(argv);
  const o = program.opts<{
    duration?: number;
    concurrency?: number;
    stream?: number;
    repeats?: number;
    drain?: number;
    quick?: boolean;
    profile?: string;
    out?: string;
    year3?: boolean;
    n?: number;
    small?: number;
    samples?: number;
    dataDir?: string;
    ab?: string;
    rounds?: number;
    hits?: number;
    pg?: boolean;
    targets?: string;
  }>();
  const quick = o.quick === true;
  const repo = (p: string): string => fileURLToPath(new URL(`../../${p}`, import.meta.url));
  const year3: Year3Options | undefined = o.year3
    ? {
        n: o.n ?? 2_000_000,
        small: o.small ?? 20_000,
        samples: o.samples ?? 50,
        dataDir: o.dataDir ?? process.env.BENCH_DATA_DIR ?? repo('bench/data'),
        out: o.out ?? repo('bench/year3-results.json'),
      }
    : undefined;
  const ab: Year3AbOptions | undefined =
    year3 && o.ab !== undefined
      ? {
          n: year3.n,
          dataDir: year3.dataDir,
          out: o.out ?? repo('bench/year3-ab-results.json'),
          other: o.ab,
          rounds: o.rounds ?? 3,
          hits: o.hits ?? 200,
        }
      : undefined;
  if ((o.ab !== undefined || o.rounds !== undefined || o.hits !== undefined) && !o.year3)
    program.error('--ab, --rounds and --hits belong to --year3');
  if (!o.year3 && (o.n !== undefined || o.small !== undefined || o.samples !== undefined || o.dataDir !== undefined))
    program.error('--n, --small, --samples and --data-dir belong to --year3');
  if (o.pg && o.year3) program.error('--pg and --year3 are separate runs');
  if (o.targets !== undefined && !o.pg) program.error('--targets belongs to --pg');
  const targets = o.targets?.split(',').map((t) => t.trim());
  const unknown = targets?.filter((t) => !(PG_TARGETS as readonly string[]).includes(t)) ?? [];
  if (unknown.length > 0) program.error(`--targets: unknown target ${unknown.join(', ')} (one of ${PG_TARGETS.join(', ')})`);
  return {
    pg: o.pg === true,
    ...(targets ? { pgTargets: targets as PgTarget[] } : {}),
    year3,
    ab,
    durationS: o.duration ?? (quick ? 1 : 5),
    concurrency: o.concurrency ?? 8,
    stream: o.stream ?? (quick ? 400 : 1500),
    repeats: o.repeats ?? (quick ? 1 : 3),
    drain: o.drain ?? (quick ? 200 : 500),
    missSamples: quick ? 50 : 200,
    profileDir: o.profile,
    quick,
    out: o.out ?? repo(o.pg ? 'bench/pg-results.json' : 'bench/results.json'),
  };
}

/** `--pg`: the PostgreSQL scenario alone (bench/README.md → PostgreSQL). */
async function runPg(opts: BenchOptions, out: string, targets: PgTarget[] | undefined): Promise<void> {
  const t0 = performance.now();
  const log = (line: string): void => {
    process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);
  };
  const h = new Harness(opts, log);
  process.once('SIGINT', () => {
    log('interrupted: stopping');
    void h.close().finally(() => process.exit(130));
  });
  try {
    // Redis for the worker processes (the product on each backend).
    await h.start();
    const r = await runPgScenario(
      h,
      {
        adminUrl: BENCH_PG_URL,
        dots: HOT_CARRIERS,
        firstDot: DOTS.pg,
        repeats: opts.repeats,
        poolMax: 10,
        ...(targets ? { targets } : { twoWorkers: { fromDot: DOTS.pgTwoEconomy } }),
      },
      log,
    );
    if ('skipped' in r) {
      process.stdout.write(`PostgreSQL scenario skipped: ${r.skipped}\n`);
      return;
    }
    writeFileSync(
      out,
      `${JSON.stringify({ machine: machineInfo(), options: opts, startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(), ...r }, null, 2)}\n`,
    );
    process.stdout.write(`\n${renderPg(r, opts.concurrency)}\nresults: ${out}\n`);
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const { out, year3, ab, pg, pgTargets, ...opts } = parseOptions(process.argv);
  if (pg) return runPg(opts, out, pgTargets);
  if (ab) return runYear3Ab(ab, { ...opts, durationS: Math.min(opts.durationS, 5), concurrency: 4 });
  if (year3) return runYear3(year3, { ...opts, durationS: Math.min(opts.durationS, 5), concurrency: 4 });
  const startedAt = new Date();
  const t0 = performance.now();
  const log = (line: string): void => {
    process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);
  };
  const h = new Harness(opts, log);
  const stop = (): void => {
    log('interrupted: stopping');
    void h.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  try {
    await h.start();
    log(`redis-server ${h.redis.url}, temp dir ${h.dir}`);

    log('emulator floor');
    const emulatorFloor = await measureEmulatorFloor(h, DOTS.emulatorFloor);

    // Scenarios 1, 2 and 4 share one worker against an unlimited emulator.
    const emuFast = await startProbedEmulator({ ratePerMinute: 100_000_000, rateWindowMs: 1000, monthlyQuota: 100_000_000 });
    const fast = await h.startWorker('fast', emuFast.baseUrl);
    const floorServer = await startFloor();
    const hot = liveDots(HOT_CARRIERS, DOTS.cacheHit);
    log(`warming the cache with ${hot.length} carriers`);
    await warmCache(h, fast, hot);

    const scoreBytes = await seedDurableFloor(floorServer, hot);
    log(`durable floor seeded with the same ${hot.length} carriers (score JSON ${scoreBytes} bytes each)`);

    const floor: ThroughputRun[] = [];
    const durableFloor: ThroughputRun[] = [];
    const cacheHit: ThroughputRun[] = [];
    const floorBody = JSON.stringify({ dot_number: hot[0], tender_id: 'T-0' });
    const fastDb = join(h.dir, 'fast.db');
    const bytesBefore = dbUsedBytes(fastDb);
    for (let i = 0; i < opts.repeats; i++) {
      // Interleaved, so drift on the machine touches both alike.
      floor.push(await measureFloor(h, floorServer, floorBody));
      durableFloor.push(await measureDurableFloor(h, floorServer, screeningRequests(hot, 5)));
      cacheHit.push(await measureCacheHits(h, fast, hot));
      const others = Math.round(Math.max(floor[i]!.cpu.others ?? 0, durableFloor[i]!.cpu.others ?? 0, cacheHit[i]!.cpu.others ?? 0) * 100);
      log(
        `floor ${floor[i]!.rps.toFixed(0)} req/s | durable floor ${durableFloor[i]!.rps.toFixed(0)} req/s, p99 ${durableFloor[i]!.p99Ms.toFixed(2)} ms | cache hit ${cacheHit[i]!.rps.toFixed(0)} req/s, p99 ${cacheHit[i]!.p99Ms.toFixed(2)} ms | other processes ≤ ${others} % CPU`,
      );
    }
    await floorServer.rpc.stop();
    // What a cache-hit screening leaves in SQLite (its row and its event), before pruning.
    const hits = cacheHit.reduce((n, x) => n + Object.values(x.tally).reduce((a, b) => a + b, 0), 0);
    const dbBytesPerCacheHit = hits > 0 ? (dbUsedBytes(fastDb) - bytesBefore) / hits : Number.NaN;
    log(`SQLite: ${dbBytesPerCacheHit.toFixed(0)} bytes per cache-hit screening over ${hits}`);

    const n = opts.missSamples;
    const missDots = liveDots(n * 2 * (opts.repeats + 1), DOTS.miss);
    const slice = (k: number): string[] => missDots.slice(k * n, (k + 1) * n);
    await measureMissOverhead(h, fast, emuFast.baseUrl, slice(0), slice(1)); // warm-up, not recorded
    const missPath: MissRun[] = [];
    for (let i = 1; i <= opts.repeats; i++) {
      missPath.push(await measureMissOverhead(h, fast, emuFast.baseUrl, slice(2 * i), slice(2 * i + 1)));
      log(`miss path: worker p50 ${missPath[i - 1]!.workerP50Ms.toFixed(2)} ms, bare ${missPath[i - 1]!.bareP50Ms.toFixed(2)} ms`);
    }
    await fast.stop();
    await emuFast.close();

    const economy = await runEconomy(h, DOTS.economy);

    const emuDrain = await startProbedEmulator({
      ratePerMinute: DRAIN_RATE.limit,
      rateWindowMs: DRAIN_RATE.windowMs,
      monthlyQuota: 100_000_000,
      faults: { latencyMs: 20 },
    });
    const drainWorker = await h.startWorker('drain', emuDrain.baseUrl);
    const drain: DrainRun[] = [];
    for (let i = 0; i < opts.repeats; i++) {
      const d = await measureDrain(h, drainWorker, emuDrain, liveDots(opts.drain, DOTS.drain + i * 2 * opts.drain), DRAIN_RATE);
      drain.push(d);
      log(
        `drain: ${d.perWindow.join(' ')} per window, ${d.rateLimited} × 429, other processes ${Math.round((d.cpu.others ?? 0) * 100)} % CPU`,
      );
    }
    await drainWorker.stop();
    await emuDrain.close();

    // Economy and drain again, across two worker processes on one Redis and database (issue 29).
    const twoWorkers = await runTwoWorkers(h, { economy: DOTS.twoEconomy, drain: DOTS.twoDrain });

    const results: BenchResults = {
      machine: machineInfo(),
      options: opts,
      startedAt: startedAt.toISOString(),
      elapsedS: (performance.now() - t0) / 1000,
      emulatorFloor,
      floor,
      durableFloor,
      scoreBytes,
      cacheHit,
      economy,
      missPath,
      drain,
      twoWorkers,
      memory: Object.fromEntries(h.workers.map((w) => [w.name, w.peakRssMiB()])),
      dbBytesPerCacheHit,
    };
    writeResults(out, results);
    process.stdout.write(`\n${render(results)}\nresults: ${out}\n`);
  } finally {
    await h.close();
  }
}

main().then(
  // An emulator left open by a failed scenario must not keep the process alive.
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
