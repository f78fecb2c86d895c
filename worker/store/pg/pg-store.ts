import pg from 'pg';
import type { QueryConfig, QueryResultRow } from 'pg';
import type { NestingTx, UnitsOfWork } from '../group-commit.js';
import type { MigrationLog } from '../batched-step.js';
import { StoreArgumentError, StoreError } from '../store-error.js';
import type { Tx } from '../types.js';
import type { RecordLists, RecordStore, RecordTx } from '../record.js';
import { runAfterCommit, txFinished } from '../unit-of-work-common.js';
import { pgAuditRowsOf } from './audit-rows.js';
import { pgDecisionListsOf, pgDecisionsOf } from './decisions-repo.js';
import { pgEventLogOf } from './event-log-repo.js';
import { poolExecutor, type DeferredWrite, type PgExecutor } from './executor.js';
import { pgIdempotencyOf } from './idempotency-repo.js';
import { pgLocalBlocksOf } from './local-blocks-repo.js';
import { pgOperatorStateOf } from './operator-state-repo.js';
import { pgCallbackSendsOf, pgOutboxOf } from './outbox-repo.js';
import { redactedUrl, retryCause, toPgStoreError } from './pg-errors.js';
import { migratePg } from './pg-migrations.js';
import { openPgPool, writeTogether } from './pg-pool.js';
import { pgRescreenHoldsOf } from './rescreen-holds-repo.js';
import { pgRetentionOf } from './retention-repo.js';
import { pgReviewsOf } from './reviews-repo.js';
import { pgScoreCacheOf } from './score-cache-repo.js';
import { parsedFetches, type ParsedFetches } from './score-refs.js';
import { pgSearchScreenings } from './screening-search.js';
import { carrierRows, isLocksOnly, isPlainRead, seesLateWrites, takesLocks, tablesRead, tablesWritten, type Queryable } from './sql.js';
import { pgScreeningsOf } from './screenings-repo.js';
import { pgTokensOf } from './tokens-repo.js';
import { pgUsageOf } from './usage-repo.js';
import { pgWatchStoreOf, type PgWatchStore } from './watch-store.js';
import { lastRefusalOf, notePgStoreFailure, notePgStoreWrite, probeCommit, type PgProbeCode } from './write-probe.js';

/**
 * The PostgreSQL store (docs/design/postgres.md, 3.1 and 3.2): one pool, every repository twin
 * built on it once (a read outside a unit of work goes to the pool), and the unit of work, whose
 * handle `PgTx` carries the same twins bound to the unit's client: a write takes the tx
 * (`tx.screenings.insertScreening(…)`).
 *
 * Unlike SQLite's, units run side by side (one pooled client each) and a unit may await I/O
 * (there is no I/O guard): it only holds its client and its row locks meanwhile. Two things
 * differ from SQLite and matter to callers:
 * - A failed statement aborts PostgreSQL's transaction (SQLite undoes that statement alone): catch
 *   a store error only around a `tx.savepoint`, never around a bare statement; a unit whose
 *   transaction was aborted is not committed, it fails with that statement's error.
 * - A unit that begins a second unit through the store (not `tx.savepoint`) takes a second client:
 *   it does not wait for itself as on SQLite, but the two do not see each other's rows, and with
 *   every client so held the pool's wait ends in `db_busy`.
 */

export interface PgStoreLog extends MigrationLog {
  warn?(obj: object, msg: string): void;
}

export interface OpenPgStoreOptions {
  /** The clock for every timestamp the store writes (tests pin it). */
  now?: () => Date;
  /**
   * Open only a database that already holds the record (a schema made by an earlier open): an
   * empty one is refused (StoreError 'db_error', detail 'no_record') and left as it was.
   */
  existing?: boolean;
  /** Connections at most (pg's default is 10). */
  max?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Told after each schema step this open applied, with how long it took. */
  onMigration?: (m: { version: number; name: string; ms: number }) => void;
  /** Where the store says what it did by itself: a unit run again after a deadlock, an idle connection lost. */
  log?: PgStoreLog;
}

/** Every repository twin, on the pool (the store) or on a unit's client (its tx). Names as SQLite's `xxxOf(store)`. */
export interface PgRepos {
  readonly scores: ReturnType<typeof pgScoreCacheOf>;
  readonly usage: ReturnType<typeof pgUsageOf>;
  readonly events: ReturnType<typeof pgEventLogOf>;
  readonly screenings: ReturnType<typeof pgScreeningsOf>;
  readonly reviews: ReturnType<typeof pgReviewsOf>;
  /** The screening search (record.ts). */
  readonly lists: RecordLists;
  readonly tokens: ReturnType<typeof pgTokensOf>;
  readonly operatorState: ReturnType<typeof pgOperatorStateOf>;
  readonly idempotency: ReturnType<typeof pgIdempotencyOf>;
  readonly decisions: ReturnType<typeof pgDecisionsOf>;
  readonly decisionLists: ReturnType<typeof pgDecisionListsOf>;
  readonly blocks: ReturnType<typeof pgLocalBlocksOf>;
  readonly outbox: ReturnType<typeof pgOutboxOf>;
  readonly callbackSends: ReturnType<typeof pgCallbackSendsOf>;
  readonly retention: ReturnType<typeof pgRetentionOf>;
  readonly auditRows: ReturnType<typeof pgAuditRowsOf>;
  /** The watch store for SCREEN_WATCH_DAYS (one per value and executor). */
  watch(watchDays: number): PgWatchStore;
  /** The outage re-screen's holds (`retryMs`, `limit` fixed per process; one per pair and executor). */
  rescreenHolds(retryMs: number, limit: number): ReturnType<ReturnType<typeof pgRescreenHoldsOf>>;
}

