import type Database from 'better-sqlite3';
import { iso } from './arg-checks.js';
import type { AsyncRepo } from './async-repo.js';
import { auditRowsOf } from './audit-rows.js';
import { decisionListsOf, decisionsOf } from './decisions-repo.js';
import { idempotencyOf } from './idempotency-repo.js';
import { localBlocksOf } from './local-blocks-repo.js';
import { operatorStateOf } from './operator-state-repo.js';
import { callbackSendsOf, outboxOf, type CallbackRow } from './outbox-repo.js';
import type {
  PruneLock,
  RecordCallbackSends,
  RecordEventLog,
  RecordLists,
  RecordObservation,
  RecordRepos,
  RecordScores,
  RecordStore,
  RecordTx,
  RecordWatchStore,
} from './record.js';
import { rescreenHoldsOf } from './rescreen-holds-repo.js';
import { retentionOf } from './retention-repo.js';
import { toStoreError } from './sqlite-errors.js';
import { searchScreenings } from './screening-search.js';
import { connectionOf, guardCall } from './sqlite-store.js';
import { StoreArgumentError } from './store-error.js';
import { tokensOf } from './tokens-repo.js';
import { txFinished } from './unit-of-work-common.js';
import type { Env, Store, Tx } from './types.js';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import { openWatchStore, type TenderUse, type WatchStore } from './watch-store.js';
import type { ChangeFindings } from '../../shared/screening.js';

/**
 * The SQLite store as the record (record.ts): its synchronous repositories with every method
 * answering a Promise. On a unit's handle a call runs at once, inside that unit (the store's one
 * connection is in its transaction). On the store it runs through `readCommitted`: after any
 * open unit, so it never reads a unit's uncommitted rows nor writes into one: PostgreSQL's pool
 * gives the same.
 */

type Run = <T>(fn: () => T) => Promise<T>;

/** A repository's method names, own and inherited (it may be a frozen object or a class instance): found once per repository. */
const methodNames = new WeakMap<object, string[]>();
function methodsOf(repo: object): string[] {
  let names = methodNames.get(repo);
  if (names) return names;
  names = [];
  for (let o: object | null = repo; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name === 'constructor' || names.includes(name)) continue;
      if (typeof (repo as Record<string, unknown>)[name] === 'function') names.push(name);
    }
  }
  methodNames.set(repo, names);
  return names;
}

/** `repo`'s methods answering a Promise, each call made through `run` (a throw becomes a rejection). */
function asyncRepo<R extends object>(repo: R, run: Run): AsyncRepo<R> {
  const out: Record<string, unknown> = {};
  for (const name of methodsOf(repo)) {
    const v = (repo as Record<string, (...a: unknown[]) => unknown>)[name]!;
    out[name] = (...a: unknown[]) => run(() => v.apply(repo, a));
  }
  return Object.freeze(out) as AsyncRepo<R>;
}

/** The one key a SQLite file's pruner needs: nothing, the file has one writer at a time. */
const NO_LOCK: PruneLock = Object.freeze({ release: async () => {} });

/** A retry marker: observe's findings answered a Promise, so observe runs again once it settled. */
const FINDINGS_PENDING = Symbol('findings pending');

type EventBatch = ReadonlyArray<{ event: string; data: unknown; at?: Date }>;

/** The event log's synchronous pieces: the Store's four methods, and the batch append. */
function eventLogOf(store: Store) {
  const log = pick(store, ['appendEvent', 'eventsSince', 'pageEvents', 'lastEventId']);
  const db = connectionOf(store);
  let setAt: Database.Statement<[string, number]> | undefined;
  // The Store's appendEvent stamps its clock's now: an event's own `at` is written after it.
  const stamp = (id: number, at: string) => {
    try {
      (setAt ??= db.prepare<[string, number]>('UPDATE events SET created_at = ? WHERE id = ?')).run(at, id);
    } catch (e) {
      throw toStoreError(e, store.path);
    }
  };
  // One transaction: the ids are consecutive (SQLite has one writer). An empty batch takes no lock.
  const appendEvents = (batch: EventBatch) => {
    if (batch.length === 0) return [];
    const ats = batch.map((e) => (e.at === undefined ? undefined : iso(e.at, 'at')));
    return store.transaction(() =>
      batch.map((e, i) => {
        const written = store.appendEvent(e.event, e.data);
        const at = ats[i];
        if (at !== undefined) stamp(written.id, at);
        return written;
      }),
    );
  };
  return { log, appendEvents };
}

