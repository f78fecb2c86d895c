import { repositoryOf } from './repo.js';

/**
 * A callback_outbox row as the sender claims it (worker/callbacks/outbox.ts's OutboxRow: the
 * callbacks give `state` and `last_error` their vocabularies; the store keeps them as text).
 */
export interface ClaimedCallback {
  id: string;
  delivery_id: string;
  kind: string;
  url: string;
  destination: string;
  subject: string | null;
  version: number | null;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  retry_since: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  cancelled_at: string | null;
}

/** What the callback sender (worker/callbacks/sender.ts) asks of the outbox table. */
export interface CallbackSendsRepo {
  /** False once the store is closed. */
  isOpen(): boolean;
  /**
   * Pending rows due by `nowMs`, not to a destination in `skip`, not behind an older state of
   * their screening still owed; earliest due first, at most `limit`.
   */
  due(nowMs: number, skip: readonly string[], limit: number): Array<{ id: string; destination: string }>;
  /**
   * Claim row `id` if still pending, due and in order: one more attempt, leased until `leaseMs`
   * (the retry window starts at the first attempt); undefined when another process took it.
   */
  claim(id: string, nowMs: number, nowIso: string, leaseMs: number): ClaimedCallback | undefined;
  delivered(id: string, status: number, at: string): void;
  /** A failed attempt: due again at `nextMs`. */
  failed(id: string, status: number | null, failure: string, nextMs: number, at: string): void;
  dead(id: string, status: number | null, failure: string, at: string): void;
}

export const callbackSendsOf = repositoryOf<CallbackSendsRepo>((db) => {
  // Not yet ordered after an older state of the same screening still owed.
  const inOrder = `(c.subject IS NULL OR NOT EXISTS (
      SELECT 1 FROM callback_outbox o WHERE o.subject = c.subject AND o.version < c.version AND o.state = 'pending'))`;
  const st = {
    due: db.prepare<[number, string, number], { id: string; destination: string }>(`
      SELECT c.id, c.destination FROM callback_outbox c
      WHERE c.state = 'pending' AND c.next_attempt_at <= ? AND c.destination NOT IN (SELECT value FROM json_each(?)) AND ${inOrder}
      ORDER BY c.next_attempt_at LIMIT ?`),
    // The retry window starts at a row's first attempt (attempts 0 before this one): a row that
    // waited behind an older state of its screening, or an open breaker, gets its whole window.
    claim: db.prepare<[number, string, number, string, number], ClaimedCallback>(`
      UPDATE callback_outbox AS c SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ?,
        retry_since = CASE WHEN attempts = 0 THEN ? ELSE retry_since END
      WHERE c.id = ? AND c.state = 'pending' AND c.next_attempt_at <= ? AND ${inOrder}
      RETURNING *`),
    delivered: db.prepare<[number, string, string, string]>(`
      UPDATE callback_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
    failed: db.prepare<[number | null, string, number, string, string]>(`
      UPDATE callback_outbox SET last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
    dead: db.prepare<[number | null, string, string, string]>(`
      UPDATE callback_outbox SET state = 'dead', last_status = ?, last_error = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
  };
  return {
    isOpen: () => db.open,
    due: (nowMs, skip, limit) => st.due.all(nowMs, JSON.stringify(skip), limit),
    claim: (id, nowMs, nowIso, leaseMs) => st.claim.get(leaseMs, nowIso, nowMs, id, nowMs),
    delivered: (id, status, at) => void st.delivered.run(status, at, at, id),
    failed: (id, status, failure, nextMs, at) => void st.failed.run(status, failure, nextMs, at, id),
    dead: (id, status, failure, at) => void st.dead.run(status, failure, at, id),
  };
});
