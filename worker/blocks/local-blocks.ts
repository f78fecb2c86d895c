import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { IntakeEvent, LocalBlock, Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { LOCAL_BLOCK_CODE, actionForLocalBlock } from '../../shared/tender-rules.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import { NotFoundError, type Env, type ListPage, type ScreeningResult, type RecordStore, type RecordTx } from '../store/index.js';
import { WatchConflictError } from '../store/store-error.js';
import { blockLockNames } from '../store/block-rows.js';
import type { Reader } from '../store/reader-pool.js';
import type { RecordRepos } from '../store/record.js';
import { canonicalDot, canonicalMc, idsOfQuery, keyOf, resolveIds } from '../watch/carrier-key.js';
import { blocksPage } from './block-reads.js';

/**
 * The local do-not-use list, a screening rule (docs/watchlist.md): a block always wins over the
 * service's answer. The pipeline checks it before any /v1 call (no quota spent) and again when a
 * score arrives (an MC lookup may only then reveal a blocked DOT number); the intake adds, lifts
 * and lists blocks. Lifting is recorded, never deleted. Its SQL: store/local-blocks-repo.ts.
 * A read that may run inside a unit of work takes the repositories to read (`on`): the unit's
 * handle there, the store outside one.
 */

/** What a block's reads need: the blocks, and the score cache that knows a carrier's other number. */
export type BlockReads = Pick<RecordRepos, 'blocks' | 'scores'>;

/** Who puts a carrier on the list: a person's name and the credential used (null: none). */
export interface BlockActor {
  by: string;
  token_id: string | null;
}

export interface LocalBlocksDeps {
  store: Pick<RecordStore, 'blocks' | 'scores' | 'unitOfWork'>;
  env: Env;
  now: () => Date;
  events: Pick<SharedEventFeed, 'announce'>;
  /** Where GET /blocks pages are read and their JSON made (SQLite's reader pool: block-reads.ts). */
  reader: Reader;
  /**
   * A carrier was just put on the do-not-use list, in the block's transaction: what else that
   * ends (its open review, worker/decisions), as events appended there to announce after the commit.
   */
  onBlock: (block: LocalBlock, tx: RecordTx) => Promise<IntakeEvent[]>;
}

export class LocalBlocks {
  constructor(private readonly d: LocalBlocksDeps) {}

  /**
   * The active block for this query (or the score's carrier), if any, as `on` sees it (a unit's
   * handle sees its rows). `anyActive`: `hasActiveBlocks` as the caller read it through `on`.
   */
  async find(on: BlockReads, query: CarrierQuery, score?: SvcScore | null, anyActive?: boolean): Promise<LocalBlock | undefined> {
    if (!(anyActive ?? (await on.blocks.hasActiveBlocks()))) return undefined; // the common case, on every screening
    const byQuery = await on.blocks.activeBlock(await this.#resolve(on, query));
    if (byQuery || !score) return byQuery;
    const c = score.carrier;
    return on.blocks.activeBlock({
      dot_number: typeof c?.dot_number === 'string' ? canonicalDot(c.dot_number) : null,
      mc_number: typeof c?.mc_number === 'string' && c.mc_number !== '' ? canonicalMc(c.mc_number) : null,
    });
  }

  /**
   * The result a blocked carrier ends with: `r` (the service's answer, kept for the record)
   * turned into a block, or a block without a score when nothing was asked. Undefined: not blocked.
   */
  async apply(on: BlockReads, query: CarrierQuery, r?: ScreeningResult, anyActive?: boolean): Promise<ScreeningResult | undefined> {
    const block = await this.find(on, query, r?.score, anyActive);
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

  /** Find, outside a unit of work: committed blocks only. */
  findCommitted(query: CarrierQuery): Promise<LocalBlock | undefined> {
    return this.find(this.d.store, query);
  }

  /** Only the block, in a unit of its own: addBlock also ends what a block ends (the carrier's open review). */
  add(query: CarrierQuery, by: string, reason: string, tokenId: string | null = null): Promise<LocalBlock> {
    return this.d.store.unitOfWork((tx) => this.#add(tx, query, by, reason, tokenId));
  }

  async #add(tx: RecordTx, query: CarrierQuery, by: string, reason: string, tokenId: string | null): Promise<LocalBlock> {
    const ids = await this.#resolve(tx, query);
    return tx.blocks.addBlock({ carrierKey: keyOf(ids), ...ids, reason, by, at: this.d.now().toISOString(), token_id: tokenId });
  }

  /**
   * Put a carrier on the local do-not-use list; in the same unit of work, what that ends (the
   * carrier's open review: its tenders blocked, with their callbacks and events). Given the
   * caller's unit (`within`), a savepoint of it (then the caller announces `appended`).
   */
  addBlock(
    query: CarrierQuery,
    actor: BlockActor,
    reason: string,
    within?: RecordTx,
  ): Promise<{ block: LocalBlock; appended: IntakeEvent[] }> {
    const work = async (tx: RecordTx): Promise<{ block: LocalBlock; appended: IntakeEvent[] }> => {
      const block = await this.#add(tx, query, actor.by, reason, actor.token_id);
      return { block, appended: await this.d.onBlock(block, tx) };
    };
    return within ? within.savepoint(work) : this.d.store.unitOfWork(work);
  }

  /**
   * Reject + block (the review desk): the screening's carrier onto the list, in the caller's
   * unit of work, by the score's DOT number when it has one. Already blocked: nothing to add.
   */
  async addBlockFor(tx: RecordTx, s: Screening, actor: BlockActor, reason: string): Promise<IntakeEvent[]> {
    try {
      return (await this.addBlock(blockQueryOf(s), actor, reason, tx)).appended;
    } catch (e) {
      if (!(e instanceof WatchConflictError)) throw e;
      return [];
    }
  }

  /** The block addBlockFor(tx, s) would add: its names (each a carrier lock on PostgreSQL) and numbers, for the caller's up-front locks. */
  async blockFor(tx: RecordTx, s: Screening): Promise<{ names: string[]; dot_number: string | null; mc_number: string | null }> {
    const ids = await this.#resolve(tx, blockQueryOf(s));
    return { names: blockLockNames({ carrierKey: keyOf(ids), ...ids }), ...ids };
  }

  /** addBlock from the intake: committed, then its events announced. */
  async block(query: CarrierQuery, actor: BlockActor, reason: string): Promise<LocalBlock> {
    const { block, appended } = await this.addBlock(query, actor, reason);
    await this.d.events.announce(appended);
    return block;
  }

  /**
   * Lift the carrier's active block. Lifting a lifted block is a repeated state change:
   * WatchConflictError block_conflict naming it (docs/api.md); NotFoundError when never blocked.
   * `note`: why it was lifted, kept with the lift.
   */
  lift(query: CarrierQuery, by: string, tokenId: string | null = null, note: string | null = null): Promise<LocalBlock> {
    // The read and the lift in one unit: nothing lifts it between them.
    return this.d.store.unitOfWork((tx) => this.#lift(tx, query, by, tokenId, note));
  }

  async #lift(tx: RecordTx, query: CarrierQuery, by: string, tokenId: string | null, note: string | null): Promise<LocalBlock> {
    const ids = await this.#resolve(tx, query);
    const block = await tx.blocks.activeBlock(ids);
    if (!block) {
      const lifted = await tx.blocks.lastLiftedBlock(ids);
      if (lifted)
        throw new WatchConflictError(
          'block_conflict',
          `block ${lifted.id} was already lifted by ${lifted.lifted_by ?? 'someone'} at ${lifted.lifted_at}`,
          lifted.id,
        );
      throw new NotFoundError('the carrier has no active local block');
    }
    return tx.blocks.liftBlock(block.id, by, this.d.now().toISOString(), tokenId, note);
  }

  /** GET /blocks's body: one page by keyset, read and made JSON by the reader (block-reads.ts). */
  pageJson(state: 'active' | 'lifted' | undefined, p: ListPage, dot?: string): Promise<Buffer> {
    return this.d.reader.readJson(blocksPage, { state, page: p, ...(dot === undefined ? {} : { dot }) });
  }

  #resolve(on: Pick<RecordRepos, 'scores'>, query: CarrierQuery): ReturnType<typeof resolveIds> {
    return resolveIds(on.scores, this.d.env, idsOfQuery(query));
  }
}

/** What reject-and-block blocks: the score's DOT number when it has one, else what was asked. */
function blockQueryOf(s: Screening): CarrierQuery {
  const dot = s.score?.carrier.dot_number;
  return dot ? { dot_number: dot } : s.query;
}
