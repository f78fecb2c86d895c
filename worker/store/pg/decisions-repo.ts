import type {
  CarrierLockSet,
  DecisionListsRepo,
  DecisionRow,
  DecisionsRepo,
  NewDecisionRow,
  NewReviewRow,
  ReviewHeadRow,
} from '../decisions-repo.js';
import { decisionFilter, type DecisionRowFilter } from '../decision-filter.js';
import { ADVISORY_NAMESPACES, carrierLockSql } from './advisory-keys.js';
import type { AsyncRepo } from '../async-repo.js';
import { lockCarrierSet } from './carrier-locks.js';
import { lockMissing, type PgExecutor } from './executor.js';
import { pgKeysetPage } from './keyset-page.js';
import { answered, finishedArrays, insertFinishedManySql } from './screenings-repo.js';
import { ahead, batchArray, readAheadMany, statement, type Statement } from './sql.js';

/**
 * The PostgreSQL twin of worker/store/decisions-repo.ts: the same methods, rows and order, each
 * run in the caller's transaction (`x`, a unit of work's client).
 *
 * Several hosts (docs/design/postgres.md, section 4): SQLite's one writer kept a carrier's
 * read-then-write whole (no open review, so open one; no standing decision, so review). Here a
 * unit of work first takes every carrier lock it may need in one statement (`lockCarriers`, in the
 * one global order of worker/store/pg/carrier-locks.ts: namespace, then hashtext of the key), so two units that look one carrier up
 * under its DOT and MC keys in opposite orders never hold one lock each while waiting for the
 * other's (40P01). The reads that start a step still take their carrier's lock (`standing` and
 * `openReviewId` by the key, `reviewHead` and `reviewOfScreening` by the review's own
 * carrier_key): after lockCarriers they are re-entrant no-ops (an advisory xact lock is counted,
 * not taken twice), and for a caller that named no keys they still keep one carrier whole. A
 * second host's hold thus waits, then reads the open review (or the standing decision) the first
 * committed, and joins it instead of opening a second; and a hold never joins a review that a
 * decision, a closing or a supersede is finishing at that moment. The unique index
 * reviews_one_open is the database's own guard behind the lock. A lock is its own statement: a
 * statement's snapshot is taken when it starts, so a read in the statement that waited would not
 * see the other's commit.
 */

/** decisions' columns in the SQLite table's order, so a row (and its JSON) is the same on both. */
const DECISION_COLUMNS =
  'id, carrier_key, dot_number, review_id, decision, basis, model_version, decided_by, decided_at, expires_at, state, ended_at, ended_by, end_reason, mc_number, legal_name, token_id, ended_token_id';
const REVIEW_LOCK = ADVISORY_NAMESPACES.review;
/** The carrier's open review, oldest first (its head; items wait on it through parent_id). */
const OPEN_REVIEW_SQL =
  "SELECT id FROM reviews WHERE carrier_key = @key AND state = 'pending' AND parent_id IS NULL ORDER BY created_at ASC, seq ASC";
/** A carrier's standing decision (its columns, `d.`, null without one) and its open review's id, for the carrier key `keySql`. */
const standingAndOpenReviewOf = (keySql: string): string =>
  `d.id IS NOT NULL AS has_standing, ${DECISION_COLUMNS.split(', ')
    .map((c) => `d.${c}`)
    .join(
      ', ',
    )}, (${OPEN_REVIEW_SQL.replace('SELECT id', 'SELECT r.id').replace('FROM reviews', 'FROM reviews r').replace('@key', keySql)} LIMIT 1) AS open_review_id`;
/** A review item, pending (decisions_insert_review's row; ON CONFLICT added where a re-run may meet one). */
const INSERT_REVIEW_SQL = `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision)
     VALUES (@id, @screening_id, 'pending', @hold_reason, @created_at, @carrier_key, @parent_id, @previous_decision)`;
/** The unit's kept finished screenings (screenings-repo.ts `answered`), inserted ahead of a review item in its statement. */
const WITH_KEPT_SCREENINGS = `WITH s AS (${insertFinishedManySql('', 's_')})`;

