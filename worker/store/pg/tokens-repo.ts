import type { TokenRow, TokensRepo } from '../tokens-repo.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

const COLUMNS = 'id, name, role, prefix, created_at, revoked_at, last_used_at, api_version';

const st = {
  insert: statement<{ id: string; name: string; role: string; hash: string; prefix: string; created_at: string; api_version: string }>(
    'tokens_insert',
    `INSERT INTO intake_tokens (id, name, role, hash, prefix, created_at, api_version)
     VALUES (@id, @name, @role, @hash, @prefix, @created_at, @api_version)`,
  ),
  byHash: statement<{ hash: string }>('tokens_by_hash', `SELECT ${COLUMNS} FROM intake_tokens WHERE hash = @hash AND revoked_at IS NULL`),
  active: statement<{ id: string }>('tokens_active', 'SELECT 1 AS one FROM intake_tokens WHERE id = @id AND revoked_at IS NULL'),
  // seq stands for SQLite's rowid: tokens made in one millisecond list in the order they were made.
  list: statement('tokens_list', `SELECT ${COLUMNS} FROM intake_tokens ORDER BY created_at DESC, seq DESC`),
  revoke: statement<{ at: string; ref: string }>(
    'tokens_revoke',
    'UPDATE intake_tokens SET revoked_at = @at WHERE (id = @ref OR prefix = @ref) AND revoked_at IS NULL',
  ),
  // At most once a minute per token: a used-at column must not cost a write per request.
  touch: statement<{ at: string; id: string; since: string }>(
    'tokens_touch',
    'UPDATE intake_tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @since)',
  ),
};

/** intake_tokens on PostgreSQL: the twin of tokens-repo.ts. Every method is one statement. */
export function pgTokensOf(x: PgExecutor): AsyncRepo<TokensRepo> {
  return {
    insert: async (t) => void (await st.insert.run(x, t)),
    byHash: (hash) => st.byHash.get<TokenRow>(x, { hash }),
    isActive: async (id) => (await st.active.get(x, { id })) !== undefined,
    list: () => st.list.all<TokenRow>(x, {}),
    revoke: async (idOrPrefix, at) => (await st.revoke.run(x, { at, ref: idOrPrefix })) > 0,
    touch: async (id, at, since) => void (await st.touch.run(x, { at, id, since })),
  };
}
