import { repositoryOf } from './repo.js';

/** An intake token as kept (its secret never is: only its hash). */
export interface TokenRow {
  id: string;
  name: string;
  role: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  api_version: string;
}

/** The intake_tokens table (worker/tokens/intake-tokens.ts has the rules: roles, secrets, shape). */
export interface TokensRepo {
  insert(t: { id: string; name: string; role: string; hash: string; prefix: string; created_at: string; api_version: string }): void;
  /** The active token with this hash. */
  byHash(hash: string): TokenRow | undefined;
  isActive(id: string): boolean;
  /** Every token, newest first. */
  list(): TokenRow[];
  /** Revoke the active token with this id or prefix; false when none matched. */
  revoke(idOrPrefix: string, at: string): boolean;
  /** Note the token used at `at`, unless it already was since `since`. */
  touch(id: string, at: string, since: string): void;
}

export const tokensOf = repositoryOf<TokensRepo>((db) => {
  const st = {
    insert: db.prepare<[string, string, string, string, string, string, string]>(
      'INSERT INTO intake_tokens (id, name, role, hash, prefix, created_at, api_version) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byHash: db.prepare<[string], TokenRow>(
      'SELECT id, name, role, prefix, created_at, revoked_at, last_used_at, api_version FROM intake_tokens WHERE hash = ? AND revoked_at IS NULL',
    ),
    active: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM intake_tokens WHERE id = ? AND revoked_at IS NULL'),
    list: db.prepare<[], TokenRow>(
      'SELECT id, name, role, prefix, created_at, revoked_at, last_used_at, api_version FROM intake_tokens ORDER BY created_at DESC, rowid DESC',
    ),
    revoke: db.prepare<[string, string, string]>(
      'UPDATE intake_tokens SET revoked_at = ? WHERE (id = ? OR prefix = ?) AND revoked_at IS NULL',
    ),
    // At most once a minute per token: a used-at column must not cost a write per request.
    touch: db.prepare<[string, string, string]>(
      'UPDATE intake_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
    ),
  };
  return {
    insert: (t) => void st.insert.run(t.id, t.name, t.role, t.hash, t.prefix, t.created_at, t.api_version),
    byHash: (hash) => st.byHash.get(hash),
    isActive: (id) => st.active.get(id) !== undefined,
    list: () => st.list.all(),
    revoke: (idOrPrefix, at) => st.revoke.run(at, idOrPrefix, idOrPrefix).changes > 0,
    touch: (id, at, since) => void st.touch.run(at, id, since),
  };
});