/** One unit of work on PostgreSQL: SQLite's `Tx`, and the repository twins on the unit's client. */
export interface PgTx extends Tx, PgRepos, NestingTx<PgTx>, RecordTx {
  savepoint<T>(fn: (tx: PgTx) => Promise<T>): Promise<T>;
}

export interface PgStore extends PgRepos, UnitsOfWork<PgTx>, RecordStore {
  /** The database's URL without its password: what the store's messages name. */
  readonly url: string;
  /** The same: the record's name for it (record.ts). */
  readonly where: string;
  /**
   * One unit of work on one pooled client: BEGIN, `fn`, COMMIT, then its afterCommit callbacks.
   * Run again whole (up to 3 tries) when PostgreSQL ends it with a deadlock or a serialization
   * failure: `fn` must do nothing but store work (as a group-commit piece).
   */
  unitOfWork<T>(fn: (tx: PgTx) => Promise<T>): Promise<T>;
  /** As SQLite's: nested units inline (no SAVEPOINT round trips); anything thrown inside: all rolled back, undefined. */
  unitOfWorkWithoutSavepoints<T>(fn: (tx: PgTx) => Promise<T>): Promise<{ value: T } | undefined>;
  /** READ COMMITTED gives this by itself: a read on the pool never sees another unit's uncommitted rows. */
  readCommitted<T>(fn: () => T | Promise<T>): Promise<T>;
  /** /healthz's write probe (write-probe.ts): its commit never ends a remembered refusal. */
  probeCommit(at: string): Promise<PgProbeCode | undefined>;
  /** The last store write the server refused, until a store write succeeds again. */
  lastRefusal(): { at: number; code: PgProbeCode } | undefined;
  /** The pool's clients: all, idle, and callers waiting for one. */
  connections(): { total: number; idle: number; waiting: number };
  /** Units of work run again since the open, by cause. */
  retries(): { deadlock: number; serialization: number };
  close(): Promise<void>;
}

/** Tries of one unit of work when PostgreSQL picks it as a deadlock or serialization victim. */
export const PG_UNIT_TRIES = 3;
const wroteRows = (r: pg.QueryResult): boolean =>
  (r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE') && (r.rowCount ?? 0) > 0;

/** The executor under a store or a unit's handle: for tests, and for SQL not yet in a repository. */
const executors = new WeakMap<object, PgExecutor>();
export function executorOf(storeOrTx: PgStore | PgTx): PgExecutor {
  const x = executors.get(storeOrTx);
  if (!x) throw new StoreArgumentError('not a PostgreSQL store or unit of work', 'storeOrTx');
  return x;
}

interface Context {
  readonly now: () => Date;
  /** One parsed-score memo per pool, for every repository that reads scores. */
  readonly scores: ParsedFetches;
  readonly pool: pg.Pool;
  readonly isOpen: () => boolean;
  /** The store's pool executor: where refused writes are remembered (write-probe.ts). */
  readonly root: PgExecutor;
}

/** Builds each twin on an executor, once (a store's are built at open; a unit's when first asked). */
class Repos implements PgRepos {
  readonly #made = new Map<string, unknown>();

  constructor(
    readonly x: PgExecutor,
    readonly ctx: Context,
  ) {}

  #once<R>(key: string, build: () => R): R {
    let r = this.#made.get(key) as R | undefined;
    if (r === undefined) this.#made.set(key, (r = build()));
    return r;
  }

  get scores() {
    return this.#once('scores', () => pgScoreCacheOf(this.x, this.ctx));
  }
  get usage() {
    return this.#once('usage', () => pgUsageOf(this.x, this.ctx));
  }
  get events() {
    return this.#once('events', () => pgEventLogOf(this.x, this.ctx));
  }
  get screenings() {
    return this.#once('screenings', () => pgScreeningsOf(this.x, this.ctx));
  }
  get reviews() {
    return this.#once('reviews', () => pgReviewsOf(this.x, this.ctx));
  }
  get lists(): RecordLists {
    return this.#once('lists', () => ({
      searchScreenings: (f, p) => pgSearchScreenings(this.x, f, p, this.ctx),
    }));
  }
  get tokens() {
    return this.#once('tokens', () => pgTokensOf(this.x));
  }
  get operatorState() {
    return this.#once('operatorState', () => pgOperatorStateOf(this.x));
  }
  get idempotency() {
    return this.#once('idempotency', () => pgIdempotencyOf(this.x));
  }
  get decisions() {
    return this.#once('decisions', () => pgDecisionsOf(this.x));
  }
  get decisionLists() {
    return this.#once('decisionLists', () => pgDecisionListsOf(this.x));
  }
  get blocks() {
    return this.#once('blocks', () => pgLocalBlocksOf(this.x));
  }
  get outbox() {
    return this.#once('outbox', () => pgOutboxOf(this.x));
  }
  get callbackSends() {
    return this.#once('callbackSends', () => pgCallbackSendsOf(this.x, this.ctx.isOpen));
  }
  get retention() {
    return this.#once('retention', () => pgRetentionOf(this.x, this.ctx.pool));
  }
  get auditRows() {
    return this.#once('auditRows', () => pgAuditRowsOf(this.x));
  }
  watch(watchDays: number): PgWatchStore {
    return this.#once(`watch:${watchDays}`, () => pgWatchStoreOf(this.x, { watchDays }));
  }
  rescreenHolds(retryMs: number, limit: number) {
    return this.#once(`rescreenHolds:${retryMs}:${limit}`, () => pgRescreenHoldsOf(retryMs, limit)(this.x));
  }
}

