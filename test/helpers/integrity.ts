import type { Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';

/** `PRAGMA integrity_check` on the store's own connection: 'ok', or the problems it found, one a line. */
export function integrityOf(store: Store): string {
  const rows = connectionOf(store).pragma('integrity_check') as Array<{ integrity_check: string }>;
  return rows.map((r) => r.integrity_check).join('\n');
}