/** The sender's synchronous pieces: its repository, and the batch claim. */
function callbackSendsOfStore(store: Store) {
  const sends = callbackSendsOf(store);
  // `due` then `claim` in one transaction: one commit for the batch (not one per row), and no
  // other process on the file claims between them (claim would pass over its rows anyway).
  const claimDue = (...[nowMs, nowIso, leaseMs, skip, limit, room]: Parameters<RecordCallbackSends['claimDue']>) =>
    store.transaction(() => {
      const taken = new Map<string, number>();
      const out: CallbackRow[] = [];
      for (const r of sends.due(nowMs, skip, limit)) {
        const n = taken.get(r.destination) ?? 0;
        if (room && n >= (room.of[r.destination] ?? room.others)) continue;
        const c = sends.claim(r.id, nowMs, nowIso, leaseMs);
        if (!c) continue;
        out.push(c);
        taken.set(r.destination, n + 1);
      }
      return out;
    });
  return { sends, claimDue };
}

/**
 * The repositories, on the store or on a unit's handle. The synchronous repositories under them
 * are built once per store (`sources`, shared by the store and every handle); each instance
 * wraps them with its own `run`, so a handle's calls fail once its unit has ended, as
 * PostgreSQL's do.
 */
abstract class SqliteRepos implements RecordRepos {
  readonly #made = new Map<string, unknown>();
  /** `run` as a value, for the wrappers. */
  readonly #run: Run = (fn) => this.run(fn);

  constructor(
    readonly store: Store,
    readonly sources: Map<string, unknown>,
  ) {}

  /** One call of a repository: on the store after any open unit; on a unit's handle at once, while the unit lasts. */
  protected abstract run<T>(fn: () => T): Promise<T>;

  #once<R>(key: string, build: () => R): R {
    let r = this.#made.get(key) as R | undefined;
    if (r === undefined) this.#made.set(key, (r = build()));
    return r;
  }

  #source<R>(key: string, build: () => R): R {
    let r = this.sources.get(key) as R | undefined;
    if (r === undefined) this.sources.set(key, (r = build()));
    return r;
  }

  #of<R extends object>(key: string, repo: () => R): AsyncRepo<R> {
    return this.#once(key, () => asyncRepo(this.#source(key, repo), this.#run));
  }

  get scores(): RecordScores {
    return this.#once('scores', () => {
      const { cache, blocks } = this.#source('scores', () => ({
        cache: pick(this.store, ['putScore', 'getScore', 'putNotFound', 'getNotFound']),
        blocks: localBlocksOf(this.store),
      }));
      return Object.freeze({
        ...asyncRepo(cache, this.#run),
        // The two reads in one call (one turn of the mutex), in the unit or after any open one.
        hitFacts: (env: Env, query: CarrierQuery) =>
          this.run(() => ({ score: cache.getScore(env, query), anyActiveBlock: blocks.hasActiveBlocks() })),
      });
    });
  }
  get usage() {
    return this.#of('usage', () => pick(this.store, ['recordLookup', 'dailyLookups', 'putUsageSnapshot', 'latestUsageSnapshot']));
  }
  get events(): RecordEventLog {
    return this.#once('events', () => {
      const { log, appendEvents } = this.#source('events', () => eventLogOf(this.store));
      return Object.freeze({ ...asyncRepo(log, this.#run), appendEvents: (batch: EventBatch) => this.run(() => appendEvents(batch)) });
    });
  }
  get screenings() {
    return this.#of('screenings', () =>
      pick(this.store, [
        'insertScreening',
        'markActive',
        'completeScreening',
        'rescreenResult',
        'markRescreened',
        'discardScreening',
        'getScreening',
        'listUnfinished',
        'oldestQueuedAt',
      ]),
    );
  }
  get reviews() {
    return this.#of('reviews', () => pick(this.store, ['getReview', 'listReviews', 'pageReviews', 'resolveReview', 'countPendingReviews']));
  }
  get lists() {
    return this.#of('lists', () => {
      const db = connectionOf(this.store);
      // On the connection itself, guarded as a Store method is (its errors as StoreErrors).
      return { searchScreenings: (...a: Parameters<RecordLists['searchScreenings']>) => guardCall(db, () => searchScreenings(db, ...a)) };
    });
  }
  get tokens() {
    return this.#of('tokens', () => tokensOf(this.store));
  }
  get operatorState() {
    return this.#of('operatorState', () => operatorStateOf(this.store));
  }
  get idempotency() {
    return this.#of('idempotency', () => idempotencyOf(this.store)) as RecordRepos['idempotency'];
  }
  get decisions() {
    return this.#of('decisions', () => decisionsOf(this.store));
  }
  get decisionLists() {
    return this.#of('decisionLists', () => decisionListsOf(this.store));
  }
  get blocks() {
    return this.#of('blocks', () => localBlocksOf(this.store));
  }
  get outbox() {
    return this.#of('outbox', () => outboxOf(this.store));
  }
  get callbackSends(): RecordCallbackSends {
    return this.#once('callbackSends', () => {
      const { sends, claimDue } = this.#source('callbackSends', () => callbackSendsOfStore(this.store));
      return Object.freeze({
        ...asyncRepo(sends, this.#run),
        // Asked to stop quietly at shutdown: answered even once the store is closed (the store's
        // calls then reject), as PostgreSQL's is.
        isOpen: async () => sends.isOpen(),
        claimDue: (...a: Parameters<RecordCallbackSends['claimDue']>) => this.run(() => claimDue(...a)),
      });
    });
  }
  get retention() {
    return this.#once('retention', () => {
      const sync = this.#source('retention', () => retentionOf(this.store));
      // isOpen: answered once the store is closed too (a pass in progress stops quietly).
      return Object.freeze({ ...asyncRepo(sync, this.#run), isOpen: async () => sync.isOpen(), tryPruneLock: async () => NO_LOCK });
    });
  }
  get auditRows() {
    return this.#of('auditRows', () => auditRowsOf(this.store));
  }
  watch(watchDays: number): RecordWatchStore {
    const key = `watch:${watchDays}`;
    return this.#once(key, () => {
      const { sync, trial } = this.#source(key, () => ({
        sync: openWatchStore(this.store, { watchDays }),
        trial: undoneOnThrow(this.store),
      }));
      const observeOf = (o: RecordObservation) => observe(sync, o, this.#run, trial);
      return Object.freeze({
        ...asyncRepo(sync, this.#run),
        observe: observeOf,
        // The two calls (each read costs SQLite no round trip).
        tenderAndObserve: async (t: TenderUse | undefined, o: RecordObservation | undefined) => {
          if (t) await this.run(() => sync.recordTender(t));
          return o ? observeOf(o) : undefined;
        },
      });
    });
  }
  rescreenHolds(retryMs: number, limit: number) {
    return this.#of(`rescreenHolds:${retryMs}:${limit}`, () => rescreenHoldsOf(retryMs, limit)(this.store));
  }
}

