/**
 * `npm run bench -- --year3`: the year-three scenario (issue 35). Builds (or takes from the bench
 * data dir) a database of N screenings over 3 years and one of `small` screenings, measures both
 * the same way (measure.ts) and prints them side by side. See bench/README.md → Year three.
 */
import { startProbedEmulator } from '../emulator-probe.js';
import { Harness, type BenchOptions } from '../harness.js';
import { machineInfo } from '../machine.js';
import { year3Database } from './build.js';
import { measureYear3 } from './measure.js';
import { renderYear3, writeYear3 } from './report.js';

export interface Year3Options {
  n: number;
  small: number;
  samples: number;
  dataDir: string;
  out: string;
}

export async function runYear3(o: Year3Options, bench: BenchOptions): Promise<void> {
  const startedAt = new Date();
  const t0 = performance.now();
  const log = (line: string): void => {
    process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
  };
  const small = await year3Database(o.dataDir, o.small, log);
  const big = await year3Database(o.dataDir, o.n, log);
  const h = new Harness(bench, log);
  const stop = (): void => {
    log('interrupted: stopping');
    void h.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await h.start();
    const emu = await startProbedEmulator({ ratePerMinute: 100_000_000, rateWindowMs: 1000, monthlyQuota: 100_000_000 });
    try {
      // Disjoint hot carriers, so the big database's warm-up is a real fetch too.
      const smallFigures = await measureYear3(h, 'small', small.path, small.meta, emu.baseUrl, { samples: o.samples, hotFrom: 1_500_000 });
      const bigFigures = await measureYear3(h, 'big', big.path, big.meta, emu.baseUrl, { samples: o.samples, hotFrom: 1_600_000 });
      const results = {
        machine: machineInfo(),
        startedAt: startedAt.toISOString(),
        elapsedS: (performance.now() - t0) / 1000,
        buildS: big.meta.buildS,
        buildCached: !big.built,
        small: smallFigures,
        big: bigFigures,
      };
      writeYear3(o.out, results);
      process.stdout.write(`\n${renderYear3(results)}\nresults: ${o.out}\n`);
    } finally {
      await emu.close();
    }
  } finally {
    await h.close();
  }
}
