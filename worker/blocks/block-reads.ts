import { listJob } from '../store/list-reads.js';
import { localBlocksOf } from '../store/local-blocks-repo.js';
import type { ListPage } from '../store/types.js';

/**
 * GET /blocks as a reader-pool job: the repository's keyset read on a read-only connection in a
 * reader thread, which also makes the page's JSON (store/list-reads.ts).
 */
export const blocksPage = listJob(
  import.meta.url,
  'blocksPage',
  (store, a: { state: 'active' | 'lifted' | undefined; page: ListPage; dot?: string }) =>
    localBlocksOf(store).pageBlocks(a.state, a.page, a.dot),
);