/**
 * Whether pg surely sends this statement once asked (its values are strings, numbers, booleans,
 * null or arrays of them, which pg's conversion cannot refuse): only then may a COMMIT be
 * pipelined behind it, since a statement the server never got would not abort the transaction.
 */
function sendsSurely(config: QueryConfig): boolean {
  const plain = (v: unknown): boolean =>
    v === null ||
    v === undefined ||
    typeof v === 'string' ||
    typeof v === 'number' ||
    typeof v === 'boolean' ||
    (Array.isArray(v) && v.every(plain));
  return (config.values ?? []).every(plain);
}

/** A plain read's answer read ahead: the tables it reads, its parameters, its carrier (sql.ts `carrierRows`), its rows. */
interface ReadAheadAnswer {
  reads: ReadonlySet<string>;
  values: readonly unknown[];
  carrier: ReturnType<typeof carrierRows>;
  rows: QueryResultRow[];
}

/** A read-ahead answer's key: the statement and its parameters. */
const readKey = (config: QueryConfig): string => `${config.name}\u0000${JSON.stringify(config.values ?? [])}`;

/** A unit's own failure: run it again from the start (PostgreSQL chose it as a deadlock or serialization victim). */
class RunAgain {
  constructor(readonly cause: unknown) {}
}
/**
 * Whether a statement sent alone (autocommit) may have committed although it failed: no answer
 * at all (a lost connection), or the server going away (class 57, connection class 08, FATAL)
 * between its implicit commit and its answer. A refusal of the statement itself did not commit.
 */
function mayHaveCommitted(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return true;
  const code = err.code ?? '';
  return code.startsWith('57') || code.startsWith('08') || err.severity === 'FATAL' || err.severity === 'PANIC';
}

/** A unit without savepoints in which something threw: rolled back, to be done again with savepoints. */
const UNDONE = Symbol('rolled back, to be done again with savepoints');

/** Whether a statement's parameters name one of a lock statement's keys. */
const namesAny = (values: readonly unknown[], keys: ReadonlySet<unknown>): boolean => values.flat().some((v) => keys.has(v));

/** One try of one unit of work: its client and what happened on it. */
class Unit {
  finished = false;
  /** The first deadlock or serialization failure of this try: no statement runs after it, the unit runs again. */
  victim: unknown = undefined;
  /** A ROLLBACK TO SAVEPOINT that failed: the transaction's state is unknown, it must not commit. */
  lost: unknown = undefined;
  /** In a unit without savepoints: a nested unit threw (even one its caller caught). */
  inlineThrew = false;
  /** A statement wrote rows: its COMMIT shows the server takes writes again. */
  wrote = false;
  savepoints = 0;
  /** Rows kept for a deferred write (inline units only), in the order their writes were first asked for. */
  deferred: Array<{ write: DeferredWrite<unknown>; rows: unknown[] }> = [];
  /** BEGIN sent: it goes before the unit's first statement that is not a plain read (sql.ts). */
  begun = false;
  /** Its last statement runs alone, in autocommit (`last`): there is nothing to COMMIT. */
  endedAlone = false;
  /** That statement was sent: nothing may follow it. */
  lastSent = false;
  /** The COMMIT pipelined behind a last statement sent in the transaction (`last`): what it answers. */
  commitSent: Promise<pg.QueryResult> | undefined = undefined;
  /** The driver's error of the last statement of this try that failed (even one its caller caught). */
  lastError: unknown = undefined;
  /** Plain reads' answers read ahead (`remember`), by statement and parameters, with the tables each reads. */
  readAhead = new Map<string, ReadAheadAnswer>();
  /**
   * The parameters of each statement sent that takes advisory locks (sql.ts `takesLocks`), in
   * order: an answer read ahead before one of them, about one of its keys, is not kept.
   */
  locked: Array<ReadonlySet<unknown>> = [];
  /** Writes sent without waiting (`sendOnly`): settled before the unit decides whether it commits. */
  unanswered: Array<Promise<void>> = [];

