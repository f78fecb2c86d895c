import { newScreeningId } from '../ids.js';
import { blockLockNames, blocksListOf, toBlock, type BlockRow } from '../block-rows.js';
import type { LocalBlocksRepo } from '../local-blocks-repo.js';
import { NotFoundError, WatchConflictError } from '../store-error.js';
import { lockCarrierSet } from './carrier-locks.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { pgKeysetPage } from './keyset-page.js';
import { statement } from './sql.js';

/**
 * The PostgreSQL twin of worker/store/local-blocks-repo.ts: the same methods, errors and order.
 * `addBlock` and `liftBlock` are whole by themselves (`x.transaction`: a savepoint inside a
 * caller's unit of work, as SQLite's nested `.immediate()`).
 *
 * Several hosts (docs/design/postgres.md, section 4): local_blocks_one_active keeps one active
 * block per carrier_key, but addBlock also refuses a block whose DOT or MC number an active block
 * has, under another key: that check and the insert run under advisory locks on each of the new
 * block's names (`key:`, `dot:`, `mc:`; ADVISORY_NAMESPACES.block), taken in one statement in the
 * global order (carrier-locks.ts), so two hosts blocking one carrier (by any of its names) add
 * one block, and the second is told block_conflict. A lift locks its row (FOR UPDATE): lifted once, the second lift a conflict.
 */

const BLOCK_COLUMNS =
  'id, carrier_key, dot_number, mc_number, reason, blocked_by, blocked_at, lifted_by, lifted_at, token_id, lifted_token_id, lift_note';

type Row = BlockRow & Record<string, unknown>;

const st = {
  insertBlock: statement<{
    id: string;
    key: string;
    dot: string | null;
    mc: string | null;
    reason: string;
    by: string;
    at: string;
    token: string | null;
  }>(
    'local_blocks_insert',
    `INSERT INTO local_blocks (id, carrier_key, dot_number, mc_number, reason, blocked_by, blocked_at, token_id)
     VALUES (@id, @key, @dot, @mc, @reason, @by, @at, @token)`,
  ),
  anyActiveBlock: statement('local_blocks_any_active', 'SELECT 1 AS one FROM local_blocks WHERE lifted_at IS NULL LIMIT 1'),
  activeBlockByKey: statement<{ key: string }>(
    'local_blocks_active_by_key',
    `SELECT ${BLOCK_COLUMNS} FROM local_blocks WHERE lifted_at IS NULL AND carrier_key = @key LIMIT 1`,
  ),
  activeBlockByIds: statement<{ dot: string | null; mc: string | null }>(
    'local_blocks_active_by_ids',
    `SELECT ${BLOCK_COLUMNS} FROM local_blocks WHERE lifted_at IS NULL AND (dot_number = @dot OR mc_number = @mc)
     ORDER BY blocked_at ASC, seq ASC LIMIT 1`,
  ),
  lift: statement<{ id: string; by: string; at: string; token: string | null; note: string | null }>(
    'local_blocks_lift',
    'UPDATE local_blocks SET lifted_by = @by, lifted_at = @at, lifted_token_id = @token, lift_note = @note WHERE id = @id AND lifted_at IS NULL',
  ),
  blockById: statement<{ id: string }>('local_blocks_by_id', `SELECT ${BLOCK_COLUMNS} FROM local_blocks WHERE id = @id`),
  blockByIdForUpdate: statement<{ id: string }>(
    'local_blocks_by_id_for_update',
    `SELECT ${BLOCK_COLUMNS} FROM local_blocks WHERE id = @id FOR UPDATE`,
  ),
  lastLiftedByIds: statement<{ dot: string | null; mc: string | null }>(
    'local_blocks_last_lifted_by_ids',
    `SELECT ${BLOCK_COLUMNS} FROM local_blocks WHERE lifted_at IS NOT NULL AND (dot_number = @dot OR mc_number = @mc)
     ORDER BY lifted_at DESC, seq DESC LIMIT 1`,
  ),
};

export function pgLocalBlocksOf(x: PgExecutor): AsyncRepo<LocalBlocksRepo> {
  return {
    addBlock: (b) =>
      x.transaction(async (tx) => {
        // One statement, in the global order (carrier-locks.ts): re-entrant when the unit took them first.
        await lockCarrierSet(tx, { block: blockLockNames(b) });
        const existing =
          (await st.activeBlockByKey.get<Row>(tx, { key: b.carrierKey })) ??
          (await st.activeBlockByIds.get<Row>(tx, { dot: b.dot_number, mc: b.mc_number }));
        if (existing)
          throw new WatchConflictError(
            'block_conflict',
            `the carrier is already blocked (by ${existing.blocked_by} at ${existing.blocked_at}, block ${existing.id})`,
            existing.id,
          );
        const id = `blk_${newScreeningId().slice(4)}`;
        await st.insertBlock.run(tx, {
          id,
          key: b.carrierKey,
          dot: b.dot_number,
          mc: b.mc_number,
          reason: b.reason,
          by: b.by,
          at: b.at,
          token: b.token_id ?? null,
        });
        return toBlock((await st.blockById.get<Row>(tx, { id }))!);
      }),

    liftBlock: (id, by, at, tokenId, note) =>
      x.transaction(async (tx) => {
        // Locked: a second lift waits, then finds it lifted (a conflict, as on SQLite).
        const row = await st.blockByIdForUpdate.get<Row>(tx, { id });
        if (!row) throw new NotFoundError(`no local block ${id}`);
        if (row.lifted_at !== null)
          throw new WatchConflictError('block_conflict', `block ${id} was already lifted by ${row.lifted_by ?? 'someone'}`, id);
        await st.lift.run(tx, { id: row.id, by, at, token: tokenId ?? null, note: note ?? null });
        return toBlock((await st.blockById.get<Row>(tx, { id: row.id }))!);
      }),

    hasActiveBlocks: async () => (await st.anyActiveBlock.get(x, {})) !== undefined,

    async activeBlock(ids) {
      if (ids.dot_number === null && ids.mc_number === null) return undefined;
      const row = await st.activeBlockByIds.get<Row>(x, { dot: ids.dot_number, mc: ids.mc_number });
      return row ? toBlock(row) : undefined;
    },

    async lastLiftedBlock(ids) {
      if (ids.dot_number === null && ids.mc_number === null) return undefined;
      const row = await st.lastLiftedByIds.get<Row>(x, { dot: ids.dot_number, mc: ids.mc_number });
      return row ? toBlock(row) : undefined;
    },

    async pageBlocks(state, p, dot) {
      const { rows, has_more } = await pgKeysetPage<Row>(
        x,
        'local_blocks',
        blocksListOf(state, dot, { select: `SELECT ${BLOCK_COLUMNS} FROM local_blocks`, tie: 'seq' }),
        p,
      );
      return { data: rows.map(toBlock), has_more };
    },
  };
}
