import type { QueryConfig, QueryResultRow } from 'pg';

/**
 * What a PostgreSQL repository runs its SQL on: the pool (a read, or a write that is whole in one
 * statement) or the client of a unit of work. pg's Pool and PoolClient both are one; no pg type
 * leaves worker/store/pg/.
 */
export interface Queryable {
  query<R extends QueryResultRow>(config: QueryConfig): Promise<{ rows: R[]; rowCount: number | null }>;
}

type Params = Record<string, unknown>;

/**
 * One SQL statement, written with `@name` parameters as the SQLite repositories are, and run as a
 * prepared statement: pg prepares a named statement once per connection, so its name must stand
 * for one text only (checked here, at definition).
 */
export interface Statement<P extends Params> {
  readonly name: string;
  /** The text as PostgreSQL sees it: `$1`, `$2`… in place of the names. */
  readonly text: string;
  /** Every row. */
  all<R extends QueryResultRow>(q: Queryable, params: P): Promise<R[]>;
  /** The first row, or undefined. */
  get<R extends QueryResultRow>(q: Queryable, params: P): Promise<R | undefined>;
  /** How many rows it wrote (0 when a WHERE or ON CONFLICT refused). */
  run(q: Queryable, params: P): Promise<number>;
  /**
   * A plain read's answer for `params`, read ahead with others' in one statement: a unit of work
   * answers this read from it, without a round trip, until it writes a table the read reads
   * (executor.ts `remember`). Nothing happens on the pool.
   */
  remember(q: Queryable, params: P, rows: QueryResultRow[], sentAt?: number): void;
  /** Whether the unit `q` holds this plain read's answer for `params` (read ahead, not forgotten since): false on the pool. */
  known(q: Queryable, params: P): boolean;
  /**
   * A write that writes its rows or fails (no WHERE, no ON CONFLICT that could make it write
   * nothing), sent without waiting for its answer where the unit allows it (executor.ts
   * `sendOnly`); else run.
   */
  sendOnly(q: Queryable, params: P): Promise<void>;
}

/** A queryable that can keep read-ahead answers and send without waiting (a unit of work's executor). */
interface Remembers {
  remember?(config: QueryConfig, rows: QueryResultRow[], sentAt?: number): void;
  remembers?(config: QueryConfig): boolean;
  sendOnly?(config: QueryConfig): Promise<void>;
  locksSent?(): number;
}

const texts = new Map<string, string>();

/** The tables a unit of work may write late (executor.ts `DeferredWrite`): a statement naming one always runs after those writes. */
const DEFERRABLE_TABLES = /\bscreenings\b/i;
/**
 * Tables whose writes the database itself holds against screenings (reviews: its foreign key, and
 * its trigger that bumps a screening's version): a statement writing one runs after the late
 * writes too. A test reads the schema's foreign keys and triggers for any other.
 */
export const TABLES_TIED_TO_SCREENINGS: ReadonlySet<string> = new Set(['reviews']);
/**
 * Deletes the database carries on to other tables by a foreign key's ON DELETE action: a
 * screening deleted deletes its review. A test reads the schema for any other (and for any ON
 * UPDATE action, which none has).
 */
