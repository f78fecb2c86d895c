import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { LocalBlock } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { LOCAL_BLOCK_CODE, actionForLocalBlock } from '../../shared/tender-rules.js';
import { NotFoundError, type Env, type ListPage, type ScreeningResult, type Store } from '../store/index.js';
import { WatchConflictError, type WatchStore } from '../store/watch-store.js';
import { canonicalDot, canonicalMc, idsOfQuery, keyOf, type CarrierIds } from './carrier-key.js';

/**
 * The local do-not-use list. A block always wins over the service's answer: it is checked
 * before any /v1 call (no quota spent) and again when a score arrives (an MC lookup may only
 * then reveal a blocked DOT number). Lifting is recorded, never deleted.
 */
export class LocalBlocks {
  constructor(
    private readonly store: Store,
    private readonly watchStore: WatchStore,
    private readonly env: Env,
    private readonly now: () => Date,
  ) {}

  /** Both ids when the score cache knows the other one (MC ↔ DOT). */
  resolve(ids: CarrierIds): CarrierIds {
    if (ids.dot_number && ids.mc_number) return ids;
    const q: CarrierQuery = ids.dot_number ? { dot_number: ids.dot_number } : { mc_number: ids.mc_number! };
    const cached = this.store.getScore(this.env, q)?.score.carrier;
    return {
      dot_number: ids.dot_number ?? (typeof cached?.dot_number === 'string' ? canonicalDot(cached.dot_number) : null),
      mc_number: ids.mc_number ?? (typeof cached?.mc_number === 'string' && cached.mc_number !== '' ? canonicalMc(cached.mc_number) : null),
    };
  }

  /** The active block for this query (or the score's carrier), if any. */
  find(query: CarrierQuery, score?: SvcScore | null): LocalBlock | undefined {
    if (!this.watchStore.hasActiveBlocks()) return undefined; // the common case, on every screening
    const byQuery = this.watchStore.activeBlock(this.resolve(idsOfQuery(query)));
    if (byQuery || !score) return byQuery;
    const c = score.carrier;
    return this.watchStore.activeBlock({
      dot_number: typeof c?.dot_number === 'string' ? canonicalDot(c.dot_number) : null,
      mc_number: typeof c?.mc_number === 'string' && c.mc_number !== '' ? canonicalMc(c.mc_number) : null,
    });
  }

  /**
   * The result a blocked carrier ends with: `r` (the service's answer, kept for the record)
   * turned into a block, or a block without a score when nothing was asked. Undefined: not blocked.
   */
  apply(query: CarrierQuery, r?: ScreeningResult): ScreeningResult | undefined {
    const block = this.find(query, r?.score);
    if (!block) return undefined;
    const v = actionForLocalBlock();
    const error = {
      code: LOCAL_BLOCK_CODE,
      message: `on the local do-not-use list: ${block.reason} (${block.id}, blocked by ${block.blocked_by} at ${block.blocked_at})`,
      request_id: null,
    };
    if (r) return { ...r, action: v.action, hold_reason: v.hold_reason, error };
    return { action: v.action, hold_reason: v.hold_reason, source: 'none', score: null, score_fetched_at: null, error };
  }

  /** Only the block: WatchService.addBlock also ends what a block ends (the carrier's open review). */
  add(query: CarrierQuery, by: string, reason: string, tokenId: string | null = null): LocalBlock {
    const ids = this.resolve(idsOfQuery(query));
    return this.watchStore.addBlock({ carrierKey: keyOf(ids), ...ids, reason, by, at: this.now().toISOString(), token_id: tokenId });
  }

  /**
   * Lift the carrier's active block. Lifting a lifted block is a repeated state change:
   * WatchConflictError block_conflict naming it (docs/api.md); NotFoundError when never blocked.
   * `note`: why it was lifted, kept with the lift.
   */
  lift(query: CarrierQuery, by: string, tokenId: string | null = null, note: string | null = null): LocalBlock {
    const ids = this.resolve(idsOfQuery(query));
    const block = this.watchStore.activeBlock(ids);
    if (!block) {
      const lifted = this.watchStore.lastLiftedBlock(ids);
      if (lifted)
        throw new WatchConflictError(
          'block_conflict',
          `block ${lifted.id} was already lifted by ${lifted.lifted_by ?? 'someone'} at ${lifted.lifted_at}`,
          lifted.id,
        );
      throw new NotFoundError('the carrier has no active local block');
    }
    return this.watchStore.liftBlock(block.id, by, this.now().toISOString(), tokenId, note);
  }

  list(state?: 'active' | 'lifted', limit?: number): LocalBlock[] {
    return this.watchStore.listBlocks(state, limit);
  }

  /** One page of GET /blocks, read by keyset. */
  page(state: 'active' | 'lifted' | undefined, p: ListPage, dot?: string): { data: LocalBlock[]; has_more: boolean } {
    return this.watchStore.pageBlocks(state, p, dot);
  }
}
