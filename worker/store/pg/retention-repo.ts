import type { PruneTask, RetentionRepo } from '../retention-repo.js';
import { ADVISORY_KEYS } from './advisory-keys.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { retryCause } from './pg-errors.js';
import { statement, type Queryable, type Statement } from './sql.js';

/**
 * Retention on PostgreSQL: the SQLite twin's 11 prune tasks (retention-repo.ts), each one batch
 * of at most @limit rows in a short transaction of its own, and a lock so one host prunes at a
 * time (docs/design/postgres.md, section 4 "pruning").
 *
 * PostgreSQL has no `DELETE … LIMIT`. A batch is chosen once, in a MATERIALIZED CTE, then deleted
 * by key: SQLite's `WHERE key IN (SELECT … LIMIT @limit)` may be run again by PostgreSQL's plan (a
 * semi-join's inner side is rescanned), and a rescan that skips rows it has just deleted or
 * locked takes more than @limit. Each statement then checks its row's own conditions again on the
 * row it deletes: under READ COMMITTED a row another host changed while we waited for it is
 * checked against the DELETE's own WHERE only, so a dead callback retried to pending, or a
 * not-found answer refreshed, is not deleted.
 */

type PruneParams = { cutoff: string; limit: number };

/** The statements of one task, run one after another until @limit rows are gone. */
interface PgPruneTask {
  keep: PruneTask['keep'];
  steps: readonly PgPruneStep[];
}

interface PgPruneStep {
  /** The callback state whose count row (this session's shard) the step takes first. */
  counts?: 'delivered' | 'dead' | 'cancelled';
  delete: Statement<PruneParams>;
}

/** `batch` selects the keys (`keys`) of at most @limit rows; `recheck` is on the deleted row, `t`. */
const step = (name: string, table: string, keys: readonly string[], batch: string, recheck: string): PgPruneStep => ({
  delete: statement<PruneParams>(
    `retention_${name}`,
    `WITH batch AS MATERIALIZED (${batch})
     DELETE FROM ${table} t USING batch b WHERE ${keys.map((k) => `t.${k} = b.${k}`).join(' AND ')} AND ${recheck}`,
  ),
});

// The callback outbox, one state per statement and transaction: each deleted row moves its
// state's count row of this session's shard (callback_counts, a trigger). That row is taken
// first, before any callback: a host changing callbacks on the same shard holds count rows and
// may wait for a callback of our batch, so a batch that locked callbacks and then waited for a
// count row would close a cycle (40P01); waiting before it holds anything, it cannot. Then `FOR
// UPDATE SKIP LOCKED`: a callback another host is changing (a retry, a send, a cancel) is left to
// the next pass, never waited on.
const outboxStep = (state: 'delivered' | 'dead' | 'cancelled'): PgPruneStep => ({
  counts: state,
  ...step(
    `outbox_${state}`,
    'callback_outbox',
    ['id'],
    `SELECT id FROM callback_outbox WHERE state = '${state}' AND updated_at < @cutoff ORDER BY updated_at LIMIT @limit FOR UPDATE SKIP LOCKED`,
    `t.state = '${state}' AND t.updated_at < @cutoff`,
  ),
});

// The schema's own upsert of a count row (this session's shard), by 0: its row lock, to COMMIT.
const takeCount = statement<{ state: string }>('retention_take_count', 'SELECT callback_counts_add(@state::text, 0)');

