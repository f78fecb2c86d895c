import type Database from 'better-sqlite3';
import type { LocalBlock } from '../../shared/screening.js';
import { blocksListOf, toBlock, type BlockRow } from './block-rows.js';
import { newScreeningId } from './ids.js';
import { keysetPage } from './keyset.js';
import { connectionOf, guardMethods } from './sqlite-store.js';
import { NotFoundError, WatchConflictError } from './store-error.js';
import type { ListPage, Store } from './types.js';

/** A block to add: who put it there, when, and why. */
export interface NewBlock {
  carrierKey: string;
  dot_number: string | null;
  mc_number: string | null;
  reason: string;
  by: string;
  at: string;
  token_id?: string | null;
}

/**
 * The local do-not-use list's SQL (table local_blocks, migration 2): a repository of the store,
 * built once per store on its own connection (`localBlocksOf(store)`), so a block joins the
 * running unit of work (`store.unitOfWork`: a carrier blocked and its open review closed, one
 * commit). Callers pass canonical ids and carrier keys (worker/watch/carrier-key.ts); failures leave as
 * StoreError, as the watch store's do. The rule (a block wins over /v1) is worker/blocks/.
 */
export interface LocalBlocksRepo {
  addBlock(b: NewBlock): LocalBlock;
  /** Lift an active block; NotFoundError when there is no such block, WatchConflictError when already lifted. */
  liftBlock(id: string, by: string, at: string, tokenId?: string | null, note?: string | null): LocalBlock;
  /** The active block matching any of these ids, if any. */
  activeBlock(ids: { dot_number: string | null; mc_number: string | null }): LocalBlock | undefined;
  /** Whether any block is active: most installations have none, and then no carrier needs resolving. */
  hasActiveBlocks(): boolean;
  /** The carrier's most recently lifted block (lifting it again is a conflict, not a miss). */
  lastLiftedBlock(ids: { dot_number: string | null; mc_number: string | null }): LocalBlock | undefined;
  /** One page of GET /blocks by keyset, newest first (lifted: last lifted first), each on its own index. */
  /** `dot`: one carrier's blocks (canonical DOT), newest block first, on local_blocks_by_dot. */
  pageBlocks(state: 'active' | 'lifted' | undefined, page: ListPage, dot?: string): { data: LocalBlock[]; has_more: boolean };
}

function build(db: Database.Database): LocalBlocksRepo {
  const st = {
    insertBlock: db.prepare(`
      INSERT INTO local_blocks (id, carrier_key, dot_number, mc_number, reason, blocked_by, blocked_at, token_id)
      VALUES (@id, @key, @dot, @mc, @reason, @by, @at, @token)`),
    anyActiveBlock: db.prepare<[], { one: number }>('SELECT 1 AS one FROM local_blocks WHERE lifted_at IS NULL LIMIT 1'),
    activeBlockByKeys: db.prepare<[string, string], BlockRow>(
      'SELECT * FROM local_blocks WHERE lifted_at IS NULL AND carrier_key IN (?, ?) LIMIT 1',
    ),
    activeBlockByIds: db.prepare<{ dot: string | null; mc: string | null }, BlockRow>(`
      SELECT * FROM local_blocks WHERE lifted_at IS NULL AND (dot_number = @dot OR mc_number = @mc)
      ORDER BY blocked_at ASC LIMIT 1`),
    lift: db.prepare<[string, string, string | null, string | null, string]>(
      'UPDATE local_blocks SET lifted_by = ?, lifted_at = ?, lifted_token_id = ?, lift_note = ? WHERE id = ? AND lifted_at IS NULL',
    ),
    blockById: db.prepare<[string], BlockRow>('SELECT * FROM local_blocks WHERE id = ?'),
    lastLiftedByIds: db.prepare<{ dot: string | null; mc: string | null }, BlockRow>(`
      SELECT * FROM local_blocks WHERE lifted_at IS NOT NULL AND (dot_number = @dot OR mc_number = @mc)
      ORDER BY lifted_at DESC, rowid DESC LIMIT 1`),
  };

  const addBlockTx = db.transaction((b: NewBlock): LocalBlock => {
    const existing =
      st.activeBlockByKeys.get(b.carrierKey, b.carrierKey) ?? st.activeBlockByIds.get({ dot: b.dot_number, mc: b.mc_number });
    if (existing)
      throw new WatchConflictError(
        'block_conflict',
        `the carrier is already blocked (by ${existing.blocked_by} at ${existing.blocked_at}, block ${existing.id})`,
        existing.id,
      );
    const id = `blk_${newScreeningId().slice(4)}`;
    st.insertBlock.run({
      id,
      key: b.carrierKey,
      dot: b.dot_number,
      mc: b.mc_number,
      reason: b.reason,
      by: b.by,
      at: b.at,
      token: b.token_id ?? null,
    });
    return toBlock(st.blockById.get(id)!);
  });

  const liftTx = db.transaction((id: string, by: string, at: string, tokenId: string | null, note: string | null): LocalBlock => {
    const row = st.blockById.get(id);
    if (!row) throw new NotFoundError(`no local block ${id}`);
    if (row.lifted_at !== null)
      throw new WatchConflictError('block_conflict', `block ${id} was already lifted by ${row.lifted_by ?? 'someone'}`, id);
    st.lift.run(by, at, tokenId, note, row.id);
    return toBlock(st.blockById.get(row.id)!);
  });

  return {
    addBlock: (b) => addBlockTx.immediate(b),
    liftBlock: (id, by, at, tokenId, note) => liftTx.immediate(id, by, at, tokenId ?? null, note ?? null),
    hasActiveBlocks() {
      return st.anyActiveBlock.get() !== undefined;
    },

    activeBlock(ids) {
      if (ids.dot_number === null && ids.mc_number === null) return undefined;
      const row = st.activeBlockByIds.get({ dot: ids.dot_number, mc: ids.mc_number });
      return row ? toBlock(row) : undefined;
    },
    lastLiftedBlock(ids) {
      if (ids.dot_number === null && ids.mc_number === null) return undefined;
      const row = st.lastLiftedByIds.get({ dot: ids.dot_number, mc: ids.mc_number });
      return row ? toBlock(row) : undefined;
    },
    pageBlocks(state, p, dot) {
      const { rows, has_more } = keysetPage<BlockRow>(
        db,
        blocksListOf(state, dot, {
          select: 'SELECT * FROM local_blocks',
          tie: 'rowid',
          // One carrier's blocks: few, on their DOT's index, in block order (a carrier page reads them).
          byDotPageSelect: 'SELECT * FROM local_blocks INDEXED BY local_blocks_by_dot',
        }),
        p,
      );
      return { data: rows.map(toBlock), has_more };
    },
  };
}

const opened = new WeakMap<Store, LocalBlocksRepo>();

/** The store's local-blocks repository (one per store, statements prepared once). */
export function localBlocksOf(store: Store): LocalBlocksRepo {
  let r = opened.get(store);
  if (!r) {
    const db = connectionOf(store);
    r = Object.freeze(guardMethods(build(db), db, store.path)) as unknown as LocalBlocksRepo;
    opened.set(store, r);
  }
  return r;
}
