/**
 * Part of migration 30: one carrier's local blocks (active and lifted), newest first, on an index
 * (GET /blocks?dot_number=): the carrier page reads its carrier's blocks, not every block of every
 * carrier filtered in the page (issue 30). Spelt as `pageBlocks` orders them.
 */
export const BLOCK_DOT_INDEX_MIGRATION_SQL = `
  CREATE INDEX local_blocks_by_dot ON local_blocks (dot_number, blocked_at);
`;
