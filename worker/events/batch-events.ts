import type { IntakeEvent, IntakeEventName } from '../../shared/screening.js';
import type { RecordTx } from '../store/index.js';
import type { SharedEventFeed } from './event-feed.js';
import { compactEvent } from './event-refs.js';

/**
 * The events one group-commit piece appends, kept until its batch writes them all with
 * `appendEvents` as the batch's last statement (`writeBatchEvents`, the group commit's
 * beforeCommit): one statement per batch, not one per event. On PostgreSQL an append takes the
 * event log's head row lock until COMMIT (store/pg/event-log-repo.ts), so appending last also
 * lets the next batch run its reads and inserts meanwhile instead of waiting for the lock.
 * Ids stay consecutive and committed in id order: the batch's events, in piece order, then each
 * piece's in its own order. An event's `id` is known once the batch has written it, before the
 * COMMIT: read it only after the commit (announce), as every caller of `append` does.
 * A piece rolled back (its savepoint) is not among the batch's values: its events are not written.
 */
export class BatchEvents implements Pick<SharedEventFeed, 'append'> {
  readonly #kept: Array<{ event: IntakeEventName; stored: unknown; out: IntakeEvent }> = [];

  /** As SharedEventFeed.append, written later: `tx` is the piece's and is not used. */
  append(_tx: RecordTx, event: IntakeEventName, data: unknown): Promise<IntakeEvent> {
    // Stored as a reference to its screening (event-refs.ts); delivered as given.
    const out: IntakeEvent = { id: 0, event, data: data ?? null };
    this.#kept.push({ event, stored: compactEvent(event, data), out });
    return Promise.resolve(out);
  }

  /** Every batch's events, in one statement on `tx`, their ids filled in. */
  static async writeAll(tx: RecordTx, batches: readonly BatchEvents[]): Promise<void> {
    const kept = batches.flatMap((b) => b.#kept);
    if (kept.length === 0) return;
    // The unit's last statement (group commit's beforeCommit): on PostgreSQL, with the batch's hits' screenings.
    const written = await tx.events.appendEvents(
      kept.map((k) => ({ event: k.event, data: k.stored })),
      { last: true },
    );
    kept.forEach((k, i) => (k.out.id = written[i]!.id));
  }
}
