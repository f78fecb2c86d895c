/**
 * `npm run bench -- --year3 --ab <other dist>`: the tender-time cache hit alone and under the four
 * heavy-read clients (measure.ts, cacheHitAloneAndLoaded), on one copy of the big database, with
 * this build's worker and another build's (its dist/, e.g. main's: `git worktree`/`git archive`
 * of it, `npm run build` there), alternating round by round in one run, so the machine's load
 * falls on both alike. Prints each round and the figures over every round's hits together.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveDots } from '../carriers.js';
import { startProbedEmulator } from '../emulator-probe.js';
import { Harness, type BenchOptions } from '../harness.js';
import { machineInfo } from '../machine.js';
import { summarize } from '../percentiles.js';
import { warmCache } from '../scenarios/cache-hit.js';
import { year3Database } from './build.js';
import { cacheHitAloneAndLoaded, heavyReadPaths, type HitFigures } from './measure.js';

export interface Year3AbOptions {
  n: number;
  dataDir: string;
  out: string;
  /** The other build's dist/ directory ("before"). */
  other: string;
  rounds: number;
  hits: number;
}

export async function runYear3Ab(o: Year3AbOptions, bench: BenchOptions): Promise<void> {
  const t0 = performance.now();
  const log = (line: string): void => {
    process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
  };
  const scripts = {
    before: join(resolve(o.other), 'bench/worker-process.js'),
    after: fileURLToPath(new URL('../worker-process.js', import.meta.url)),
  };
  if (!existsSync(scripts.before)) throw new Error(`--ab: no ${scripts.before} (build the other tree first)`);
  const big = await year3Database(o.dataDir, o.n, log);
  const h = new Harness(bench, log);
  const rounds: Array<{ round: number; build: 'before' | 'after'; figures: HitFigures; loadAvg: number[] }> = [];
  try {
    await h.start();
    const emu = await startProbedEmulator({ ratePerMinute: 100_000_000, rateWindowMs: 1000, monthlyQuota: 100_000_000 });
    try {
      // One copy for every worker (one at a time): the hits add a few screenings, alike for both.
      const db = join(h.dir, 'big.db');
      copyFileSync(big.path, db);
      const hot = liveDots(50, 1_600_000);
      for (let r = 1; r <= o.rounds; r++) {
        // Alternate which goes first, so neither always follows the other's page cache.
        const order: Array<'before' | 'after'> = r % 2 === 1 ? ['before', 'after'] : ['after', 'before'];
        for (const build of order) {
          const w = await h.startWorker(`${build}-${r}`, emu.baseUrl, { SCREEN_DB: db }, scripts[build]);
          try {
            for (;;) {
              const res = await fetch(`${w.url}/healthz`).catch(() => undefined);
              if (res?.status === 200) break;
              await new Promise((res) => setTimeout(res, 20));
            }
            await warmCache(h, w, hot);
            const figures = await cacheHitAloneAndLoaded(w, hot, heavyReadPaths(big.meta), o.hits);
            const loadAvg = loadavg();
            rounds.push({ round: r, build, figures, loadAvg });
            log(
              `round ${r} ${build}: alone p50 ${figures.alone.p50Ms.toFixed(2)} / p99 ${figures.alone.p99Ms.toFixed(2)} ms; ` +
                `under heavy reads p50 ${figures.loaded.p50Ms.toFixed(2)} / p99 ${figures.loaded.p99Ms.toFixed(2)} ms ` +
                `(${figures.heavyPages} pages; load ${loadAvg.map((x) => x.toFixed(1)).join(' ')})`,
            );
          } finally {
            await w.stop();
          }
        }
      }
    } finally {
      await emu.close();
    }
  } finally {
    await h.close();
  }
  /** Event-loop CPU per heavy page: the loaded phase's main-thread CPU less its hits' (at the alone phase's rate per hit). */
  const loopMsPerPage = (f: HitFigures): number =>
    ((f.mainCpuS.loaded - (f.mainCpuS.alone * f.loaded.n) / f.alone.n) * 1000) / Math.max(1, f.heavyPages);
  const pooled = (build: 'before' | 'after', which: 'alone' | 'loaded') =>
    summarize(rounds.filter((x) => x.build === build).flatMap((x) => x.figures[which].ms));
  const lines = [
    `carrier-screen bench --year3 --ab — ${machineInfo().cores} × ${machineInfo().cpuModel}, ${o.n.toLocaleString('en-US')} screenings, ${o.rounds} rounds × ${o.hits} hits`,
    '',
  ];
  lines.push(
    'round  build   alone p50 / p99      under 4 heavy readers p50 / p99   ratio p99   heavy pages   event loop ms / page   load avg',
  );
  for (const x of rounds) {
    const f = x.figures;
    lines.push(
      `${String(x.round).padEnd(6)} ${x.build.padEnd(7)} ${`${f.alone.p50Ms.toFixed(2)} / ${f.alone.p99Ms.toFixed(2)} ms`.padEnd(20)} ${`${f.loaded.p50Ms.toFixed(2)} / ${f.loaded.p99Ms.toFixed(2)} ms`.padEnd(33)} ${`× ${(f.loaded.p99Ms / f.alone.p99Ms).toFixed(1)}`.padEnd(11)} ${String(f.heavyPages).padEnd(13)} ${loopMsPerPage(f).toFixed(2).padEnd(22)} ${x.loadAvg.map((l) => l.toFixed(1)).join(' ')}`,
    );
  }
  lines.push('');
  for (const build of ['before', 'after'] as const) {
    const a = pooled(build, 'alone');
    const l = pooled(build, 'loaded');
    const mine = rounds.filter((x) => x.build === build);
    const pages = mine.reduce((n, x) => n + x.figures.heavyPages, 0);
    const loopMs = mine.map((x) => loopMsPerPage(x.figures)).sort((p, q) => p - q);
    lines.push(
      `${build.padEnd(7)} every round's hits: alone p50 ${a.p50.toFixed(2)} / p99 ${a.p99.toFixed(2)} ms; under heavy reads p50 ${l.p50.toFixed(2)} / p99 ${l.p99.toFixed(2)} ms; ` +
        `p99 × ${(l.p99 / a.p99).toFixed(1)} of alone (target ≤ 2 ×: ${l.p99 <= 2 * a.p99 ? 'met' : 'NOT MET'}); ${pages} heavy pages; event loop per heavy page ${loopMs.map((m) => m.toFixed(2)).join(', ')} ms`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\nresults: ${o.out}\n`);
  writeFileSync(
    o.out,
    JSON.stringify(
      {
        machine: machineInfo(),
        options: o,
        rounds: rounds.map((x) => ({
          ...x,
          figures: { ...x.figures, alone: { ...x.figures.alone, ms: undefined }, loaded: { ...x.figures.loaded, ms: undefined } },
        })),
      },
      null,
      2,
    ) + '\n',
  );
}