type Trial = <T>(fn: () => T) => T;

/**
 * `fn`, its writes undone when it throws. Outside a unit the watch store's observe has a
 * transaction of its own, which does that; inside one it joins the unit's, so it takes a
 * savepoint here. Not `store.transaction`: in a unit without savepoints that runs inline, and
 * its throw would roll the whole unit back.
 */
function undoneOnThrow(store: Store): Trial {
  const db = connectionOf(store);
  let st: { savepoint: Database.Statement; rollbackTo: Database.Statement; release: Database.Statement } | undefined;
  const control = (s: Database.Statement) => {
    try {
      s.run();
    } catch (e) {
      throw toStoreError(e, store.path);
    }
  };
  return (fn) => {
    if (!db.inTransaction) return fn();
    st ??= {
      savepoint: db.prepare('SAVEPOINT observe_try'),
      rollbackTo: db.prepare('ROLLBACK TO observe_try'),
      release: db.prepare('RELEASE observe_try'),
    };
    control(st.savepoint);
    let value;
    try {
      value = fn();
    } catch (e) {
      // SQLite may have rolled the whole transaction back (SQLITE_FULL): the unit fails on its own.
      if (db.inTransaction) {
        control(st.rollbackTo);
        control(st.release);
      }
      throw e;
    }
    control(st.release);
    return value;
  };
}

/**
 * WatchStore.observe with findings that may answer a Promise. SQLite's observe asks for them in
 * the middle of its transaction, synchronously: when they answer a Promise, that try is rolled
 * back (inside a unit, to a savepoint: else the entry would keep the new state, and the second
 * try would find the snapshot seen already and record no change), the findings awaited, and
 * observe run again with them. Inside a unit nothing else writes between the two (the unit holds
 * the store's mutex); outside one, the second try reads afresh and takes the findings only for
 * the same `before`.
 */
