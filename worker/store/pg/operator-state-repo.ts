import type { OperatorSetting, OperatorStateRepo } from '../operator-state-repo.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

const get = statement<{ key: string }>('operator_state_get', 'SELECT value, updated_at FROM operator_state WHERE key = @key');
// One statement: the row lock of ON CONFLICT makes two hosts' puts queue, not race.
const put = statement<{ key: string; value: string; at: string }>(
  'operator_state_put',
  `INSERT INTO operator_state (key, value, updated_at) VALUES (@key, @value, @at)
   ON CONFLICT (key) DO UPDATE SET value = excluded.value,
     updated_at = CASE WHEN operator_state.value = excluded.value THEN operator_state.updated_at ELSE excluded.updated_at END`,
);

/** operator_state on PostgreSQL: the twin of operator-state-repo.ts. */
export function pgOperatorStateOf(x: PgExecutor): AsyncRepo<OperatorStateRepo> {
  return {
    get: (key) => get.get<OperatorSetting>(x, { key }),
    put: async (key, value, at) => void (await put.run(x, { key, value, at })),
  };
}
