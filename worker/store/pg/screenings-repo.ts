import type { Screening } from '../../../shared/screening.js';
import { carrierColumns, dotOf, mcOf } from '../carrier-columns.js';
import { insertedScreening, SCREENING_COLUMNS, toScreening, type ScreeningRow } from '../rows.js';
import type { ScreeningsRepo } from '../screening-repos.js';
import { NotFoundError } from '../store-error.js';
import type { ScreeningResult } from '../types.js';
import { checkId, checkNewScreening, checkResult } from '../arg-checks.js';
import type { AsyncRepo } from '../async-repo.js';
import type { DeferredWrite, PgExecutor } from './executor.js';
import { parsedFetches, type ParsedFetches } from './score-refs.js';
import { statement, type Queryable } from './sql.js';

/**
 * The Store's screenings on PostgreSQL: sqlite-store.ts's methods, statement for statement, with
 * rows.ts's mapping. Each write is one statement (its WHERE re-checked on the locked row under
 * READ COMMITTED, so two hosts never both move a screening); completeScreening is its own
 * transaction (a savepoint inside a caller's). The version is the trigger's, as in SQLite.
 */

export interface PgScreeningsOptions {
  /** The clock for every timestamp written (tests pin it). */
  now: () => Date;
  /** The parsed-score memo, shared by the repositories of one record (one per repository otherwise). */
  scores?: ParsedFetches;
}

