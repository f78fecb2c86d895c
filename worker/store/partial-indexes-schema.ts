/**
 * Migration 14: index entries a cache hit wrote that no query reads. Each index a commit
 * touches is a page more written to the WAL (bench/README.md → What limits it now), so an
 * index holds only the rows its readers ask for.
 * - `reviews_by_state`: every reader of reviews by state asks for carriers' own reviews
 *   (`parent_id IS NULL`); a tender waiting on one (every held cache hit) is found by its parent.
 * - `screenings_by_completed` → `screenings_completed_later`: "changed since"
 *   (worker/store/screening-search.ts) reads a screening created since T from the creation
 *   index; only one finished later than it was created can have been finished since T without
 *   having been created since. A screening answered at once (every tendered or blocked cache
 *   hit) is finished when it is created and has no entry.
 */
export const PARTIAL_INDEXES_MIGRATION_SQL = `
  DROP INDEX reviews_by_state;
  CREATE INDEX reviews_by_state ON reviews (state, created_at) WHERE parent_id IS NULL;
  DROP INDEX screenings_by_completed;
  CREATE INDEX screenings_completed_later ON screenings (completed_at) WHERE completed_at <> created_at;
`;
