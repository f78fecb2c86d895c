import { recordOf } from '../../worker/store/index.js';
/**
 * The "year three" database: N screenings spread over 3 years, written through the store's own
 * write functions (openStore with a simulated clock), one transaction per simulated day.
 * What each screening writes, as the tender path writes it (worker/queue/screening-pipeline.ts):
 * - a /v1 fetch (store.putScore) when the carrier's cache entry is older than the cache TTL (4 h),
 *   the score being the live emulator's own body for that carrier (scoreBody);
 * - the screening, written done at once (store.insertScreening with its result and carrier key);
 * - its tender use and change detection (watch store recordTender + observe, as WatchService.record);
 * - a hold opens its carrier's review, or joins the one open, as the pipeline's cache hit does
 *   (CarrierDecisions.onHold in the day's transaction, its screening summary and event as the
 *   pipeline writes them); the desk decides a review within the hour (store.resolveReview: 85 %
 *   approved), except holds of the last day, left pending (a later one of its carrier joins it);
 * - within the event/delivered-callback retention (7 days): its events (store.appendEvent) and
 *   its callback (writeCallback, marked delivered as the sender does); before it, only dead
 *   callbacks are kept (0.2 %), as retention leaves them.
 * Not written (documented in bench/README.md): standing decisions, watch re-screens (background
 * screenings), idempotency keys, daily lookup counts.
 * Carrier changes come from the emulator's own dated changes (applyDatedChange), applied to 1 %
 * of fetches and undone at the carrier's next fetch.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import { liveCarrier, scoreBody, type CarrierProfile } from '../../emulator/index.js';
import { applyDatedChange, DATED_CHANGE_KINDS } from '../../emulator/dated-changes.js';
import { actionForScore } from '../../shared/tender-rules.js';
import type { Screening } from '../../shared/screening.js';
import type { ScreeningResult } from '../../worker/store/types.js';
import { writeCallback } from '../../worker/callbacks/outbox.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';
import { reviewRef } from '../../worker/events/event-refs.js';
import { orderedId } from '../../worker/store/ids.js';
import { latestVersion } from '../../worker/store/migrations.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { openWatchStore } from '../../worker/store/watch-store.js';
import { detectChanges, snapshotOf, oweChangeCallbacks, nextCheckAt, dotKey, canonicalMc } from '../../worker/watch/index.js';
import { seededRandom } from '../prng.js';
import { ZipfSampler } from '../zipf.js';

/** Bump when what the generator writes changes: a cached file of another version is rebuilt. */
export const GENERATOR_VERSION = 3;
const DAY_MS = 86_400_000;
const YEARS = 3;
const CACHE_TTL_MS = 4 * 3_600_000;
const EVENTS_KEEP_MS = 7 * DAY_MS;
const WATCH_DAYS = 14;
const CALLBACK_URL = 'https://tms.example.com/hooks/carrier-screen';
/** DOTs of the carrier population start here; never-seen DOTs are taken above it. */
export const FIRST_DOT = 5_000_000;

export interface Year3Meta {
  n: number;
  schemaVersion: number;
  generatorVersion: number;
  builtAt: string;
  buildS: number;
  from: string;
  to: string;
  carriers: number;
  counts: Record<string, number>;
  /** A carrier screened exactly once (the tail of the search), by DOT and by MC. */
  tailDot: string;
  tailMc: string;
  /** A live carrier never screened. */
  neverDot: string;
  neverMc: string;
  fileBytes: number;
}

export function year3Paths(dataDir: string, n: number): { db: string; meta: string } {
  const base = join(dataDir, `year3-n${n}-schema${latestVersion()}-gen${GENERATOR_VERSION}`);
  return { db: `${base}.db`, meta: `${base}.json` };
}

/** `count` live DOTs (ones the emulator scores) from `from` upward. */
function liveProfiles(count: number, from: number, rnd: () => number, at: Date): CarrierProfile[] {
  const keep = { tender: 1, hold: 0.07, block: 0.06 };
  const out: CarrierProfile[] = [];
  for (let dot = from; out.length < count; dot++) {
    const p = liveCarrier(String(dot));
    if (p && rnd() < keep[actionForScore(scoreBody(p, 'live', at)).action]) out.push(p);
  }
  return out;
}