/** PRUNE_TASKS by name, for PostgreSQL (pg-retention-contract.test.ts checks every one is here). */
export const PG_PRUNE_TASKS: ReadonlyMap<string, PgPruneTask> = new Map<string, PgPruneTask>([
  // Oldest ids first; ids grow with time, so this never scans past the first kept event.
  [
    'events',
    {
      keep: 'eventsMs',
      steps: [step('events', 'events', ['id'], 'SELECT id FROM events ORDER BY id LIMIT @limit', 't.created_at < @cutoff')],
    },
  ],
  ['delivered callbacks', { keep: 'eventsMs', steps: [outboxStep('delivered')] }],
  // Two statements: cancelled, then dead (state order, as the counts' trigger takes them).
  ['dead and cancelled callbacks', { keep: 'recordsMs', steps: [outboxStep('cancelled'), outboxStep('dead')] }],
  [
    'screenings',
    {
      keep: 'recordsMs',
      // Their reviews go with them (ON DELETE CASCADE); a review still pending keeps its screening.
      steps: [
        step(
          'screenings',
          'screenings',
          ['id'],
          `SELECT s.id FROM screenings s WHERE s.created_at < @cutoff AND s.status = 'done'
             AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = s.id AND r.state = 'pending')
           ORDER BY s.created_at LIMIT @limit`,
          `t.created_at < @cutoff AND t.status = 'done'
           AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = t.id AND r.state = 'pending')`,
        ),
      ],
    },
  ],
  [
    'unreferenced score fetches',
    {
      keep: 'eventsMs',
      // A fetched score lives as long as a screening or the cache refers to it (score-refs.ts).
      steps: [
        step(
          'score_fetches',
          'score_fetches',
          ['id'],
          `SELECT f.id FROM score_fetches f WHERE f.fetched_at < @cutoff
             AND NOT EXISTS (SELECT 1 FROM screenings s WHERE s.score_fetch_id = f.id)
             AND NOT EXISTS (SELECT 1 FROM score_cache c WHERE c.fetch_id = f.id)
           ORDER BY f.id LIMIT @limit`,
          `NOT EXISTS (SELECT 1 FROM screenings s WHERE s.score_fetch_id = t.id)
           AND NOT EXISTS (SELECT 1 FROM score_cache c WHERE c.fetch_id = t.id)`,
        ),
      ],
    },
  ],
  [
    'watch screenings',
    {
      keep: 'recordsMs',
      steps: [
        step(
          'watch_screenings',
          'watch_screenings',
          ['screening_id'],
          'SELECT screening_id FROM watch_screenings WHERE created_at < @cutoff LIMIT @limit',
          't.created_at < @cutoff',
        ),
      ],
    },
  ],
  [
    'carrier changes',
    {
      keep: 'recordsMs',
      steps: [
        step(
          'carrier_changes',
          'carrier_changes',
          ['id'],
          'SELECT id FROM carrier_changes WHERE detected_at < @cutoff ORDER BY detected_at LIMIT @limit',
          't.detected_at < @cutoff',
        ),
      ],
    },
  ],
  [
    'lifted blocks',
    {
      keep: 'recordsMs',
      steps: [
        step(
          'lifted_blocks',
          'local_blocks',
          ['id'],
          'SELECT id FROM local_blocks WHERE lifted_at IS NOT NULL AND lifted_at < @cutoff LIMIT @limit',
          't.lifted_at < @cutoff',
        ),
      ],
    },
  ],
  [
    'ended decisions',
    {
      keep: 'recordsMs',
      // A standing decision is kept whatever its age: it is in force (its TTL ends it first).
      steps: [
        step(
          'decisions',
          'decisions',
          ['id'],
          "SELECT id FROM decisions WHERE state <> 'standing' AND decided_at < @cutoff ORDER BY decided_at LIMIT @limit",
          "t.state <> 'standing' AND t.decided_at < @cutoff",
        ),
      ],
    },
  ],
  [
    'idempotency keys',
    {
      keep: 'eventsMs',
      // Honoured 24 h (worker/decisions/idempotency.ts); gone with the event log.
      steps: [
        step(
          'idempotency_keys',
          'idempotency_keys',
          ['scope', 'key'],
          'SELECT scope, key FROM idempotency_keys WHERE created_at < @cutoff ORDER BY created_at LIMIT @limit',
          't.created_at < @cutoff',
        ),
      ],
    },
  ],
  [
    'expired not-found answers',
    {
      keep: 'notFoundMs',
      steps: [
        step(
          'not_found',
          'not_found_cache',
          ['env', 'query_key'],
          'SELECT env, query_key FROM not_found_cache WHERE fetched_at < @cutoff LIMIT @limit',
          't.fetched_at < @cutoff',
        ),
      ],
    },
  ],
]);