  constructor(
    readonly client: pg.PoolClient,
    /** Nested units inline, no SAVEPOINT (unitOfWorkWithoutSavepoints). */
    readonly inline: boolean,
    readonly where: string,
  ) {}

  /**
   * BEGIN, once, before the first statement that needs the transaction: what it answers, awaited
   * at once or after a statement pipelined behind it (`#send`).
   */
  begin(): Promise<void> {
    if (this.begun) return Promise.resolve();
    if (this.endedAlone) throw new Error('a statement after the unit of work’s last one');
    this.begun = true;
    // A failed BEGIN leaves no transaction: nothing more may run as if inside one.
    return this.control('BEGIN').catch((err: unknown) => {
      this.lost ??= err;
      throw err;
    });
  }

  /** Every write sent without waiting has answered (a failed one marked the unit: inlineThrew). */
  async settle(): Promise<void> {
    while (this.unanswered.length > 0) await Promise.all(this.unanswered.splice(0));
  }

  /** A transaction-control statement (SAVEPOINT, RELEASE…): its failure noted as any statement's. */
  async control(sql: string): Promise<void> {
    if (sql !== 'BEGIN') await this.begin();
    try {
      await this.client.query(sql);
    } catch (err) {
      if (retryCause(err)) this.victim ??= err;
      throw err;
    }
  }
}

/** One level of a unit of work (the unit, or a savepoint of it): a PgTx. */
class PgUnitTx extends Repos implements PgTx {
  #finished = false;
  #busy = false;
  /** Advisory locks taken at this level (`ns:key`): the parent's on RELEASE, gone with a rollback (PostgreSQL releases them). */
  #locks: Set<string> | undefined;
  /** A statement of this level failed: PostgreSQL aborted it (the transaction, or this savepoint) until a rollback. */
  failed: unknown = undefined;
  /** afterCommit callbacks of this level: handed to the parent on RELEASE, dropped on a rollback. */
  callbacks: Array<() => void> | undefined;

  constructor(
    readonly unit: Unit,
    ctx: Context,
    readonly parent?: PgUnitTx,
  ) {
    const me: { tx?: PgUnitTx } = {};
    super(
      {
        inTransaction: true,
        locks: {
          has: (ns, key) => me.tx!.#holds(`${ns}:${key}`),
          note: (ns, keys) => {
            const held = (me.tx!.#locks ??= new Set());
            for (const k of keys) held.add(`${ns}:${k}`);
          },
        },
        query: <R extends QueryResultRow>(config: QueryConfig) => me.tx!.#query<R>(config),
        transaction: <T>(fn: (tx: PgExecutor) => Promise<T>) => me.tx!.#nested((child) => fn(child.x)),
        defer: <W>(write: DeferredWrite<W>, row: W) => me.tx!.#defer(write, row),
        takeDeferred: <W>(write: DeferredWrite<W>) => me.tx!.#take(write),
        last: <T>(fn: (q: Queryable) => Promise<T>) => me.tx!.#last(fn),
        remember: (config: QueryConfig, rows: QueryResultRow[], sentAt?: number) => me.tx!.#remember(config, rows, sentAt),
        remembers: (config: QueryConfig) => me.tx!.unit.readAhead.has(readKey(config)),
        locksSent: () => me.tx!.unit.locked.length,
        sendOnly: (config: QueryConfig) => me.tx!.#sendOnly(config),
      },
      ctx,
    );
    me.tx = this;
    executors.set(this, this.x);
  }

  finish(): void {
    this.#finished = true;
  }

  #holds(lock: string): boolean {
    if (this.#locks?.has(lock)) return true;
    return this.parent !== undefined && this.parent.#holds(lock);
  }

  #check(what: string): void {
    if (this.#finished || this.unit.finished) throw txFinished(what);
  }

  /** Only a unit without savepoints keeps rows: anything failing there undoes the whole unit, so a late failure is never one piece's alone. */
  #defer<W>(write: DeferredWrite<W>, row: W): boolean {
    this.#check('a statement');
    const { unit } = this;
    if (unit.endedAlone || unit.lastSent) throw new Error('a write after the unit of work’s last statement (appendEvents { last })');
    if (!unit.inline) return false;
    const kept = unit.deferred.find((d) => d.write === write);
    if (kept) kept.rows.push(row);
    else unit.deferred.push({ write: write as DeferredWrite<unknown>, rows: [row] });
    return true;
  }