async function observe(w: WatchStore, o: RecordObservation, run: Run, trial: Trial) {
  const { findings } = o;
  if (!findings) return run(() => w.observe({ ...o, findings: undefined }));
  let pending: { before: string; value: Promise<ChangeFindings | undefined> } | undefined;
  try {
    return await run(() =>
      trial(() =>
        w.observe({
          ...o,
          findings: (before, after) => {
            const r = findings(before, after);
            if (!(r instanceof Promise)) return r;
            pending = { before: JSON.stringify(before), value: r };
            throw FINDINGS_PENDING;
          },
        }),
      ),
    );
  } catch (e) {
    if (e !== FINDINGS_PENDING || !pending) throw e;
  }
  const first = pending;
  const value = await first.value;
  return run(() => w.observe({ ...o, findings: (before) => (JSON.stringify(before) === first.before ? value : undefined) }));
}

function pick<S extends object, K extends keyof S>(source: S, keys: readonly K[]): Pick<S, K> {
  const out = {} as Pick<S, K>;
  for (const k of keys) {
    const v = source[k];
    out[k] = (typeof v === 'function' ? v.bind(source) : v) as S[K];
  }
  return out;
}

/** The Store checks its own `fn`, but is handed the wrapper around this one: checked here, as PostgreSQL's record does. */
const notAFunction = () => Promise.reject(new StoreArgumentError('fn must be a function', 'fn'));

class SqliteRecordTx extends SqliteRepos implements RecordTx {
  #ended = false;

  private constructor(
    store: Store,
    sources: Map<string, unknown>,
    readonly inner: Tx,
  ) {
    super(store, sources);
  }

  /** `fn` with a handle on `inner` (a unit or a savepoint of one) that ends when `fn` settles, as `inner` does. */
  static async within<T>(store: Store, sources: Map<string, unknown>, inner: Tx, fn: (tx: RecordTx) => Promise<T>): Promise<T> {
    const tx = new SqliteRecordTx(store, sources, inner);
    try {
      return await fn(tx);
    } finally {
      tx.#ended = true;
    }
  }

  /** At once: the store's connection is in this unit's transaction. Not once the unit has ended (it would run outside it, or in another unit). */
  protected async run<T>(fn: () => T): Promise<T> {
    if (this.#ended) throw txFinished('a statement');
    return fn();
  }

  afterCommit(fn: () => void): void {
    this.inner.afterCommit(fn);
  }

  savepoint<T>(fn: (tx: RecordTx) => Promise<T>): Promise<T> {
    if (this.#ended) return Promise.reject(txFinished('savepoint'));
    if (typeof fn !== 'function') return notAFunction();
    return this.inner.savepoint((t) => SqliteRecordTx.within(this.store, this.sources, t, fn));
  }
}

class SqliteRecord extends SqliteRepos implements RecordStore {
  constructor(store: Store) {
    super(store, new Map());
  }

  protected run<T>(fn: () => T): Promise<T> {
    return this.store.readCommitted(fn);
  }

  get where(): string {
    return this.store.path;
  }

  unitOfWork<T>(fn: (tx: RecordTx) => Promise<T>): Promise<T> {
    if (typeof fn !== 'function') return notAFunction();
    return this.store.unitOfWork((t) => SqliteRecordTx.within(this.store, this.sources, t, fn));
  }

  unitOfWorkWithoutSavepoints<T>(fn: (tx: RecordTx) => Promise<T>): Promise<{ value: T } | undefined> {
    if (typeof fn !== 'function') return notAFunction();
    return this.store.unitOfWorkWithoutSavepoints((t) => SqliteRecordTx.within(this.store, this.sources, t, fn));
  }

  close(): void {
    this.store.close();
  }
}

const records = new WeakMap<Store, RecordStore>();

/** The record over a SQLite store opened by openStore (one per store). */
export function recordOf(store: Store): RecordStore {
  if (!store || typeof store.unitOfWork !== 'function') throw new StoreArgumentError('not a store opened by openStore', 'store');
  let r = records.get(store);
  if (!r) records.set(store, (r = new SqliteRecord(store)));
  return r;
}

/**
 * The SQLite store under a record recordOf made: for what reads the file's own rows (tests, tools),
 * never for product code, which takes the record. A StoreArgumentError for any other record.
 */
export function sqliteStoreOf(record: RecordStore): Store {
  if (!(record instanceof SqliteRecord)) throw new StoreArgumentError('not a SQLite record (recordOf)', 'record');
  return record.store;
}
