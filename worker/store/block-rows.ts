import type { LocalBlock } from '../../shared/screening.js';
import type { KeysetList } from './keyset.js';
import { StoreArgumentError } from './store-error.js';

/**
 * The local do-not-use list's row mapping and lock names, backend-free: local-blocks-repo.ts
 * (SQLite) and pg/local-blocks-repo.ts (PostgreSQL) both use these, so the two answer the same JSON.
 */

/** The names a block is found by (`key:`, `dot:`, `mc:`): on PostgreSQL each is a lock (ADVISORY_NAMESPACES.block). */
export function blockLockNames(b: { carrierKey: string; dot_number: string | null; mc_number: string | null }): string[] {
  const keys = new Set([`key:${b.carrierKey}`]);
  if (b.dot_number !== null) keys.add(`dot:${b.dot_number}`);
  if (b.mc_number !== null) keys.add(`mc:${b.mc_number}`);
  return [...keys];
}

export interface BlockRow {
  id: string;
  carrier_key: string;
  dot_number: string | null;
  mc_number: string | null;
  reason: string;
  blocked_by: string;
  blocked_at: string;
  lifted_by: string | null;
  lifted_at: string | null;
  token_id: string | null;
  lifted_token_id: string | null;
  lift_note?: string | null;
}

export function toBlock(r: BlockRow): LocalBlock {
  return {
    object: 'local_block',
    id: r.id,
    dot_number: r.dot_number,
    mc_number: r.mc_number,
    reason: r.reason,
    state: r.lifted_at === null ? 'active' : 'lifted',
    blocked_by: r.blocked_by,
    blocked_at: r.blocked_at,
    token_id: r.token_id ?? null,
    lifted_by: r.lifted_by,
    lifted_at: r.lifted_at,
    lifted_token_id: r.lifted_token_id ?? null,
    lift_note: r.lift_note ?? null,
    updated_at: r.lifted_at !== null && r.lifted_at > r.blocked_at ? r.lifted_at : r.blocked_at,
  };
}

/**
 * GET /blocks as a keyset list, one definition for both backends: newest block first (lifted ones
 * by their lift), filtered by state and DOT, spelt as the partial indexes' own terms so the
 * planner may use them. A backend gives its select, its tie-break (rowid, seq) and, when it must
 * be told, the index of one carrier's blocks.
 */
export function blocksListOf(
  state: 'active' | 'lifted' | undefined,
  dot: string | undefined,
  d: { select: string; tie: string; byDotPageSelect?: string },
): KeysetList {
  if (state !== undefined && state !== 'active' && state !== 'lifted')
    throw new StoreArgumentError(`state must be "active" or "lifted", got ${JSON.stringify(state)}`, 'state');
  return {
    select: d.select,
    ...(dot === undefined || d.byDotPageSelect === undefined ? {} : { pageSelect: d.byDotPageSelect }),
    where: [
      ...(state === 'active' ? ['lifted_at IS NULL'] : state === 'lifted' ? ['lifted_at IS NOT NULL'] : []),
      ...(dot === undefined ? [] : ['dot_number = @dot']),
    ],
    params: dot === undefined ? {} : { dot },
    key: state === 'lifted' && dot === undefined ? 'lifted_at' : 'blocked_at',
    tie: d.tie,
    direction: 'DESC',
    cursor: 'id = @cursor_id',
  };
}