  #take<W>(write: DeferredWrite<W>): W[] {
    this.#check('a statement');
    const i = this.unit.deferred.findIndex((d) => d.write === write);
    return i < 0 ? [] : (this.unit.deferred.splice(i, 1)[0]!.rows as W[]);
  }

  /** The unit's last statement: alone in autocommit when only plain reads went before it and nothing else is kept. */
  async #last<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    this.#check('a statement');
    const { unit } = this;
    // Alone only when the unit could commit now: once sent, it cannot be undone.
    const committable = unit.victim === undefined && unit.lost === undefined && unit.lastError === undefined && !unit.inlineThrew;
    if (unit.deferred.length > 0 || !committable) return fn({ query: (config) => this.#query(config) });
    // In the transaction, at its top level: the COMMIT is pipelined behind it (pg-pool.ts), one
    // round trip for both. Should the statement fail, the COMMIT answers ROLLBACK.
    if (unit.begun)
      return fn({
        query: (config) =>
          unit.client.pipeline && this.parent === undefined && sendsSurely(config)
            ? this.#send(config, { thenCommit: true })
            : this.#query(config),
      });
    // One statement is whole by itself: it needs no transaction around it.
    unit.endedAlone = true;
    return fn({ query: (config) => this.#send(config) });
  }

  /** See executor.ts `sendOnly`. */
  async #sendOnly(config: QueryConfig): Promise<void> {
    const { unit } = this;
    // After BEGIN only: a statement waiting for BEGIN's answer would be overtaken by the next one.
    // And only when pg surely sends it: a value it refuses never reaches the server, which would not abort.
    if (!unit.inline || !unit.begun || !unit.client.pipeline || unit.deferred.length > 0 || !sendsSurely(config))
      return void (await this.#query(config));
    this.#check('a statement');
    // Its error (recorded by #send) undoes the whole unit, as a kept row's does.
    unit.unanswered.push(
      this.#send(config).then(
        () => undefined,
        () => void (unit.inlineThrew = true),
      ),
    );
  }

  /** Send the unit's kept rows (before a statement that might see them, and before the COMMIT). */
  async sendDeferred(): Promise<void> {
    const { unit } = this;
    while (unit.deferred.length > 0) {
      const { write, rows } = unit.deferred.shift()!;
      try {
        await write.write({ query: (config) => this.#send(config) }, rows);
      } catch (e) {
        // Rows of other pieces went with it: the unit must not commit (it is done again with savepoints).
        unit.inlineThrew = true;
        throw e;
      }
    }
  }

  #remember(config: QueryConfig, rows: QueryResultRow[], sentAt?: number): void {
    this.#check('a statement');
    const reads = tablesRead(config);
    if (!reads) throw new Error(`pg statement "${config.name}" is not a plain read: its answer cannot be read ahead`);
    // Read while a lock about one of its keys went out: read before that lock, not under it.
    if (sentAt !== undefined && this.unit.locked.slice(sentAt).some((keys) => namesAny(config.values ?? [], keys))) return;
    this.unit.readAhead.set(readKey(config), { reads, values: config.values ?? [], carrier: carrierRows(config), rows });
  }

  /**
   * A statement taking locks goes out: answers read ahead whose parameters name one of its keys
   * were read before it, not under it, and are forgotten (whoever needs them reads again, under
   * it); an answer on its way about one of them is not kept when it comes (`#remember`'s `sentAt`).
   */
  #forgetBeforeLock(config: QueryConfig): void {
    const { readAhead } = this.unit;
    const locked = new Set<unknown>((config.values ?? []).flat());
    this.unit.locked.push(locked);
    for (const [k, v] of readAhead) if (namesAny(v.values, locked)) readAhead.delete(k);
  }

  async #query<R extends QueryResultRow>(config: QueryConfig): Promise<pg.QueryResult<R>> {
    this.#check('a statement');
    const { unit } = this;
    // Only while a statement could still be sent (no victim, no last statement gone, nothing failed).
    if (unit.readAhead.size > 0 && isPlainRead(config) && unit.victim === undefined && !unit.lastSent && this.failed === undefined) {
      const known = unit.readAhead.get(readKey(config));
      if (known) return { command: 'SELECT', rowCount: known.rows.length, oid: 0, fields: [], rows: known.rows as R[] };
    }
    // Kept rows go out before a statement that could see them (sql.ts `seesLateWrites`): a carrier
    // lock, a standing decision's read do not wait for them.
    if (unit.deferred.length > 0 && seesLateWrites(config)) await this.sendDeferred();
    return this.#send<R>(config);
  }

  /** A statement that may write: the read-ahead answers of every table it writes are forgotten (all, for SQL not ours). */
  #forgetWritten(config: QueryConfig): void {
    const { readAhead } = this.unit;
    if (readAhead.size === 0 || isPlainRead(config)) return;
    const written = tablesWritten(config);
    if (!written) return readAhead.clear();
    if (written.size === 0) return;
    const carrier = carrierRows(config);
    // Rows of one carrier written: an answer about another carrier's rows of that table stands.
    const apart = (v: ReadAheadAnswer, t: string) =>
      carrier !== undefined && v.carrier !== undefined && carrier.tables.has(t) && v.carrier.tables.has(t) && carrier.key !== v.carrier.key;
    for (const [k, v] of readAhead) for (const t of v.reads) if (written.has(t) && !apart(v, t)) readAhead.delete(k);
  }

  async #send<R extends QueryResultRow>(config: QueryConfig, o: { thenCommit?: boolean } = {}): Promise<pg.QueryResult<R>> {
    this.#check('a statement');
    const { unit } = this;
    // Chosen as a victim: what follows would only wait for locks; the unit is run again.
    if (unit.victim !== undefined) throw toPgStoreError(unit.victim, unit.where);
    if (unit.lastSent) throw new Error('a statement after the unit of work’s last one (appendEvents { last })');
    // A failed BEGIN or ROLLBACK TO SAVEPOINT: the transaction's state is unknown.
    if (unit.lost !== undefined) throw toPgStoreError(unit.lost, unit.where);
    try {
      // BEGIN goes with the first statement that is not a plain read. Pipelined (pg-pool.ts) ahead
      // of one declared locksOnly (a carrier lock), in the same round trip: should BEGIN fail,
      // that statement ran alone, which changed nothing (a lock is given back at its end).
      let began: Promise<void> | undefined;
      if (unit.client.pipeline) writeTogether(unit.client);
      if (!unit.begun && !unit.endedAlone && !isPlainRead(config)) {
        began = unit.begin();
        if (!(unit.client.pipeline && isLocksOnly(config))) {
          await began;
          began = undefined;
        }
      }
      this.#forgetWritten(config);
      if (takesLocks(config)) this.#forgetBeforeLock(config);
      // The last statement alone: one, whatever its sender tries after it.
      if (unit.endedAlone) unit.lastSent = true;
      const sent = unit.client.query<R>(config);
      // Awaited below; until then a failure must not go unhandled (BEGIN is awaited first).
      sent.catch(() => {});
      if (o.thenCommit) {
        unit.lastSent = true;
        // Awaited by the unit's end (#try), which knows what a failed COMMIT means.
        unit.commitSent = unit.client.query('COMMIT');
        unit.commitSent.catch(() => {});
      }
      if (began) await began;
      const r = await sent;
      if (!unit.wrote && wroteRows(r)) unit.wrote = true;
      return r;
    } catch (err) {
      this.failed ??= err;
      unit.lastError = err;
      if (retryCause(err)) unit.victim ??= err;
      notePgStoreFailure(this.ctx.root, err);
      throw toPgStoreError(err, unit.where);
    }
  }

  afterCommit(fn: () => void): void {
    this.#check('afterCommit');
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    (this.callbacks ??= []).push(fn);
  }

  async savepoint<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    this.#check('savepoint');
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    return this.#nested(fn);
  }

  /** A nested unit (tx.savepoint, or a repository's own transaction): a SAVEPOINT, or inline in a unit without savepoints. */
  async #nested<T>(fn: (tx: PgUnitTx) => Promise<T>): Promise<T> {
    this.#check('savepoint');
    const { unit } = this;
    // Two nested units of one level at once would interleave their statements on one client.
    if (this.#busy) throw new StoreArgumentError('a unit of work runs one nested unit at a time: await it first', 'fn');
    if (unit.victim !== undefined) throw toPgStoreError(unit.victim, unit.where);
    this.#busy = true;
    const child = new PgUnitTx(unit, this.ctx, this);
    try {
      if (unit.inline) {
        try {
          const value = await fn(child);
          child.finish();
          this.failed ??= child.failed;
          this.#keep(child);
          return value;
        } catch (e) {
          child.finish();
          unit.inlineThrew = true;
          throw e;
        }
      }
      const name = `sp_${++unit.savepoints}`;
      await this.#control(`SAVEPOINT ${name}`);
      let value: T;
      try {
        value = await fn(child);
      } catch (e) {
        child.finish();
        await this.#undo(name);
        throw e;
      }
      child.finish();
      if (child.failed !== undefined) {
        // A statement inside failed and its caller went on: PostgreSQL has aborted the savepoint,
        // which cannot be kept. Undone alone, with that statement's error.
        await this.#undo(name);
        throw toPgStoreError(child.failed, unit.where);
      }
      await this.#control(`RELEASE SAVEPOINT ${name}`);
      this.#keep(child);
      return value;
    } finally {
      this.#busy = false;
    }
  }

  async #control(sql: string): Promise<void> {
    try {
      await this.unit.control(sql);
    } catch (err) {
      notePgStoreFailure(this.ctx.root, err);
      throw toPgStoreError(err, this.unit.where);
    }
  }

  /** ROLLBACK TO the savepoint and release it; when that fails, the unit must not commit. */
  async #undo(name: string): Promise<void> {
    // Answers remembered inside the savepoint, or read before a lock it took (now released), go with it.
    this.unit.readAhead.clear();
    try {
      await this.unit.control(`ROLLBACK TO SAVEPOINT ${name}`);
      await this.unit.control(`RELEASE SAVEPOINT ${name}`);
    } catch (err) {
      this.unit.lost ??= err;
    }
  }

  #keep(child: PgUnitTx): void {
    if (child.callbacks) (this.callbacks ??= []).push(...child.callbacks);
    if (child.#locks) for (const l of child.#locks) (this.#locks ??= new Set()).add(l);
  }
}