export async function buildYear3(path: string, n: number, log: (s: string) => void, end = new Date()): Promise<Year3Meta> {
  const t0 = performance.now();
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });

  let clock = new Date(end.getTime() - YEARS * 365 * DAY_MS);
  const from = clock.toISOString();
  const store = openStore(partial, { now: () => clock });
  const db = connectionOf(store);
  // Speed only (what is written is the same): no fsync while building; the file is renamed
  // into place only once it is whole.
  db.pragma('synchronous = OFF');
  const watch = openWatchStore(store, { watchDays: WATCH_DAYS });
  // Reviews as production opens them (one open review per carrier). No standing decision is
  // written (the desk decides through store.resolveReview), so none settles a hold.
  const decisions = new CarrierDecisions({ store, env: 'live', ttlMs: 30 * DAY_MS, now: () => clock });
  const markDelivered = db.prepare<[number, string, string, string]>(
    "UPDATE callback_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ?, updated_at = ?, attempts = 1 WHERE id = ?",
  );
  const markChangesDelivered = db.prepare<[string, string]>(
    "UPDATE callback_outbox SET state = 'delivered', last_status = 200, last_error = NULL, delivered_at = ?, updated_at = ?, attempts = 1 WHERE state = 'pending' AND kind = 'carrier.changed'",
  );
  const markDead = db.prepare<[number, string, string]>(
    "UPDATE callback_outbox SET state = 'dead', last_status = ?, last_error = 'http_status', updated_at = ?, attempts = 8 WHERE id = ?",
  );

  // A broker's carriers, Zipf-distributed (a few haul most loads): three times a day's loads.
  // The emulator's live population holds far more holds and blocks than a broker books: keep
  // about 5 % of carriers that are held (a review each time) and 3 % blocked.
  const rnd = seededRandom(35);
  const carrierCount = Math.max(300, Math.round((3 * n) / (YEARS * 365)));
  const profiles = liveProfiles(carrierCount + 2, FIRST_DOT, rnd, clock);
  const never = profiles.pop()!;
  const zipf = new ZipfSampler(carrierCount, 1.0, rnd);
  // A rank's carrier: shuffled so the busiest carriers are not the lowest DOTs.
  const order = Array.from({ length: carrierCount }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const lastFetch = new Map<number, { id: number; at: number; changed: boolean }>();
  const seen = new Uint32Array(carrierCount);
  const counts: Record<string, number> = {
    screenings: 0,
    fetches: 0,
    reviews: 0,
    approved: 0,
    rejected: 0,
    pending: 0,
    changes: 0,
    events: 0,
    callbacks: 0,
    mcQueries: 0,
  };

  const days = YEARS * 365;
  const endMs = end.getTime();
  const eventsFrom = endMs - EVENTS_KEEP_MS;
  let written = 0;
  let tender = 0;
  for (let day = 0; day < days; day++) {
    const perDay = Math.round(((day + 1) * n) / days) - written;
    const dayStart = endMs - (days - day) * DAY_MS;
    // Everything inside is synchronous: the unit of work ends within this turn (no I/O in it).
    await recordOf(store).unitOfWork(async (tx) => {
      for (let k = 0; k < perDay; k++) {
        // Business hours of the day, in order.
        const at = dayStart + Math.floor(((k + rnd()) / perDay) * DAY_MS * 0.99);
        clock = new Date(at);
        const c = order[zipf.sample()]!;
        seen[c]!++;
        let profile = profiles[c]!;
        const dot = profile.carrier.dot_number;
        let f = lastFetch.get(c);
        if (!f || at - f.at >= CACHE_TTL_MS) {
          const change = !f?.changed && rnd() < 0.01;
          if (change) profile = applyDatedChange(profile, DATED_CHANGE_KINDS[Math.floor(rnd() * DATED_CHANGE_KINDS.length)]!);
          const score = scoreBody(profile, 'live', clock);
          const id = store.putScore('live', score, clock);
          if (id === null) throw new Error('year3 build: a fetch was not stored');
          f = { id, at, changed: change };
          lastFetch.set(c, f);
          counts.fetches!++;
        }
        const cached = store.getScore('live', { dot_number: dot })!;
        const score = cached.score;
        const verdict = actionForScore(score);
        const byMc = rnd() < 0.1 && typeof score.carrier.mc_number === 'string';
        if (byMc) counts.mcQueries!++;
        const query = byMc ? { mc_number: score.carrier.mc_number! } : { dot_number: dot };
        const withCallback = rnd() < 0.3;
        const key = dotKey(dot);
        const result: ScreeningResult = {
          action: verdict.action,
          hold_reason: verdict.hold_reason,
          source: f.at === at ? 'service' : 'cache',
          score,
          score_fetched_at: cached.fetched_at,
          score_fetch_id: cached.fetch_id,
          error: null,
        };
        const s: Screening = store.insertScreening(
          {
            id: `scr_${orderedId(at)}`,
            query,
            tender_id: `T-${++tender}`,
            priority: 'tender',
            refresh: false,
            callback_url: withCallback ? CALLBACK_URL : null,
            carrier_key: key,
          },
          result,
        );
        // Written held, then the carrier's review opened or joined (the pipeline's #answerNow).
        const hold = verdict.action === 'hold' ? await decisions.onHold(tx, s, result) : undefined;
        if (hold && hold.kind !== 'review') throw new Error('year3 build: a hold was settled, but no decision stands');
        if (hold) s.review = { id: hold.ownId, state: 'pending', decided_by: null, decided_at: null, note: null };
        counts.screenings!++;
        const recent = at >= eventsFrom;
        const mc =
          typeof score.carrier.mc_number === 'string' && score.carrier.mc_number.trim() !== ''
            ? canonicalMc(score.carrier.mc_number)
            : null;
        watch.recordTender({
          carrierKey: key,
          dot_number: dot,
          mc_number: mc,
          screeningId: s.id,
          tagged: true,
          at: s.created_at,
          nextCheckAt: () => nextCheckAt(key, clock),
        });
        const snapshot = snapshotOf(s);
        if (snapshot) {
          const change = watch.observe({
            keys: mc ? [key, `mc:${mc}`] : [key],
            dot_number: dot,
            mc_number: mc,
            legal_name: typeof score.carrier.legal_name === 'string' ? score.carrier.legal_name : null,
            snapshot,
            at: clock.toISOString(),
            tendersSince: new Date(at - WATCH_DAYS * DAY_MS).toISOString(),
            detect: detectChanges,
          });
          if (change) {
            counts.changes!++;
            if (recent) {
              store.appendEvent('carrier.changed', change);
              counts.events!++;
              counts.callbacks! += await oweChangeCallbacks(tx, recordOf(store), change, clock);
              // Delivered a moment later, as the screening's own callback below.
              const t = new Date(at + 200).toISOString();
              markChangesDelivered.run(t, t);
            }
          }
        }
        if (hold) {
          counts.reviews!++;
          if (recent) {
            // What the pipeline tells: a new review as a read gives it, or the one it joined.
            if (hold.joined) store.appendEvent('review.updated', reviewRef(hold.reviewId));
            else store.appendEvent('review.created', { ...store.getReview(hold.reviewId)!, screening: s });
            counts.events!++;
          }
          if (hold.joined) counts.pending!++;
          else if (at < endMs - DAY_MS) {
            clock = new Date(at + Math.floor(rnd() * 3_600_000));
            const state = rnd() < 0.85 ? 'approved' : 'rejected';
            const done = store.resolveReview(hold.reviewId, state, 'desk@broker.example', null);
            counts[state]!++;
            if (recent) {
              store.appendEvent('review.resolved', done);
              counts.events!++;
            }
            clock = new Date(at);
          } else counts.pending!++;
        }
        if (recent) {
          store.appendEvent('screening.completed', s);
          counts.events!++;
        }
        if (withCallback && (recent || rnd() < 0.002)) {
          const cb = await writeCallback(
            recordOf(store),
            {
              kind: 'screening.completed',
              url: CALLBACK_URL,
              deliveryId: `${s.id}.v${s.version}`,
              payload: { screening: s },
              at: clock,
              order: { subject: s.id, version: s.version },
            },
            tx,
          );
          const t = new Date(at + 200).toISOString();
          if (recent) markDelivered.run(200, t, t, cb.id);
          else markDead.run(503, t, cb.id);
          counts.callbacks!++;
        }
      }
      watch.pruneExpired(new Date(dayStart + DAY_MS).toISOString());
    });
    written += perDay;
    if (day % 73 === 72)
      log(
        `year3 build: ${written.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} screenings (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
  }
  store.close();
  // One file, no WAL beside it: copies of it are what the measurements open.
  const d = new Database(partial);
  d.pragma('wal_checkpoint(TRUNCATE)');
  d.close();

  let tail = -1;
  for (let i = carrierCount - 1; i >= 0 && tail < 0; i--) if (seen[order[i]!] === 1) tail = order[i]!;
  if (tail < 0) tail = order[carrierCount - 1]!;
  const tailProfile = profiles[tail]!;
  const meta: Year3Meta = {
    n,
    schemaVersion: latestVersion(),
    generatorVersion: GENERATOR_VERSION,
    builtAt: new Date().toISOString(),
    buildS: (performance.now() - t0) / 1000,
    from,
    to: end.toISOString(),
    carriers: carrierCount,
    counts,
    tailDot: tailProfile.carrier.dot_number,
    tailMc: String(tailProfile.carrier.mc_number ?? ''),
    neverDot: never.carrier.dot_number,
    neverMc: String(never.carrier.mc_number ?? ''),
    fileBytes: 0,
  };
  renameSync(partial, path);
  for (const f of [`${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
  return meta;
}

/** The cached file for N, built first if missing (or of another schema/generator version). */
export async function year3Database(
  dataDir: string,
  n: number,
  log: (s: string) => void,
): Promise<{ path: string; meta: Year3Meta; built: boolean }> {
  const p = year3Paths(dataDir, n);
  if (existsSync(p.db) && existsSync(p.meta)) {
    return {
      path: p.db,
      meta: { ...(JSON.parse(readFileSync(p.meta, 'utf8')) as Year3Meta), fileBytes: statSync(p.db).size },
      built: false,
    };
  }
  log(`year3: building ${n.toLocaleString('en-US')} screenings into ${p.db}`);
  const meta = await buildYear3(p.db, n, log);
  meta.fileBytes = statSync(p.db).size;
  writeFileSync(p.meta, JSON.stringify(meta, null, 2) + '\n');
  log(`year3: built in ${meta.buildS.toFixed(0)} s, ${(meta.fileBytes / 1e6).toFixed(0)} MB`);
  return { path: p.db, meta, built: true };
}
