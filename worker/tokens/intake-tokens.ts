import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Config } from '../../shared/config.js';
import { randomBase32 } from '../store/ids.js';
import type { RecordRepos } from '../store/record.js';
import { isRole, type Role } from './roles.js';
import { LATEST_API_VERSION } from '../../shared/api-versions.js';

/** Where the admin token lives unless INTAKE_TOKEN is set: in the data dir, SCREEN_DATA_DIR (start writes it). */
export function tokenPath(config: Pick<Config, 'dataDir'>): string {
  return resolve(config.dataDir, 'intake-token');
}

/**
 * Scoped intake tokens, kept in the record as hashes. A token is `cs_<role>_<40 random base32>`;
 * it is shown once when created and never again (the hash is all that is kept).
 */

export interface TokenRecord {
  object: 'intake_token';
  id: string;
  name: string;
  role: Role;
  /** The token's first characters, to recognise it in a list. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** The API version its requests get when they do not name one (the newest when it was made). */
  api_version: string;
}

export interface Caller {
  role: Role;
  /** The token's name (the default `by`); null for INTAKE_TOKEN. */
  name: string | null;
  token_id: string | null;
  /** Its pinned API version; absent for INTAKE_TOKEN (the newest). */
  api_version?: string;
}

/**
 * Who did something, as the record keeps it: `by` the person, `token_id` the credential
 * (docs/api.md "Tokens and roles"). INTAKE_TOKEN has no row: it is recorded as INTAKE_TOKEN_ID.
 */
export interface Actor {
  by: string;
  token_id: string | null;
}

/** The token id recorded for INTAKE_TOKEN (the one credential not in intake_tokens). */
export const INTAKE_TOKEN_ID = 'intake_token';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class TokenArgumentError extends RangeError {
  override readonly name = 'TokenArgumentError';
}

export class IntakeTokens {
  readonly #st: RecordRepos['tokens'];

  /** `store`: the record's store (never a unit's handle: each call commits by itself). */
  constructor(
    store: Pick<RecordRepos, 'tokens'>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#st = store.tokens;
  }

  /** A new token: the secret (shown once) and its record. A bad role or name throws at the call. */
  create(role: Role, name: string): Promise<{ token: string; record: TokenRecord }> {
    if (!isRole(role)) throw new TokenArgumentError(`role must be metrics, tms, desk or admin, got ${JSON.stringify(role)}`);
    const n = name.trim();
    if (n === '' || n.length > 100) throw new TokenArgumentError('name must be 1 to 100 characters');
    // 200 random bits for the secret, 128 for its id (the project's one base32 form).
    const token = `cs_${role}_${randomBase32(25)}`;
    const id = `tok_${randomBase32(16)}`;
    const prefix = token.slice(0, role.length + 8);
    const at = this.now().toISOString();
    // Pinned to the newest version: a later version never changes what this token's requests get.
    const inserted = this.#st.insert({
      id,
      name: n,
      role,
      hash: hashToken(token),
      prefix,
      created_at: at,
      api_version: LATEST_API_VERSION,
    });
    return inserted.then(() => ({
      token,
      record: {
        object: 'intake_token',
        id,
        name: n,
        role,
        prefix,
        created_at: at,
        revoked_at: null,
        last_used_at: null,
        api_version: LATEST_API_VERSION,
      },
    }));
  }

  async list(): Promise<TokenRecord[]> {
    return (await this.#st.list()).map((r) => ({ object: 'intake_token', ...r, role: r.role as Role }));
  }

  /** Revoke by id or prefix; false when no active token matched. */
  revoke(idOrPrefix: string): Promise<boolean> {
    return this.#st.revoke(idOrPrefix, this.now().toISOString());
  }

  /** False once the token is revoked (e.g. by `carrier-screen token revoke` in another process). */
  isActive(id: string): Promise<boolean> {
    return this.#st.isActive(id);
  }

  /**
   * The caller a bearer token names, or undefined. The store's statements, outside any unit of
   * work (on SQLite they wait for an open one): the read sees committed tokens only, and the
   * touch, one statement, commits by itself rather than joining a unit (and its rollback).
   */
  async lookup(token: string): Promise<Caller | undefined> {
    if (!token.startsWith('cs_')) return undefined;
    const row = await this.#st.byHash(hashToken(token));
    if (!row) return undefined;
    const now = this.now();
    const since = new Date(now.getTime() - 60_000).toISOString();
    // The row just read says whether a touch is due: most requests send no write (on PostgreSQL an
    // UPDATE that matches nothing is still a round trip). A failed touch is dropped: a full disk
    // must not refuse a read (last_used_at is a convenience).
    if (row.last_used_at === null || row.last_used_at < since) await this.#st.touch(row.id, now.toISOString(), since).catch(() => {});
    return { role: row.role as Role, name: row.name, token_id: row.id, api_version: row.api_version };
  }
}