const st = {
  lockCarrier: statement<{ key: string }>('decisions_lock_carrier', `SELECT ${carrierLockSql(REVIEW_LOCK, '@key')}`),
  // A review's carrier_key never changes, so finding it in the locking statement is safe.
  lockReview: statement<{ id: string }>(
    'decisions_lock_review',
    `SELECT ${carrierLockSql(REVIEW_LOCK, 'carrier_key')} FROM reviews WHERE id = @id AND carrier_key IS NOT NULL`,
  ),
  lockReviewOfScreening: statement<{ screening_id: string }>(
    'decisions_lock_review_of_screening',
    `SELECT ${carrierLockSql(REVIEW_LOCK, 'carrier_key')} FROM reviews WHERE screening_id = @screening_id AND carrier_key IS NOT NULL`,
  ),
  // Plain reads (sql.ts): each is read after its carrier's lock (the repository takes it first),
  // and neither reads a screening, so they need not wait for the unit's kept ones.
  standing: statement<{ key: string }>(
    'decisions_standing',
    `SELECT ${DECISION_COLUMNS} FROM decisions WHERE carrier_key = @key AND state = 'standing'`,
    { plainRead: true, carrierRows: { param: 'key', tables: ['decisions'] } },
  ),
  lastEnded: statement<{ key: string }>(
    'decisions_last_ended',
    `SELECT ${DECISION_COLUMNS} FROM decisions WHERE carrier_key = @key AND state IN ('lapsed', 'revoked') ORDER BY ended_at DESC, seq DESC LIMIT 1`,
  ),
  end: statement<{ id: string; state: string; at: string; by: string | null; token_id: string | null; reason: string }>(
    'decisions_end',
    "UPDATE decisions SET state = @state, ended_at = @at, ended_by = @by, ended_token_id = @token_id, end_reason = @reason WHERE id = @id AND state = 'standing'",
  ),
  insert: statement<NewDecisionRow & Record<string, unknown>>(
    'decisions_insert',
    `INSERT INTO decisions (id, carrier_key, dot_number, mc_number, legal_name, review_id, decision, basis, model_version, decided_by, decided_at, expires_at, state, token_id)
     VALUES (@id, @carrier_key, @dot_number, @mc_number, @legal_name, @review_id, @decision, @basis, @model_version, @decided_by, @decided_at, @expires_at, 'standing', @token_id)`,
  ),
  get: statement<{ id: string }>('decisions_get', `SELECT ${DECISION_COLUMNS} FROM decisions WHERE id = @id`),
  openReview: statement<{ key: string }>('decisions_open_review', `${OPEN_REVIEW_SQL} LIMIT 1`, {
    plainRead: true,
    carrierRows: { param: 'key', tables: ['reviews'] },
  }),
  // A hold's first reads in one: the standing decision (a row when there is one) and the open
  // review's id (openReview's answer, kept for the unit: onHold asks for it next).
  standingAndOpenReview: statement<{ key: string }>(
    'decisions_standing_and_open_review',
    `SELECT ${standingAndOpenReviewOf('@key')}
     FROM (SELECT 1) AS one LEFT JOIN decisions d ON d.carrier_key = @key AND d.state = 'standing'`,
    { plainRead: true, carrierRows: { param: 'key', tables: ['decisions', 'reviews'] } },
  ),
  // Many carriers' standingAndOpenReview at once (readAheadStanding), each row with its position;
  // one generic plan (batchArray): planned at each bind, it cost 0.34 ms against 0.04 (bench/README.md).
  standingAndOpenReviewMany: statement<{ keys: string[] }>(
    'decisions_standing_and_open_review_many',
    `SELECT q.i, ${standingAndOpenReviewOf('q.key')}
     FROM unnest(${batchArray('keys', 'text')}) WITH ORDINALITY AS q(key, i) LEFT JOIN decisions d ON d.carrier_key = q.key AND d.state = 'standing'`,
    { plainRead: true },
  ),
  insertReview: statement<NewReviewRow>(
    'decisions_insert_review',
    `${INSERT_REVIEW_SQL}
     ON CONFLICT (screening_id) DO NOTHING`,
    { carrierRows: { param: 'carrier_key', tables: ['reviews'] } },
  ),
  // The same, after the finished screenings its unit kept (screenings-repo.ts `answered`): a held
  // cache hit's screening and its review item in one statement (the review's foreign key is
  // checked at the statement's end, when the screening is in).
  insertReviewWithScreenings: statement<NewReviewRow & Record<string, unknown>>(
    'decisions_insert_review_with_screenings',
    `${WITH_KEPT_SCREENINGS}
     ${INSERT_REVIEW_SQL}
     ON CONFLICT (screening_id) DO NOTHING`,
    { carrierRows: { param: 'carrier_key', tables: ['reviews'] } },
  ),
  // The same for a screening its own statement inserts (one of the kept): it has no review yet,
  // so the row goes in or the statement fails, and the unit need not wait for it (sendOnly).
  insertReviewOfNewScreening: statement<NewReviewRow & Record<string, unknown>>(
    'decisions_insert_review_of_new_screening',
    `${WITH_KEPT_SCREENINGS}
     ${INSERT_REVIEW_SQL}`,
    { carrierRows: { param: 'carrier_key', tables: ['reviews'] }, writesOrFails: true },
  ),
  reviewOfScreening: statement<{ screening_id: string }>(
    'decisions_review_of_screening',
    'SELECT id, parent_id FROM reviews WHERE screening_id = @screening_id',
  ),
  reviewHead: statement<{ id: string }>(
    'decisions_review_head',
    'SELECT id, parent_id, state, carrier_key, screening_id, version, basis_since, facts_screening_id, closed_by, closed_reason FROM reviews WHERE id = @id',
  ),
  // In insertion order, as SQLite reads them (reviews_by_parent, then rowid).
  waiting: statement<{ parent_id: string }>(
    'decisions_waiting',
    "SELECT id, screening_id FROM reviews WHERE parent_id = @parent_id AND state = 'pending' ORDER BY seq",
  ),
  resolveWaiting: statement<{
    parent_id: string;
    state: string;
    decided_by: string;
    decided_at: string;
    note: string | null;
    token_id: string | null;
  }>(
    'decisions_resolve_waiting',
    "UPDATE reviews SET state = @state, decided_by = @decided_by, decided_at = @decided_at, note = @note, token_id = @token_id WHERE parent_id = @parent_id AND state = 'pending'",
  ),
  // As SQLite reads them (one index after the other): the review's own first, then its items in
  // insertion order; a promoted review is newer than an item that waits on it.
  onReview: statement<{ id: string }>(
    'decisions_on_review',
    "SELECT screening_id FROM reviews WHERE (id = @id OR parent_id = @id) AND state = 'pending' ORDER BY id <> @id, seq",
  ),
  close: statement<{ id: string; by: string; reason: string; at: string }>(
    'decisions_close',
    "UPDATE reviews SET state = 'closed', closed_by = @by, closed_reason = @reason, decided_at = @at WHERE (id = @id OR parent_id = @id) AND state = 'pending'",
  ),
  closedVersion: statement<{ id: string; facts: string | null }>(
    'decisions_closed_version',
    'UPDATE reviews SET version = version + 1, basis_since = version + 1, facts_screening_id = COALESCE(@facts, facts_screening_id) WHERE id = @id',
  ),
  // PostgreSQL will not read 0/1 as a boolean: compared as an int.
  showFacts: statement<{ id: string; facts: string; new_basis: number }>(
    'decisions_show_facts',
    "UPDATE reviews SET version = version + 1, basis_since = CASE WHEN @new_basis::int = 1 THEN version + 1 ELSE basis_since END, facts_screening_id = @facts WHERE id = @id AND state = 'pending'",
  ),
  supersede: statement<{ id: string; by: string; at: string; note: string }>(
    'decisions_supersede',
    "UPDATE reviews SET state = 'superseded', decided_by = @by, decided_at = @at, note = @note, version = version + 1, basis_since = version + 1 WHERE id = @id AND state = 'pending'",
  ),
  firstWaiting: statement<{ parent_id: string }>(
    'decisions_first_waiting',
    "SELECT id FROM reviews WHERE parent_id = @parent_id AND state = 'pending' ORDER BY created_at ASC, seq ASC LIMIT 1",
  ),
  promote: statement<{ id: string }>('decisions_promote', 'UPDATE reviews SET parent_id = NULL WHERE id = @id'),
  reparent: statement<{ id: string; former: string }>(
    'decisions_reparent',
    "UPDATE reviews SET parent_id = @id WHERE parent_id = @former AND state = 'pending'",
  ),
  settle: statement<{ id: string; action: string; by: string; decision: string | null }>(
    'decisions_settle',
    "UPDATE screenings SET action = @action, settled_by = @by, standing_decision = @decision WHERE id = @id AND status = 'done'",
  ),
};

