/**
 * What the year-three scenario measures on one database (a copy of the cached file): time to
 * ready, every read route over HTTP against the worker as `start` runs it, a cache hit's p99
 * alone and while four clients page the heaviest reads, the audit export of a month and a year
 * (with the worker's peak RSS), then, the worker stopped, `carrier-screen backup` and a
 * retention pass that prunes the oldest year.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Agent } from 'undici';
import { Pruner } from '../../worker/retention/pruner.js';
import { openStore } from '../../worker/store/sqlite-store.js';
import { liveDots } from '../carriers.js';
import { dbUsedBytes } from '../db-bytes.js';
import type { Harness } from '../harness.js';
import { summarize } from '../percentiles.js';
import { peakRssMiB, threadCpuSeconds } from '../proc-stats.js';
import { warmCache } from '../scenarios/cache-hit.js';
import type { Year3Meta } from './build.js';
import { recordOf } from '../../worker/store/index.js';

const DAY_MS = 86_400_000;

export interface RouteFigure {
  route: string;
  p50Ms: number;
  p99Ms: number;
  samples: number;
  /** Rows in the first page (0: the search finds none, as it should for a carrier never seen). */
  rows: number;
}

export interface Year3Figures {
  n: number;
  fileBytes: number;
  usedBytes: number;
  bytesPerScreening: number;
  counts: Record<string, number>;
  readyMs: number;
  routes: RouteFigure[];
  cacheHit: {
    aloneP50Ms: number;
    aloneP99Ms: number;
    loadedP50Ms: number;
    loadedP99Ms: number;
    aloneHits: number;
    loadedHits: number;
    heavyPages: number;
  };
  audit: { monthMs: number; monthBytes: number; yearMs: number; yearBytes: number; peakRssBeforeMiB: number; peakRssAfterMiB: number };
  backupMs: number;
  prune: { ms: number; rows: Record<string, number> };
}

// Idle sockets dropped well before the intake's keep-alive timeout: a request sent on a socket the
// server is closing fails with ECONNRESET (seen after a 47 s read held every other socket idle).
const agent = new Agent({ keepAliveTimeout: 1_000 });

/** fetch through `agent`, sent again once if the connection was reset before any answer. */
async function send(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, dispatcher: agent } as RequestInit);
  } catch {
    return fetch(url, { ...init, dispatcher: agent } as RequestInit);
  }
}

async function get(url: string, headers: Record<string, string>): Promise<{ ms: number; body: string; status: number }> {
  const t = performance.now();
  const res = await send(url, { headers });
  const body = await res.text();
  return { ms: performance.now() - t, body, status: res.status };
}

/** Per read: `samples` requests, or fewer (at least 1) once BUDGET_MS is spent: a scan at 2 M rows takes seconds. */
const BUDGET_MS = 15_000;
/** Tender-time cache hits timed (the figure: p99 over 100), within HITS_BUDGET_MS. */
const HITS = 100;
const HITS_BUDGET_MS = 60_000;

async function sample(label: string, url: string, headers: Record<string, string>, samples: number): Promise<RouteFigure> {
  const ms: number[] = [];
  let rows = 0;
  const t0 = performance.now();
  for (let i = 0; i < samples && (i < 1 || performance.now() - t0 < BUDGET_MS); i++) {
    const r = await get(url, headers);
    if (r.status !== 200) throw new Error(`year3: ${label} answered ${r.status}: ${r.body.slice(0, 200)}`);
    if (i === 0) rows = ((JSON.parse(r.body) as { data?: unknown[] }).data ?? []).length;
    ms.push(r.ms);
  }
  const s = summarize(ms);
  return { route: label, p50Ms: s.p50, p99Ms: s.p99, samples: ms.length, rows };
}

/** Tender-time cache hits one after another (as a TMS tenders), each answered from the cache. */
async function tenderHits(
  origin: string,
  headers: Record<string, string>,
  dots: string[],
  hits = HITS,
): Promise<{ p50Ms: number; p99Ms: number; n: number; ms: number[] }> {
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < hits && (i < 3 || performance.now() - t0 < HITS_BUDGET_MS); i++) {
    const t = performance.now();
    const res = await send(`${origin}/screenings?wait=5`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ dot_number: dots[i % dots.length], tender_id: `Y3-${i}` }),
    });
    const body = (await res.json()) as { source?: string };
    ms.push(performance.now() - t);
    if (res.status >= 300 || body.source !== 'cache') throw new Error(`year3: a cache hit answered ${res.status} source ${body.source}`);
  }
  const s = summarize(ms);
  return { p50Ms: s.p50, p99Ms: s.p99, n: ms.length, ms };
}