type TryOutcome<T> = { value: T; callbacks: Array<() => void> | undefined } | RunAgain | typeof UNDONE;

class PgStoreImpl extends Repos implements PgStore {
  #closed = false;

  get where(): string {
    return this.url;
  }
  #retries = { deadlock: 0, serialization: 0 };

  constructor(
    private readonly pool: pg.Pool,
    readonly url: string,
    now: () => Date,
    private readonly log: PgStoreLog | undefined,
  ) {
    const me: { store?: PgStoreImpl } = {};
    const root: PgExecutor = {
      inTransaction: false,
      query: <R extends QueryResultRow>(config: QueryConfig) => me.store!.#query<R>(config),
      // A repository's own transaction on the pool is a unit of work of the store: retried, mapped.
      transaction: <T>(fn: (tx: PgExecutor) => Promise<T>) => me.store!.unitOfWork((tx) => fn(executorOf(tx))),
    };
    super(root, { now, scores: parsedFetches(), pool, isOpen: () => !me.store!.#closed, root });
    me.store = this;
    executors.set(this, root);
  }

  #checkOpen(): void {
    if (this.#closed) throw new StoreError('store_closed', `PostgreSQL record ${this.url}: the store is closed`);
  }

  async #query<R extends QueryResultRow>(config: QueryConfig): Promise<pg.QueryResult<R>> {
    this.#checkOpen();
    try {
      const r = await this.pool.query<R>(config);
      if (wroteRows(r)) notePgStoreWrite(this.x);
      return r;
    } catch (err) {
      notePgStoreFailure(this.x, err);
      throw toPgStoreError(err, this.url);
    }
  }

  async unitOfWork<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    const done = await this.#run(fn, false);
    // Without inline nested units nothing is UNDONE: a throw is thrown.
    return (done as { value: T }).value;
  }