/** A connection of its own (pg's PoolClient is one), given back with `release` (an error: closed instead). */
export interface PgSession extends Queryable {
  release(err?: Error | boolean): void;
  /** A checked-out client that loses its server emits 'error': unheard, it would end the process. */
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

/** Where the prune lock's session comes from, and whether the store is closing: a pg.Pool. */
export interface PgSessions {
  connect(): Promise<PgSession>;
  /** True from the pool's `end()` on. */
  readonly ending: boolean;
}

/** The prune lock, held by this host until `release` (or until its session ends). */
export interface PruneLock {
  release(): Promise<void>;
}

export type PgRetentionRepo = AsyncRepo<RetentionRepo> & {
  /**
   * One host prunes at a time: the prune lock (a session-level advisory lock on a connection of
   * its own, held for the pass, so the batches' own short transactions never hold it), or
   * undefined while another host holds it. If the session dies mid-pass the lock goes with it and
   * another host may start: pruning twice at once is slower, never wrong.
   */
  tryPruneLock(): Promise<PruneLock | undefined>;
};

const tryLock = statement<{ key: number }>('retention_try_lock', 'SELECT pg_try_advisory_lock(@key::bigint) AS locked');
const unlock = statement<{ key: number }>('retention_unlock', 'SELECT pg_advisory_unlock(@key::bigint) AS unlocked');

export function pgRetentionOf(x: PgExecutor, sessions: PgSessions): PgRetentionRepo {
  const once = (s: PgPruneStep, params: PruneParams): Promise<number> =>
    // A transaction of its own, as SQLite's IMMEDIATE one (a savepoint inside a caller's).
    x.transaction(async (tx) => {
      if (s.counts) await takeCount.run(tx, { state: s.counts });
      return s.delete.run(tx, params);
    });

  return {
    isOpen: async () => !sessions.ending,

    async pruneBatch(task, cutoff, limit) {
      const pg = PG_PRUNE_TASKS.get(task.name);
      if (!pg || pg.keep !== task.keep) throw new Error(`retention: no PostgreSQL statement for the prune task "${task.name}"`);
      let total = 0;
      for (const s of pg.steps) {
        if (total >= limit) break;
        const params = { cutoff, limit: limit - total };
        try {
          total += await once(s, params);
        } catch (err) {
          // PostgreSQL chose this batch to give way; it is only deletes of rows still due: run again, once.
          if (!retryCause(err)) throw err;
          total += await once(s, params);
        }
      }
      return total;
    },

    // No free list to give back on PostgreSQL: autovacuum reuses the space of deleted rows.
    freePages: async () => 0,
    vacuum: async () => undefined,

    async tryPruneLock() {
      const session = await sessions.connect();
      // The session may die while held (a failover, a DBA's kill): the lock goes with it, and so
      // does the connection at release.
      let lost: Error | undefined;
      const onError = (err: Error) => (lost ??= err);
      session.on('error', onError);
      const giveBack = (err?: Error) => {
        session.off('error', onError);
        session.release(err ?? lost);
      };
      let row: { locked: boolean } | undefined;
      try {
        row = await tryLock.get<{ locked: boolean }>(session, { key: ADVISORY_KEYS.prune });
      } catch (err) {
        giveBack(err as Error);
        throw err;
      }
      if (!row?.locked) {
        giveBack();
        return undefined;
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          if (lost) return giveBack();
          try {
            const r = await unlock.get<{ unlocked: boolean }>(session, { key: ADVISORY_KEYS.prune });
            // Not held any more (cannot happen on a live session): close it rather than reuse it.
            giveBack(r?.unlocked ? undefined : new Error('the prune lock was not held'));
          } catch (err) {
            // Closing the session drops the lock with it.
            giveBack(err as Error);
          }
        },
      };
    },
  };
}
