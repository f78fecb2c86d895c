import { listJob } from '../store/list-reads.js';
import type { ListPage } from '../store/types.js';

/**
 * GET /blocks as a reader job: the record's keyset read (either backend; on SQLite in a reader
 * thread, which also makes the page's JSON: store/list-reads.ts).
 */
export const blocksPage = listJob(
  import.meta.url,
  'blocksPage',
  (record, a: { state: 'active' | 'lifted' | undefined; page: ListPage; dot?: string }) => record.blocks.pageBlocks(a.state, a.page, a.dot),
);