export const CASCADES: Readonly<Record<string, readonly string[]>> = { screenings: ['reviews'] };
/** The tables a statement's text writes, reads (after FROM or JOIN, also opening a parenthesised join), deletes. */
const WRITTEN = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?([A-Za-z_][A-Za-z0-9_]*)/gi;
const READ = /\b(?:FROM|JOIN)\s+\(?\s*(?!(?:SELECT|VALUES|LATERAL|ONLY)\b)([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()/gi;
const DELETED = /\b(?:DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?([A-Za-z_][A-Za-z0-9_]*)/gi;
/** Named statements that might see a unit's late writes (they name screenings, or write a table tied to them). */
const seesLate = new Set<string>();
/** What makes a statement more than a plain read. */
const NOT_PLAIN = /\b(INSERT|UPDATE|DELETE|MERGE|INTO|FOR\s+(UPDATE|SHARE|NO\s+KEY|KEY))\b|advisory|nextval|setval|set_config|pg_notify/i;
/** The tables each plain read reads, by statement name. */
const plainReads = new Map<string, ReadonlySet<string>>();
/** The tables each statement writes, by name (read off its text, as the plain-read check is). */
const writes = new Map<string, ReadonlySet<string>>();
/** Statements declared `locksOnly`. */
const locksOnly = new Set<string>();
/** Statements declared `carrierRows`: the tables, and the position in `values` of the carrier key. */
const carrierRowsOf = new Map<string, { tables: ReadonlySet<string>; at: number }>();
/** Statements that take transaction-level advisory locks (read off the text). */
const locking = new Set<string>();

/** True for a statement defined `plainRead`: it may run before its unit's BEGIN and before its deferred writes. */
export function isPlainRead(config: QueryConfig): boolean {
  return config.name !== undefined && plainReads.has(config.name);
}

/**
 * Whether a unit's late writes (screenings) must be sent before this statement: it names
 * screenings, writes a table tied to them, or is SQL not defined here.
 */
export function seesLateWrites(config: QueryConfig): boolean {
  return config.name === undefined || !writes.has(config.name) || seesLate.has(config.name);
}

/** True for a statement of ours that takes advisory locks (a carrier lock): what a unit read ahead about its keys was read before it. */
export function takesLocks(config: QueryConfig): boolean {
  return config.name !== undefined && locking.has(config.name);
}

/** True for a statement defined `locksOnly`. */
export function isLocksOnly(config: QueryConfig): boolean {
  return config.name !== undefined && locksOnly.has(config.name);
}

/** The tables a plain read reads; undefined for any other statement. */
export function tablesRead(config: QueryConfig): ReadonlySet<string> | undefined {
  return config.name === undefined ? undefined : plainReads.get(config.name);
}

/** The tables a statement of ours writes (none for a plain read); undefined for SQL not defined here: it may write any. */
export function tablesWritten(config: QueryConfig): ReadonlySet<string> | undefined {
  return config.name === undefined ? undefined : writes.get(config.name);
}

/**
 * The carrier a statement declared `carrierRows` reads or writes in these tables, and the tables:
 * undefined for any other statement.
 */
export function carrierRows(config: QueryConfig): { key: unknown; tables: ReadonlySet<string> } | undefined {
  const c = config.name === undefined ? undefined : carrierRowsOf.get(config.name);
  return c && { key: config.values?.[c.at], tables: c.tables };
}

/**
 * Whether `sql` reads `table` only where `carrier_key = @param`, or inserts into it with `@param`
 * as the value of carrier_key (`INSERT INTO table (… carrier_key …) VALUES (… @param …)`, its
 * only write of the table). Strict by design: no OR, no NOT (but IS NOT NULL), no other write
 * of the table; a statement it refuses is simply not declared.
 */
function keyedBy(sql: string, table: string, param: string): boolean {
  if (/\bOR\b|\bNOT\b(?!\s+NULL\b)/i.test(sql)) return false;
  const insert = new RegExp(`INSERT\\s+INTO\\s+${table}\\s*\\(([^)]*)\\)\\s*VALUES\\s*\\(([^)]*)\\)`, 'i').exec(sql);
  const writes = [...sql.matchAll(WRITTEN)].filter((m) => m[1]!.toLowerCase() === table).length;
  if (insert) {
    const columns = insert[1]!.split(',').map((c) => c.trim().toLowerCase());
    const values = insert[2]!.split(',').map((v) => v.trim());
    return writes === 1 && values[columns.indexOf('carrier_key')] === `@${param}`;
  }
  return (
    writes === 0 && tableNames(sql, READ).has(table) && new RegExp(`(?<![\\w.])(?:\\w+\\.)?carrier_key\\s*=\\s*@${param}\\b`, 'i').test(sql)
  );
}

/**
 * INSERT … VALUES (one row), no ON CONFLICT, no WHERE; before it at most one
 * `WITH x AS (INSERT … SELECT … FROM unnest(…) … ORDER BY …)`, with no join, limit or other write.
 */
function writesItsRowsOrFails(sql: string): boolean {
  if (
    /\bON\s+CONFLICT\b|\bWHERE\b|\bRETURNING\b|\bJOIN\b|\bLIMIT\b|\bOFFSET\b|\bDISTINCT\b|\bHAVING\b|\bEXCEPT\b|\bINTERSECT\b|\bUPDATE\b|\bDELETE\b/i.test(
      sql,
    )
  )
    return false;
  if ((sql.match(/\bINSERT\b/gi) ?? []).length > 2 || (sql.match(/\bAS\s*\(/gi) ?? []).length > 1) return false;
  const main = sql.replace(
    /^\s*WITH\s+\w+\s+AS\s+\(\s*INSERT\s+INTO\s+\w+\s*\([^)]*\)\s*SELECT\b[^;]*?\bunnest\([^;]*?\)\s*(?=INSERT\b)/i,
    '',
  );
  return /^\s*INSERT\s+INTO\s+\w+\s*\([^)]*\)\s*VALUES\s*\([^)]*\)\s*$/i.test(main);
}

const tableNames = (text: string, re: RegExp): Set<string> => new Set([...text.matchAll(re)].map((m) => m[1]!.toLowerCase()));

/** The tables SQL text writes, as read for a statement (also for a function's body, in a test). */
export function writtenTables(sql: string): Set<string> {
  const written = tableNames(sql, WRITTEN);
  for (const t of tableNames(sql, DELETED)) for (const child of CASCADES[t] ?? []) written.add(child);
  return written;
}

/** Every statement defined so far, by name (a test holds each one's tables to PostgreSQL's own plan of it). */
export function definedStatements(): Array<{ name: string; text: string; plainRead: boolean }> {
  return [...texts].map(([name, text]) => ({ name, text, plainRead: plainReads.has(name) }));
}

/** Every table some plain read reads (a test holds the schema's functions and triggers off them). */
export function plainReadTables(): Set<string> {
  return new Set([...plainReads.values()].flatMap((t) => [...t]));
}

export interface StatementOptions {
  /**
   * A plain read: one SELECT that writes nothing, locks nothing and reads no table a unit writes
   * late (checked here, by its text: it must call no function of ours that writes). A unit of
   * work sends it without its deferred writes, and before its BEGIN (READ COMMITTED gives each
   * statement a snapshot of its own, in a transaction or not): a group commit of cache hits sends
   * only its reads and one last write.
   */
  plainRead?: boolean;
  /**
   * Takes advisory locks and writes nothing (declared, not read off the text: a function may
   * write): a unit's BEGIN may be pipelined ahead of it, since should BEGIN fail it changed nothing.
   */
  locksOnly?: boolean;
  /**
   * In these tables it reads or writes only rows whose `carrier_key` is this parameter (declared;
   * its text must compare or insert the column with it): a unit's write of one carrier's rows
   * keeps what it read ahead about another's (a batch's held hits, each its own review).
   */
  carrierRows?: { param: string; tables: readonly string[] };
  /**
   * Writes every row it is given or fails (checked by its text: INSERT … VALUES, no ON CONFLICT,
   * no WHERE; before it at most a WITH of one INSERT … SELECT from unnest): `sendOnly` may send
   * it without waiting, since its failure aborts the transaction.
   */
  writesOrFails?: boolean;
}

export function statement<P extends Params = Record<string, never>>(name: string, sql: string, opts: StatementOptions = {}): Statement<P> {
  const { text, names } = positional(sql);
  const known = texts.get(name);
  if (known !== undefined && known !== text) throw new Error(`pg statement "${name}" is defined twice with different SQL`);
  texts.set(name, text);
  if (opts.plainRead) {
    if (DEFERRABLE_TABLES.test(text)) throw new Error(`pg statement "${name}" reads a table written late: it must wait for those writes`);
    if (!/^\s*SELECT\b/i.test(text) || NOT_PLAIN.test(text))
      throw new Error(`pg statement "${name}" is not a plain read (one SELECT, no write, no lock)`);
    plainReads.set(name, tableNames(text, READ));
  }
  if (opts.locksOnly) {
    if (!/^\s*SELECT\b/i.test(text) || !/advisory/i.test(text) || NOT_PLAIN.test(text.replace(/pg_advisory_xact_lock/gi, '')))
      throw new Error(`pg statement "${name}" is not one that only takes advisory locks`);
    locksOnly.add(name);
  }
  if (opts.carrierRows) {
    const { param, tables } = opts.carrierRows;
    const at = names.indexOf(param);
    if (at < 0 || tables.some((t) => !keyedBy(sql, t, param)))
      throw new Error(
        `pg statement "${name}": carrierRows: not every table named is read with carrier_key = @${param} or inserted into with it`,
      );
    carrierRowsOf.set(name, { tables: new Set(tables), at });
  } else carrierRowsOf.delete(name);
  if (opts.writesOrFails && !writesItsRowsOrFails(sql))
    throw new Error(`pg statement "${name}" is not one that writes its rows or fails (INSERT … VALUES, no ON CONFLICT, no WHERE)`);
  if (/pg_advisory_xact_lock/i.test(text)) locking.add(name);
  else locking.delete(name);
  const written = writtenTables(text);
  writes.set(name, written);
  if (DEFERRABLE_TABLES.test(text) || [...written].some((t) => TABLES_TIED_TO_SCREENINGS.has(t))) seesLate.add(name);
  else seesLate.delete(name);
  const config = (params: P): QueryConfig => ({
    name,
    text,
    values: names.map((n) => {
      if (!(n in params)) throw new Error(`pg statement "${name}": parameter @${n} not given`);
      return params[n];
    }),
  });
  return {
    name,
    text,
    async all<R extends QueryResultRow>(q: Queryable, params: P): Promise<R[]> {
      return (await q.query<R>(config(params))).rows;
    },
    async get<R extends QueryResultRow>(q: Queryable, params: P): Promise<R | undefined> {
      return (await q.query<R>(config(params))).rows[0];
    },
    run: async (q, params) => (await q.query(config(params))).rowCount ?? 0,
    async sendOnly(q: Queryable & Remembers, params: P): Promise<void> {
      if (!opts.writesOrFails) throw new Error(`pg statement "${name}" is not declared writesOrFails: it cannot be sent without waiting`);
      if (q.sendOnly) return q.sendOnly(config(params));
      await q.query(config(params));
    },
    remember(q: Queryable & Remembers, params: P, rows: QueryResultRow[], sentAt?: number): void {
      if (!opts.plainRead) throw new Error(`pg statement "${name}" is not a plain read: its answer cannot be read ahead`);
      q.remember?.(config(params), rows, sentAt);
    },
    known(q: Queryable & Remembers, params: P): boolean {
      return opts.plainRead === true && q.remembers?.(config(params)) === true;
    },
  };
}

/**
 * `@name::type[]` as a value the planner does not look into: `unnest(${batchArray('keys', 'text')})`.
 * A statement over a batch's arrays then keeps one generic plan. With an array's length in view,
 * each custom plan costs a little less than the generic one, and PostgreSQL plans the statement
 * again at every bind: 0.1 to 0.35 ms a statement in a statement log of the bench, as long as
 * running it (bench/README.md). A read of a table that grows may keep one too, when on grown
 * tables it finds each row by key: PostgreSQL plans a prepared statement again once the
 * statistics of a table it reads are updated (PREPARE's documentation; autovacuum's ANALYZE,
 * after 50 rows and 10 % of the table changed), and a new connection plans with the tables as
 * they are. A plan made on small tables (a scan, a hash join) so lasts until autovacuum analyzes
 * them, or, with autovacuum off, until its connection ends (pg-pool.ts, PG_CONNECTION_LIFETIME_S).
 * pg-generic-plans.test.ts shows both, and holds each such read to index scans on grown tables.
 */
export function batchArray(name: string, type: 'text' | 'bigint'): string {
  return `(SELECT @${name}::${type}[])::${type}[]`;
}

/**
 * `@name` -> `$n` (the same name, the same position), outside quoted strings and identifiers.
 * `@` followed by a letter is never an operator in our SQL (PostgreSQL's are `@>`, `<@`, `@@`).
 */
export function positional(sql: string): { text: string; names: string[] } {
  const names: string[] = [];
  let text = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} in SQL: ${sql}`);
      text += sql.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const m = c === '@' && sql[i - 1] !== '<' ? /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(sql.slice(i)) : null;
    if (m) {
      let n = names.indexOf(m[1]!);
      if (n < 0) n = names.push(m[1]!) - 1;
      text += `$${n + 1}`;
      i += m[0].length;
      continue;
    }
    text += c;
    i++;
  }
  return { text, names };
}

/** One read a read-ahead answers (`ahead`): a plain read and its parameters. */
export type ReadAhead = (q: Queryable & Remembers, rows: QueryResultRow[], sentAt: number | undefined) => void;

export function ahead<P extends Params>(read: Statement<P>, params: P): ReadAhead {
  return (q, rows, sentAt) => read.remember(q, params, rows, sentAt);
}

/** `many`'s rows by the 1-based position `i` each carries, without it: readAheadMany's default. */
function byPosition(got: QueryResultRow[], n: number): Array<QueryResultRow[] | undefined> {
  const out: Array<QueryResultRow[] | undefined> = new Array(n);
  for (const { i, ...row } of got as Array<{ i: number }>) (out[Number(i) - 1] ??= []).push(row);
  return out;
}

/**
 * Many plain reads read ahead in one statement, for a unit of work (on the pool, nothing): by
 * default `many`'s rows each carry `i`, the 1-based position in `answers` of the read the row
 * answers, and the rest of the row is that read's row; `spread` may put the reads' rows together
 * otherwise (undefined: that read is not answered). An answer about a key a lock named that went
 * out while it was on its way was read before that lock, not under it, and is not kept
 * (pg-store.ts: a lock forgets what was read before it). Returns `many`'s rows.
 */
export async function readAheadMany<P extends Params>(
  q: Queryable & Remembers,
  many: Statement<P>,
  params: P,
  answers: readonly ReadAhead[],
  spread: (got: QueryResultRow[], n: number) => Array<QueryResultRow[] | undefined> = byPosition,
): Promise<QueryResultRow[]> {
  if (!q.remember || answers.length === 0) return [];
  const sentAt = q.locksSent?.();
  const got = await many.all<QueryResultRow>(q, params);
  spread(got, answers.length).forEach((rows, k) => {
    if (rows) answers[k]!(q, rows, sentAt);
  });
  return got;
}