export function pgDecisionsOf(x: PgExecutor): AsyncRepo<DecisionsRepo> {
  // The carrier's review lock, unless the unit holds it already (taken with its carrier set).
  const lockReviews = (key: string) => lockMissing(x, REVIEW_LOCK, [key], () => st.lockCarrier.run(x, { key }));
  return {
    lockCarriers: (set: CarrierLockSet) => lockCarrierSet(x, set),
    async standing(key) {
      await lockReviews(key);
      // In a unit of work, the open review comes with it (a hold reads both, one after the other).
      if (!x.remember) return st.standing.get<DecisionRow>(x, { key });
      const row = await st.standingAndOpenReview.get<DecisionRow & { has_standing: boolean; open_review_id: string | null }>(x, { key });
      const { has_standing, open_review_id, ...decision } = row!;
      st.openReview.remember(x, { key }, open_review_id === null ? [] : [{ id: open_review_id }]);
      return has_standing ? (decision as DecisionRow) : undefined;
    },
    async readAheadStanding(keys) {
      // Not again what the unit holds (read under the locks it holds; no write has made it forget).
      const list = [...new Set(keys)].filter((key) => !st.standingAndOpenReview.known(x, { key }));
      await readAheadMany(
        x,
        st.standingAndOpenReviewMany,
        { keys: list },
        list.map((key) => ahead(st.standingAndOpenReview, { key })),
      );
    },
    lastEnded: (key) => st.lastEnded.get<DecisionRow>(x, { key }),
    get: (id) => st.get.get<DecisionRow>(x, { id }),
    insert: async (d) => void (await st.insert.run(x, d)),
    end: async (id, e) => (await st.end.run(x, { id, ...e })) > 0,
    async openReviewId(key) {
      await lockReviews(key);
      return (await st.openReview.get<{ id: string }>(x, { key }))?.id;
    },
    async insertReview(r) {
      // The unit's kept screenings go with it: the held one among them, which the review refers to.
      const kept = x.takeDeferred?.(answered) ?? [];
      if (kept.length === 0) return (await st.insertReview.run(x, r)) > 0;
      const params = { ...r, ...finishedArrays(kept, 's_') };
      if (!kept.some((s) => s.id === r.screening_id)) return (await st.insertReviewWithScreenings.run(x, params)) > 0;
      await st.insertReviewOfNewScreening.sendOnly(x, params);
      return true;
    },
    async reviewOfScreening(screeningId) {
      await st.lockReviewOfScreening.run(x, { screening_id: screeningId });
      return st.reviewOfScreening.get<{ id: string; parent_id: string | null }>(x, { screening_id: screeningId });
    },
    async reviewHead(id) {
      await st.lockReview.run(x, { id });
      return st.reviewHead.get<ReviewHeadRow>(x, { id });
    },
    waiting: (parentId) => st.waiting.all<{ id: string; screening_id: string }>(x, { parent_id: parentId }),
    resolveWaiting: async (parentId, r) => void (await st.resolveWaiting.run(x, { parent_id: parentId, ...r })),
    pendingOn: async (id) => (await st.onReview.all<{ screening_id: string }>(x, { id })).map((r) => r.screening_id),
    async close(id, c) {
      await st.close.run(x, { id, by: c.by, reason: c.reason, at: c.at });
      await st.closedVersion.run(x, { id, facts: c.factsScreeningId });
    },
    showFacts: async (id, factsScreeningId, newBasis) =>
      void (await st.showFacts.run(x, { id, facts: factsScreeningId, new_basis: newBasis ? 1 : 0 })),
    supersede: async (id, s) => (await st.supersede.run(x, { id, ...s })) > 0,
    firstWaiting: async (parentId) => (await st.firstWaiting.get<{ id: string }>(x, { parent_id: parentId }))?.id,
    // The former head has left `pending` (supersede) before this: were it still pending, the
    // promoted item would be a second open review and reviews_one_open would refuse it.
    async promote(id, formerId) {
      await st.promote.run(x, { id });
      await st.reparent.run(x, { id, former: formerId });
    },
    settle: async (screeningId, action, by, standingDecision) =>
      void (await st.settle.run(x, { id: screeningId, action, by, decision: standingDecision })),
  };
}