// SQLite's scalar MAX returns NULL when any argument is NULL, GREATEST skips NULLs: the same here,
// since every argument is COALESCEd and created_at is NOT NULL.
const SQLITE_UPDATED_AT = "MAX(s.created_at, COALESCE(s.completed_at, ''), COALESCE(r.decided_at, ''))";
if (!SCREENING_COLUMNS.includes(SQLITE_UPDATED_AT)) throw new Error('rows.ts SCREENING_COLUMNS changed: update its PostgreSQL twin');
/** rows.ts's SCREENING_COLUMNS (aliases s, r) in PostgreSQL. */
export const PG_SCREENING_COLUMNS = SCREENING_COLUMNS.replace(SQLITE_UPDATED_AT, SQLITE_UPDATED_AT.replace(/^MAX\(/, 'GREATEST('));

/** A result's columns as parameters (sqlite-store.ts `resultValues`). */
function resultParams(r: ScreeningResult) {
  return {
    action: r.action,
    hold_reason: r.hold_reason,
    source: r.source,
    // A reference to the fetch when there is one: the score's JSON is stored once per fetch.
    score: r.score === null || (r.score_fetch_id ?? null) !== null ? null : JSON.stringify(r.score),
    score_fetch_id: r.score === null ? null : (r.score_fetch_id ?? null),
    score_fetched_at: r.score_fetched_at,
    model_version: r.score?.model_version ?? null,
    error: r.error === null ? null : JSON.stringify(r.error),
  };
}
type ResultParams = ReturnType<typeof resultParams>;

/** The score's carrier ids, canonical (sqlite-store.ts `scoreCarrier`). */
function scoreCarrier(r: ScreeningResult) {
  return { score_dot: dotOf(r.score?.carrier?.dot_number), score_mc: mcOf(r.score?.carrier?.mc_number) };
}

const RESULT_SET = `action = @action, hold_reason = @hold_reason, source = @source, score = @score, score_fetch_id = @score_fetch_id,
  score_fetched_at = @score_fetched_at, model_version = @model_version, error = @error`;
/** The carrier columns a result sets: the number asked by stays, the other kind is the score's. */
const SCORE_CARRIER_SET = `carrier_dot = CASE WHEN query_kind = 'dot_number' THEN carrier_dot ELSE @score_dot END,
  carrier_mc = CASE WHEN query_kind = 'mc_number' THEN carrier_mc ELSE @score_mc END`;

type NewRow = {
  id: string;
  tender_id: string | null;
  load: string | null;
  query_kind: string;
  query_value: string;
  priority: string;
  refresh: number;
  callback_url: string | null;
  created_at: string;
  carrier_dot: string | null;
  carrier_mc: string | null;
};
type FinishedRow = NewRow & ResultParams & { carrier_key: string | null };
/** Finished rows as one array per column: the parameters of insertFinishedManySql. */
export type FinishedArrays = { [K in keyof FinishedRow]: Array<FinishedRow[K]> };

/**
 * A finished row's columns and their types: the one list the many-row INSERT is written from (its
 * columns, its unnest's arrays in this order, their names) and `finishedArrays` fills.
 */
const FINISHED_TYPES: { readonly [K in keyof FinishedRow]-?: 'text' | 'bigint' } = {
  id: 'text',
  tender_id: 'text',
  load: 'text',
  query_kind: 'text',
  query_value: 'text',
  priority: 'text',
  refresh: 'bigint',
  callback_url: 'text',
  created_at: 'text',
  action: 'text',
  hold_reason: 'text',
  source: 'text',
  score: 'text',
  score_fetch_id: 'bigint',
  score_fetched_at: 'text',
  model_version: 'text',
  error: 'text',
  carrier_key: 'text',
  carrier_dot: 'text',
  carrier_mc: 'text',
};
const FINISHED_COLUMNS = Object.keys(FINISHED_TYPES) as Array<keyof FinishedRow>;

/**
 * Finished screenings, many in one INSERT, in the order given (seq): `@id`, `@tender_id`… each
 * an array (FinishedArrays; `prefix` before each name where the statement has names of its own,
 * `finishedArrays(rows, prefix)`). `from` goes before the rows: `h CROSS JOIN` in the event log's last
 * append (event-log-repo.ts) writes none when `h` has no row. `array`: how each array is written
 * (`batchArray` in sql.ts, for a statement PostgreSQL would otherwise plan at every bind).
 */
export function insertFinishedManySql(
  from: string,
  prefix = '',
  array: (name: string, type: 'text' | 'bigint') => string = (name, type) => `@${name}::${type}[]`,
): string {
  const columns = FINISHED_COLUMNS.join(', ');
  const arrays = FINISHED_COLUMNS.map((c) => array(`${prefix}${c}`, FINISHED_TYPES[c])).join(', ');
  // Done at once: completed when created.
  return `INSERT INTO screenings (${columns}, status, completed_at)
     SELECT ${columns}, 'done', created_at
     FROM ${from} unnest(${arrays}) WITH ORDINALITY AS r (${columns}, n)
     ORDER BY n`;
}
type IdParam = { id: string };

/**
 * A unit of work's finished screenings (a group commit's cache hits), written after their reads:
 * one INSERT for the batch instead of one round trip per hit. The screening is answered as
 * written once the unit commits, as with insertScreening's own statement.
 */
export const answered: DeferredWrite<FinishedRow> = {
  name: 'screenings answered at once',
  async write(q, rows) {
    const n = await st.insertFinishedMany.run(q, finishedArrays(rows));
    if (n !== rows.length) throw new Error(`${this.name}: ${n} of ${rows.length} rows written`);
  },
};

export function finishedArrays(rows: readonly FinishedRow[]): FinishedArrays;
export function finishedArrays(rows: readonly FinishedRow[], prefix: string): Record<string, unknown[]>;
export function finishedArrays(rows: readonly FinishedRow[], prefix = ''): Record<string, unknown[]> {
  return Object.fromEntries(FINISHED_COLUMNS.map((c) => [`${prefix}${c}`, rows.map((r) => r[c])]));
}
type CarrierParams = { score_dot: string | null; score_mc: string | null };

const st = {
  insert: statement<NewRow>(
    'screenings_insert',
    `INSERT INTO screenings (id, tender_id, load, status, query_kind, query_value, priority, refresh, callback_url, created_at, carrier_dot, carrier_mc)
     VALUES (@id, @tender_id, @load, 'queued', @query_kind, @query_value, @priority, @refresh, @callback_url, @created_at, @carrier_dot, @carrier_mc)`,
  ),
  insertFinished: statement<NewRow & ResultParams & { carrier_key: string | null }>(
    'screenings_insert_finished',
    `INSERT INTO screenings (id, tender_id, load, status, query_kind, query_value, priority, refresh, callback_url, created_at,
       action, hold_reason, source, score, score_fetch_id, score_fetched_at, model_version, error, completed_at, carrier_key, carrier_dot, carrier_mc)
     VALUES (@id, @tender_id, @load, 'done', @query_kind, @query_value, @priority, @refresh, @callback_url, @created_at,
       @action, @hold_reason, @source, @score, @score_fetch_id, @score_fetched_at, @model_version, @error, @created_at, @carrier_key, @carrier_dot, @carrier_mc)`,
  ),
  // The rows a unit of work kept (`answered`), in one statement.
  insertFinishedMany: statement<FinishedArrays>('screenings_insert_finished_many', insertFinishedManySql('')),
  markActive: statement<IdParam>('screenings_mark_active', "UPDATE screenings SET status = 'active' WHERE id = @id AND status = 'queued'"),
  exists: statement<IdParam>('screenings_exists', 'SELECT id FROM screenings WHERE id = @id'),
  rescreen: statement<IdParam & ResultParams & CarrierParams & { at: string }>(
    'screenings_rescreen',
    `UPDATE screenings SET ${RESULT_SET.replace('hold_reason = @hold_reason', 'hold_reason = COALESCE(@hold_reason, hold_reason)')},
       rescreened_at = @at, ${SCORE_CARRIER_SET}
     WHERE id = @id AND status = 'done' AND action = 'hold' AND settled_by IS NULL`,
  ),
  markRescreened: statement<IdParam & { at: string }>(
    'screenings_mark_rescreened',
    'UPDATE screenings SET rescreened_at = @at WHERE id = @id',
  ),
  complete: statement<IdParam & ResultParams & CarrierParams & { at: string }>(
    'screenings_complete',
    `UPDATE screenings SET status = 'done', ${RESULT_SET}, completed_at = @at, ${SCORE_CARRIER_SET}
     WHERE id = @id AND status <> 'done'`,
  ),
  // A resolved review's decision outlives a late (re-run) completion.
  keepReviewDecision: statement<IdParam>(
    'screenings_keep_review_decision',
    `UPDATE screenings SET action = (
       SELECT CASE r.state WHEN 'approved' THEN 'tender' ELSE 'block' END FROM reviews r
       WHERE r.screening_id = screenings.id AND r.state IN ('approved', 'rejected'))
     WHERE id = @id AND action = 'hold'
       AND EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = screenings.id AND r.state IN ('approved', 'rejected'))`,
  ),
  discard: statement<IdParam>('screenings_discard', "DELETE FROM screenings WHERE id = @id AND status = 'queued'"),
  byIds: statement<{ ids: string[] }>(
    'screenings_by_ids',
    `SELECT ${PG_SCREENING_COLUMNS} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id WHERE s.id = ANY(@ids::text[])`,
  ),
  listUnfinished: statement(
    'screenings_list_unfinished',
    `SELECT ${PG_SCREENING_COLUMNS} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
     WHERE s.status IN ('queued', 'active') ORDER BY s.created_at ASC, s.seq ASC`,
  ),
  // The unfinished partial index is in created_at order: the first queued row there is the answer.
  oldestQueued: statement(
    'screenings_oldest_queued',
    "SELECT created_at FROM screenings WHERE status IN ('queued', 'active') AND status = 'queued' ORDER BY created_at ASC LIMIT 1",
  ),
};

/** Screening rows as Screenings, their scores read first (one statement for the fetches not yet known). */
export async function screeningsOfRows(q: Queryable, scores: ParsedFetches, rows: ScreeningRow[]): Promise<Screening[]> {
  if (rows.length === 0) return [];
  const scoreOf = await scores.scoresFor(
    q,
    rows.map((r) => r.score_fid),
  );
  return rows.map((row) => toScreening(row, scoreOf));
}

/** The screenings of `ids` with their reviews, by id (a missing id is absent). */
export async function screeningsByIds(q: Queryable, scores: ParsedFetches, ids: readonly string[]): Promise<Map<string, Screening>> {
  if (ids.length === 0) return new Map();
  const rows = await st.byIds.all<ScreeningRow>(q, { ids: [...new Set(ids)] });
  return new Map((await screeningsOfRows(q, scores, rows)).map((s) => [s.id, s]));
}

export function pgScreeningsOf(x: PgExecutor, opts: PgScreeningsOptions): AsyncRepo<ScreeningsRepo> {
  const { now } = opts;
  const scores = opts.scores ?? parsedFetches();
  const one = async (q: Queryable, id: string) => (await screeningsByIds(q, scores, [id])).get(id);

  return {
    async insertScreening(s, finished) {
      const { q, id } = checkNewScreening(s, finished);
      const [kind, value] = 'dot_number' in q ? (['dot_number', q.dot_number] as const) : (['mc_number', q.mc_number] as const);
      const createdAt = now().toISOString();
      const tenderId = s.tender_id ?? null;
      const callbackUrl = s.callback_url ?? null;
      const load = s.load ?? null;
      const loadJson = load === null ? null : JSON.stringify(load);
      const [carrierDot, carrierMc] = carrierColumns(
        kind,
        value,
        finished?.score?.carrier?.dot_number,
        finished?.score?.carrier?.mc_number,
      );
      const row: NewRow = {
        id,
        tender_id: tenderId,
        load: loadJson,
        query_kind: kind,
        query_value: value,
        priority: s.priority,
        refresh: s.refresh ? 1 : 0,
        callback_url: callbackUrl,
        created_at: createdAt,
        carrier_dot: carrierDot,
        carrier_mc: carrierMc,
      };
      if (finished === undefined) await st.insert.run(x, row);
      else {
        const done: FinishedRow = { ...row, ...resultParams(finished), carrier_key: s.carrier_key ?? null };
        // In a group commit: with the batch's other hits, after their reads (executor.ts).
        if (!x.defer?.(answered, done)) await st.insertFinished.run(x, done);
      }
      return insertedScreening({ id, query: q, loadJson, createdAt }, s, finished);
    },

    async markActive(id) {
      checkId(id);
      if ((await st.markActive.run(x, { id })) === 0 && !(await st.exists.get(x, { id })))
        throw new NotFoundError(`no screening with id ${id}`);
    },

    async completeScreening(id, r) {
      checkId(id);
      checkResult(r);
      return x.transaction(async (tx) => {
        // Two completions at once: the second waits on the row, then finds it done (0 rows).
        const changed = (await st.complete.run(tx, { id, ...resultParams(r), at: now().toISOString(), ...scoreCarrier(r) })) > 0;
        if (changed) await st.keepReviewDecision.run(tx, { id });
        const screening = await one(tx, id);
        if (!screening) throw new NotFoundError(`no screening with id ${id}`);
        return { screening, changed };
      });
    },

    async rescreenResult(id, r) {
      checkId(id);
      checkResult(r);
      return (await st.rescreen.run(x, { id, ...resultParams(r), at: now().toISOString(), ...scoreCarrier(r) })) > 0;
    },

    async markRescreened(id) {
      checkId(id);
      await st.markRescreened.run(x, { id, at: now().toISOString() });
    },

    async discardScreening(id) {
      checkId(id);
      return (await st.discard.run(x, { id })) > 0;
    },

    async getScreening(id) {
      checkId(id);
      return one(x, id);
    },

    async listUnfinished() {
      return screeningsOfRows(x, scores, await st.listUnfinished.all<ScreeningRow>(x, {}));
    },

    async oldestQueuedAt() {
      return (await st.oldestQueued.get<{ created_at: string }>(x, {}))?.created_at ?? null;
    },
  };
}