/** The pages the four heavy-read clients ask, one path each, over and over. */
export function heavyReadPaths(meta: Year3Meta): string[] {
  return [
    `/reviews?state=all&limit=100`,
    `/screenings?dot_number=${meta.neverDot}`,
    `/callbacks?state=all&limit=100`,
    `/reviews?state=approved&limit=100`,
  ];
}

export interface HitFigures {
  alone: { p50Ms: number; p99Ms: number; n: number; ms: number[] };
  loaded: { p50Ms: number; p99Ms: number; n: number; ms: number[] };
  heavyPages: number;
  /** CPU seconds of the worker's main thread (its event loop) in each phase (/proc/<pid>/task/<pid>/stat). */
  mainCpuS: { alone: number; loaded: number };
}

/** Tender-time cache hits of `hot` (warm) alone, then the same while four clients page `heavy`. */
export async function cacheHitAloneAndLoaded(
  w: { url: string; headers: Record<string, string>; pid: number },
  hot: string[],
  heavy: string[],
  hits = HITS,
): Promise<HitFigures> {
  const c0 = threadCpuSeconds(w.pid);
  const alone = await tenderHits(w.url, w.headers, hot, hits);
  const c1 = threadCpuSeconds(w.pid);
  let stop = false;
  let heavyPages = 0;
  const client = async (i: number): Promise<void> => {
    while (!stop) {
      const r = await get(`${w.url}${heavy[i % heavy.length]!}`, w.headers);
      if (r.status !== 200) throw new Error(`year3: a heavy read answered ${r.status}: ${r.body.slice(0, 200)}`);
      heavyPages++;
    }
  };
  const clients = [0, 1, 2, 3].map((i) => client(i));
  const loaded = await tenderHits(w.url, w.headers, hot, hits).finally(() => (stop = true));
  await Promise.all(clients);
  const c2 = threadCpuSeconds(w.pid);
  return { alone, loaded, heavyPages, mainCpuS: { alone: c1 - c0, loaded: c2 - c1 } };
}

function runCli(args: string[], env: Record<string, string>): Promise<number> {
  const cli = fileURLToPath(new URL('../../worker/cli.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(performance.now() - t)
        : reject(new Error(`carrier-screen ${args.join(' ')} exited ${code}: ${err.slice(-500)}`)),
    );
  });
}