/** One statement per shape of the list's filter (a handful), named by it. */
const lists = new Map<string, Statement<Record<string, unknown>>>();

function listStatement(f: DecisionRowFilter): { s: Statement<Record<string, unknown>>; params: Record<string, unknown> } {
  const { where, params, ended } = decisionFilter(f);
  const name = `decisions_list_${f.dot_number === undefined ? 'all' : 'dot'}_${ended ? 'ended' : f.state === undefined ? 'any' : 'state'}`;
  let s = lists.get(name);
  if (!s) {
    const sql = `SELECT ${DECISION_COLUMNS} FROM decisions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${ended ? 'ended_at' : 'decided_at'} DESC, seq DESC LIMIT @limit`;
    lists.set(name, (s = statement<Record<string, unknown>>(name, sql)));
  }
  return { s, params };
}

/** The decisions' lists (GET /decisions, the CLI's list): reads only, on the pool. */
export function pgDecisionListsOf(x: PgExecutor): AsyncRepo<DecisionListsRepo> {
  return {
    list: (f, limit) => {
      const { s, params } = listStatement(f);
      return s.all<DecisionRow & Record<string, unknown>>(x, { ...params, limit });
    },
    page: (f, p) => {
      const { where, params, ended } = decisionFilter(f);
      return pgKeysetPage<DecisionRow & Record<string, unknown>>(
        x,
        'decisions',
        {
          select: `SELECT ${DECISION_COLUMNS} FROM decisions`,
          where,
          params,
          key: ended ? 'ended_at' : 'decided_at',
          tie: 'seq',
          direction: 'DESC',
          cursor: 'id = @cursor_id',
        },
        p,
      );
    },
  };
}
