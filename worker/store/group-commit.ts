import type { Tx } from './types.js';

/**
 * Group commit: the pieces of work that arrive within two turns of the event loop share one
 * transaction, so a burst of cache hits pays for one BEGIN and COMMIT, not one each, and
 * every caller is answered after the shared COMMIT: what a 200 promises — the screening is
 * committed — holds. A failing piece rolls back alone and rejects only its caller: the batch runs
 * first without savepoints (a savepoint copies every page its piece touches into a statement
 * journal), and only when something in it threw is it rolled back and run again with a savepoint
 * per piece. A piece may so run twice; it must do nothing but its store writes. Pieces may be
 * async (they get the unit of work, `tx`); they run one after another in the shared unit.
 * Either backend (types only: `UnitsOfWork`): over PostgreSQL (store/pg/pg-store.ts) a batch
 * PostgreSQL chose as a deadlock victim is run again whole by the store's unit of work, so a piece
 * may run more than twice there, with the same rule.
 *
 * Why two turns: under load, requests whose bytes arrived while the previous batch was being
 * answered are read in the next poll phase; waiting for it makes the batch ~1.7 times as large
 * (4.0 -> 6.7 hits at 8 connections), and a commit costs ~150 us however few hits share it.
 * Idle, the second turn comes at once.
 */
type Pending<X, K> = { work: (tx: X) => unknown; ahead: K | undefined; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A unit of work whose nested units are of its own kind: the SQLite `Tx`, or the PostgreSQL `PgTx` (its repositories on the unit's client). */
export interface NestingTx<X> {
  afterCommit(fn: () => void): void;
  savepoint<T>(fn: (tx: X) => Promise<T>): Promise<T>;
}

/** What group commit asks of a store: either backend's (the SQLite Store, the PostgreSQL PgStore). */
export interface UnitsOfWork<X extends NestingTx<X>> {
  unitOfWork<T>(fn: (tx: X) => Promise<T>): Promise<T>;
  unitOfWorkWithoutSavepoints<T>(fn: (tx: X) => Promise<T>): Promise<{ value: T } | undefined>;
}

export interface GroupCommitOptions<X, K = never> {
  /**
   * The batch's first statements, in its unit before any piece: given what each piece said it
   * will read (`run`'s `ahead`), it reads them all at once for the unit to answer the pieces'
   * reads (on PostgreSQL one round trip for the batch, not one per piece). Only in the first run
   * of a batch: run again with savepoints, each piece reads its own.
   */
  readAhead?: (tx: X, ahead: K[]) => Promise<void>;
  /**
   * The batch's last statements, in its unit after every piece and before the COMMIT: given the
   * values of the pieces that succeeded, in batch order (a piece rolled back is not among them).
   * What it writes commits with the batch; when it throws, nothing of the batch is kept.
   */
  beforeCommit?: (tx: X, values: unknown[]) => Promise<void>;
}

export class GroupCommit<X extends NestingTx<X> = Tx, K = never> {
  #pending: Array<Pending<X, K>> = [];
  #scheduled = false;

  constructor(
    private readonly store: UnitsOfWork<X>,
    private readonly opts: GroupCommitOptions<X, K> = {},
  ) {}

  /**
   * `work` is one piece: it gets the shared unit of work and may be async (over SQLite it awaits
   * nothing but the store). The pieces of a batch run one after another, never interleaved.
   * `ahead`: what the piece will read, for the batch's `readAhead`.
   */
  run<T>(work: (tx: X) => T | Promise<T>, ahead?: K): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, ahead, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => setImmediate(() => void this.#flush()));
      }
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    let results: Outcome[];
    try {
      // First without savepoints (each copies the pages its piece touches); when anything in the
      // batch threw, all of it was rolled back: again, each piece in its own savepoint.
      const fast = await this.store.unitOfWorkWithoutSavepoints(async (tx) => {
        const ahead = batch.flatMap((item) => (item.ahead === undefined ? [] : [item.ahead]));
        if (this.opts.readAhead && ahead.length > 0) await this.opts.readAhead(tx, ahead);
        const values: unknown[] = [];
        for (const item of batch) values.push(await item.work(tx));
        await this.opts.beforeCommit?.(tx, values);
        return values;
      });
      results = fast ? fast.value.map((value) => ({ ok: true as const, value })) : await this.#eachInSavepoint(batch);
    } catch (error) {
      // The shared COMMIT failed (a full disk, a lock): nothing of the batch was kept.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const r = results[i]!;
      if (r.ok) item.resolve(r.value);
      else item.reject(r.error);
    });
  }

  /** Each piece in its own savepoint of one unit of work: a failure rolls back that piece alone. */
  async #eachInSavepoint(batch: Array<Pending<X, K>>): Promise<Outcome[]> {
    return this.store.unitOfWork(async (tx) => {
      const results: Outcome[] = [];
      for (const item of batch) {
        try {
          results.push({ ok: true, value: await tx.savepoint(async (sp) => item.work(sp)) });
        } catch (error) {
          results.push({ ok: false, error });
        }
      }
      await this.opts.beforeCommit?.(
        tx,
        results.flatMap((r) => (r.ok ? [r.value] : [])),
      );
      return results;
    });
  }
}