export async function measureYear3(
  h: Harness,
  name: string,
  source: string,
  meta: Year3Meta,
  svcBaseUrl: string,
  o: { samples: number; hotFrom: number },
): Promise<Year3Figures> {
  const db = join(h.dir, `${name}.db`);
  copyFileSync(source, db);
  const usedBytes = dbUsedBytes(db);

  h.log(`${name}: starting the worker on ${(statSync(db).size / 1e6).toFixed(0)} MB`);
  const t0 = performance.now();
  const w = await h.startWorker(name, svcBaseUrl, { SCREEN_DB: db });
  for (;;) {
    const r = await send(`${w.url}/healthz`).catch(() => undefined);
    if (r?.status === 200) break;
    await new Promise((res) => setTimeout(res, 20));
  }
  const readyMs = performance.now() - t0;
  h.log(`${name}: ready in ${readyMs.toFixed(0)} ms`);

  const hd = w.headers;
  const u = (p: string): string => `${w.url}${p}`;
  const routes: Array<[string, string]> = [
    ['GET /screenings?limit=50 (first page)', '/screenings?limit=50'],
    ['GET /screenings?dot_number= (tail: screened once)', `/screenings?dot_number=${meta.tailDot}`],
    ['GET /screenings?dot_number= (never screened)', `/screenings?dot_number=${meta.neverDot}`],
    ['GET /screenings?mc_number= (tail)', `/screenings?mc_number=${encodeURIComponent(meta.tailMc)}`],
    ['GET /screenings?mc_number= (never)', `/screenings?mc_number=${encodeURIComponent(meta.neverMc)}`],
    ['GET /screenings?action=block&limit=50', '/screenings?action=block&limit=50'],
    ['GET /screenings?action=hold&limit=50', '/screenings?action=hold&limit=50'],
    ['GET /reviews?state=all&limit=100', '/reviews?state=all&limit=100'],
    ['GET /reviews?state=approved&limit=100', '/reviews?state=approved&limit=100'],
    ['GET /reviews?state=pending', '/reviews?state=pending'],
    ['GET /callbacks?state=all&limit=100', '/callbacks?state=all&limit=100'],
    ['GET /callbacks?state=delivered&limit=100', '/callbacks?state=delivered&limit=100'],
    ['GET /watchlist', '/watchlist'],
    ['GET /changes', '/changes'],
    ['GET /decisions', '/decisions'],
  ];
  const figures: RouteFigure[] = [];
  for (const [label, path] of routes) {
    figures.push(await sample(label, u(path), hd, o.samples));
    h.log(`${name}: ${label}: p50 ${figures.at(-1)!.p50Ms.toFixed(1)} ms, p99 ${figures.at(-1)!.p99Ms.toFixed(1)} ms`);
  }
  // The desk's "recently decided" panel as the dashboard reads it (electron/shared/http-bridge.ts
  // recentDecisions): one request of one page. rows: the requests one refresh of the panel makes.
  const panel = await sample(
    "desk's recent decisions (GET /reviews?state=decided&limit=12)",
    u('/reviews?state=decided&limit=12'),
    hd,
    o.samples,
  );
  figures.push({ ...panel, rows: 1 });
  h.log(`${name}: desk recent decisions p50 ${panel.p50Ms.toFixed(1)} ms`);

  // A cache hit alone, then while four clients page the heaviest reads.
  const hot = liveDots(50, o.hotFrom);
  await warmCache(h, w, hot);
  const { alone, loaded, heavyPages } = await cacheHitAloneAndLoaded(w, hot, heavyReadPaths(meta));
  h.log(
    `${name}: cache hit p99 ${alone.p99Ms.toFixed(1)} ms alone (${alone.n}), ${loaded.p99Ms.toFixed(1)} ms under heavy reads (${loaded.n} hits, ${heavyPages} pages)`,
  );

  // The audit export of the last month and the last year of the record.
  const to = meta.to;
  const rssBefore = peakRssMiB(w.pid);
  const month = await get(u(`/audit.csv?from=${new Date(Date.parse(to) - 30 * DAY_MS).toISOString()}&to=${to}`), hd);
  const year = await get(u(`/audit.csv?from=${new Date(Date.parse(to) - 365 * DAY_MS).toISOString()}&to=${to}`), hd);
  if (month.status !== 200 || year.status !== 200) throw new Error(`year3: audit export answered ${month.status}/${year.status}`);
  const rssAfter = peakRssMiB(w.pid);
  h.log(
    `${name}: audit month ${month.ms.toFixed(0)} ms, year ${year.ms.toFixed(0)} ms; peak RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`,
  );
  await w.stop();

  // Backup, as an operator runs it (the worker stopped: the file alone).
  const target = join(h.dir, `${name}.backup.db`);
  const backupMs = await runCli(['backup', target], { SCREEN_DB: db, REDIS_URL: h.redis.url });
  h.log(`${name}: backup in ${backupMs.toFixed(0)} ms`);
  for (const f of [target, `${target}.intake-token`, `${target}.callback-secret`]) rmSync(f, { force: true });

  // Retention a year later: the oldest year of screenings goes (3-year record).
  const store = openStore(db);
  const pruner = new Pruner({
    store: recordOf(store),
    policy: { eventsMs: 7 * DAY_MS, recordsMs: 3 * 365 * DAY_MS, notFoundMs: DAY_MS },
    logger: pino({ level: 'silent' }),
    now: () => new Date(Date.parse(to) + 365 * DAY_MS),
  });
  const tp = performance.now();
  const rows = await pruner.run();
  const pruneMs = performance.now() - tp;
  store.close();
  h.log(`${name}: pruned a year in ${pruneMs.toFixed(0)} ms: ${JSON.stringify(rows)}`);
  rmSync(db, { force: true });
  for (const f of [`${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });

  return {
    n: meta.n,
    fileBytes: meta.fileBytes,
    usedBytes,
    bytesPerScreening: usedBytes / meta.n,
    counts: meta.counts,
    readyMs,
    routes: figures,
    cacheHit: {
      aloneP50Ms: alone.p50Ms,
      aloneP99Ms: alone.p99Ms,
      loadedP50Ms: loaded.p50Ms,
      loadedP99Ms: loaded.p99Ms,
      aloneHits: alone.n,
      loadedHits: loaded.n,
      heavyPages,
    },
    audit: {
      monthMs: month.ms,
      monthBytes: month.body.length,
      yearMs: year.ms,
      yearBytes: year.body.length,
      peakRssBeforeMiB: rssBefore,
      peakRssAfterMiB: rssAfter,
    },
    backupMs,
    prune: { ms: pruneMs, rows },
  };
}