  unitOfWorkWithoutSavepoints<T>(fn: (tx: PgTx) => Promise<T>): Promise<{ value: T } | undefined> {
    return this.#run(fn, true);
  }

  async readCommitted<T>(fn: () => T | Promise<T>): Promise<T> {
    return fn();
  }

  async #run<T>(fn: (tx: PgTx) => Promise<T>, inline: boolean): Promise<{ value: T } | undefined> {
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    for (let attempt = 1; ; attempt++) {
      this.#checkOpen();
      const out = await this.#try(fn, inline);
      if (out === UNDONE) return undefined;
      if (!(out instanceof RunAgain)) {
        runAfterCommit(out.callbacks);
        return { value: out.value };
      }
      // Re-running is safe: a unit of work does nothing but store work (the rule of units and of
      // group-commit pieces), all of which this try's ROLLBACK undid; its afterCommit callbacks
      // went with it. PostgreSQL picked this unit to give way; the other one goes on.
      const cause = retryCause(out.cause) ?? 'deadlock';
      const error = toPgStoreError(out.cause, this.url);
      if (attempt >= PG_UNIT_TRIES) throw error;
      this.#retries[cause]++;
      const say = this.log?.warn ?? this.log?.info;
      say?.call(
        this.log,
        { attempt, tries: PG_UNIT_TRIES, code: (out.cause as pg.DatabaseError).code, db: this.url },
        `PostgreSQL ended a unit of work (${cause}); running it again`,
      );
    }
  }

  async #try<T>(fn: (tx: PgTx) => Promise<T>, inline: boolean): Promise<TryOutcome<T>> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      notePgStoreFailure(this.x, err);
      throw toPgStoreError(err, this.url);
    }
    const unit = new Unit(client, inline, this.url);
    // A client whose ROLLBACK or COMMIT failed is in an unknown state: the pool closes it, not reuses it.
    let broken: Error | undefined;
    const rollback = async () => {
      unit.finished = true;
      // Nothing to undo before BEGIN: plain reads, or a last statement that failed alone.
      if (unit.begun) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    };
    const failed = (err: unknown) => {
      notePgStoreFailure(this.x, err);
      return toPgStoreError(err, this.url);
    };
    // What a COMMIT pipelined behind the unit's last statement answered, if one went: ROLLBACK when
    // that statement failed (the transaction was aborted: nothing kept).
    const pipelinedCommit = async (): Promise<'committed' | 'rolled back' | 'unknown' | undefined> => {
      if (!unit.commitSent) return undefined;
      try {
        return (await unit.commitSent).command === 'COMMIT' ? 'committed' : 'rolled back';
      } catch {
        return 'unknown';
      }
    };
    try {
      // BEGIN goes with the first statement that needs it (Unit.begin): plain reads go before it.
      const tx = new PgUnitTx(unit, this.ctx);
      let value: T;
      // Caught inside, but the unit cannot commit: a victim, a failed statement no savepoint undid
      // (PostgreSQL aborted the transaction), an unknown state; without savepoints, anything thrown.
      const cannotCommit = () =>
        unit.victim !== undefined || unit.lost !== undefined || tx.failed !== undefined || (inline && unit.inlineThrew);
      try {
        value = await fn(tx);
        await unit.settle();
        // Kept rows go out only for a unit that will commit.
        if (!cannotCommit()) await tx.sendDeferred();
      } catch (e) {
        await unit.settle();
        const kept = await pipelinedCommit();
        await rollback();
        // A COMMIT pipelined behind the last statement that committed, or whose answer is unknown:
        // the unit is not done again, which could write it twice.
        if (kept !== 'rolled back' && kept !== undefined) throw failed(e);
        if (unit.victim !== undefined) return new RunAgain(unit.victim);
        // A last statement sent alone whose outcome is unknown may have committed, as a COMMIT
        // may: it is not done again, which could write it twice.
        if (kept === undefined && unit.lastSent && mayHaveCommitted(unit.lastError)) throw failed(e);
        if (inline) return UNDONE;
        throw failed(e);
      }
      if (cannotCommit()) {
        const kept = await pipelinedCommit();
        await rollback();
        // What a last statement sent alone wrote is committed (so is what a pipelined COMMIT kept):
        // the unit is not done again.
        if (kept === 'committed' || kept === 'unknown' || (kept === undefined && unit.lastSent))
          throw failed(tx.failed ?? unit.lost ?? new Error('the unit of work failed after its last statement'));
        if (unit.victim !== undefined) return new RunAgain(unit.victim);
        if (unit.lost !== undefined) throw failed(unit.lost);
        if (inline) return UNDONE;
        throw failed(tx.failed);
      }
      unit.finished = true;
      // Plain reads only, or a last statement sent alone (autocommit): there is no transaction to end.
      if (!unit.begun) {
        if (unit.wrote) notePgStoreWrite(this.x);
        return { value, callbacks: tx.callbacks };
      }
      let committed: pg.QueryResult;
      try {
        committed = await (unit.commitSent ?? client.query('COMMIT'));
      } catch (err) {
        unit.finished = true;
        broken = err as Error;
        if (retryCause(err)) return new RunAgain(err);
        throw failed(err);
      }
      unit.finished = true;
      // COMMIT of an aborted transaction answers ROLLBACK: nothing was kept.
      if (committed.command !== 'COMMIT')
        throw new StoreError(
          'db_error',
          `PostgreSQL record ${this.url}: the transaction was rolled back at COMMIT; nothing of it was kept`,
        );
      if (unit.wrote) notePgStoreWrite(this.x);
      return { value, callbacks: tx.callbacks };
    } finally {
      unit.finished = true;
      client.release(broken);
    }
  }

  probeCommit(at: string): Promise<PgProbeCode | undefined> {
    this.#checkOpen();
    // A plain pool executor: the probe's own commit must not end a remembered refusal.
    return probeCommit(poolExecutor(this.pool), at);
  }

  lastRefusal() {
    return lastRefusalOf(this.x);
  }

  connections() {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  retries() {
    return { ...this.#retries };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}

/**
 * Open the PostgreSQL store on `url` (postgres://user@host:port/db): a pool, the database's
 * encoding checked, its schema brought to the newest, the twins built. Errors as StoreErrors
 * naming the database without its password.
 */
export async function openPgStore(url: string, opts: OpenPgStoreOptions = {}): Promise<PgStore> {
  const where = redactedUrl(url);
  const log = opts.log;
  const pool = openPgPool(url, {
    max: opts.max,
    applicationName: opts.applicationName,
    onIdleError: (err) =>
      (log?.warn ?? log?.info)?.call(log, { err: err.message, db: where }, 'PostgreSQL: an idle connection failed; the pool replaces it'),
  });
  try {
    await checkEncoding(pool, where);
    if (opts.existing) await checkHoldsRecord(pool, where);
    await migratePg(pool, { onMigration: opts.onMigration });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw toPgStoreError(err, where);
  }
  return new PgStoreImpl(pool, where, opts.now ?? (() => new Date()), log);
}

/** An empty database (no schema_migrations): refused, for an open that must not make the record. */
async function checkHoldsRecord(pool: pg.Pool, where: string): Promise<void> {
  const { rows } = await pool.query<{ made: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS made");
  if (rows[0]?.made !== true)
    throw new StoreError(
      'db_error',
      `PostgreSQL record ${where}: the database holds no carrier-screen record yet; only \`carrier-screen start\` makes one (is SCREEN_DB the service's database?)`,
      'no_record',
    );
}

/**
 * The stored JSON's bytes (a signed callback's body) come back as written only from a UTF8
 * database: SQL_ASCII stores bytes unchecked and compares them as bytes, another encoding
 * converts. Checked before the schema is written, so a wrong database is left as it was.
 */
async function checkEncoding(pool: pg.Pool, where: string): Promise<void> {
  const { rows } = await pool.query<{ server_encoding: string }>('SHOW server_encoding');
  const encoding = rows[0]?.server_encoding ?? '(unknown)';
  if (encoding !== 'UTF8')
    throw new StoreError(
      'db_error',
      `PostgreSQL record ${where}: the database's encoding is ${encoding}, not UTF8; carrier-screen keeps JSON whose bytes must come back as written (signed callbacks). Create the database with ENCODING 'UTF8'`,
      `server_encoding=${encoding}`,
    );
}
