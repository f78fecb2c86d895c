import type { CarrierQuery } from '../../../shared/carrier-id.js';
import type { BatchedStep } from '../batched-step.js';
import { dotOf, mcOf } from '../carrier-columns.js';
import { reviewCarrierKey } from '../review-carrier-key.js';

/**
 * Migration 25 (issue 28): reviews written before carrier reviews (migration 5) name no carrier
 * (`reviews.carrier_key` null), so a carried-over pending review was never found as its
 * carrier's open review: the next hold opened a second one, and a local block or a blocking
 * score left it open. Those releases also opened a review per held screening, so one carrier
 * may carry several.
 * - FILL_REVIEW_CARRIERS walks the reviews by rowid, a batch per transaction, and gives each
 *   without a carrier the key the running code would (review-carrier-key.ts): the DOT number
 *   of its screening's score (or, for an MC number without one, the DOT the cache links it
 *   to), else the number it was asked by, canonical as carrier-columns.ts writes them.
 * - JOIN_OPEN_REVIEWS then leaves one open review per carrier, as a tender joins an open
 *   review: every other open review of the carrier, and what waits on it, waits on the newest
 *   (the one the running code opened after the upgrade, when there is one: the version and
 *   facts a desk may have seen stay the carrier's). Nothing is deleted: each item keeps its
 *   row, its screening and its hold reason; deciding the carrier's review decides them all.
 */

type Db = Parameters<BatchedStep['run']>[0];

/**
 * The environment of a review whose score does not say (held without one): the one the file
 * was last used with (its newest usage figures or cached score); sandbox when nothing says.
 */
function fileEnv(db: Db): string {
  const row = db
    .prepare<[], { env: string }>(
      `SELECT env FROM (SELECT env, at FROM usage_snapshots UNION ALL SELECT env, fetched_at AS at FROM score_cache)
       WHERE env IN ('sandbox', 'live') ORDER BY at DESC LIMIT 1`,
    )
    .get();
  return row?.env ?? 'sandbox';
}

interface CarriedRow {
  rid: number;
  kind: 'dot_number' | 'mc_number';
  value: string;
  dot: unknown;
  livemode: unknown;
  fetch_env: string | null;
}

export const FILL_REVIEW_CARRIERS: BatchedStep = {
  what: 'reviews',
  total: (db) => (db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM reviews').get() as { n: number }).n,
  run(db, after, size) {
    const window = db
      .prepare<[number, number], { last: number | null; n: number }>(
        'SELECT MAX(rid) AS last, COUNT(*) AS n FROM (SELECT rowid AS rid FROM reviews WHERE rowid > ? ORDER BY rowid LIMIT ?)',
      )
      .get(after, size)!;
    if (window.n === 0 || window.last === null) return { last: null, rows: 0 };
    // Only the rows without a carrier are read whole (a score is parsed once, this once).
    const rows = db
      .prepare<[number, number], CarriedRow>(
        `SELECT r.rowid AS rid, s.query_kind AS kind, s.query_value AS value,
           json_extract(COALESCE(s.score, f.body), '$.carrier.dot_number') AS dot,
           json_extract(COALESCE(s.score, f.body), '$.livemode') AS livemode, f.env AS fetch_env
         FROM reviews r JOIN screenings s ON s.id = r.screening_id LEFT JOIN score_fetches f ON f.id = s.score_fetch_id
         WHERE r.rowid > ? AND r.rowid <= ? AND r.carrier_key IS NULL`,
      )
      .all(after, window.last);
    if (rows.length > 0) {
      const aliased = db.prepare<[string, string], { dot_number: string }>(
        `SELECT a.dot_number FROM mc_alias a JOIN score_cache c ON c.env = a.env AND c.dot_number = a.dot_number WHERE a.env = ? AND a.mc_number = ?`,
      );
      const set = db.prepare<[string, number]>('UPDATE reviews SET carrier_key = ? WHERE rowid = ? AND carrier_key IS NULL');
      let file: string | undefined;
      for (const r of rows) {
        // A score says its environment (livemode; a stored fetch its env); a hold without one, the file's.
        const env = r.fetch_env ?? (r.livemode === 1 ? 'live' : r.livemode === 0 ? 'sandbox' : (file ??= fileEnv(db)));
        const query: CarrierQuery = r.kind === 'mc_number' ? { mc_number: r.value } : { dot_number: r.value };
        let dot = dotOf(r.dot);
        if (dot === null && r.kind === 'mc_number') {
          const mc = mcOf(r.value);
          dot = mc === null ? null : dotOf(aliased.get(env, mc)?.dot_number);
        }
        set.run(reviewCarrierKey(env, query, dot), r.rid);
      }
    }
    return { last: window.last, rows: window.n };
  },
};

/** After the fill, in the step's last transaction: one open review per carrier (see above). */
export function joinOpenReviews(db: Db): void {
  // On the index of open carrier reviews: as many rows as reviews wait for a person.
  const keys = db
    .prepare<[], { carrier_key: string }>(
      `SELECT carrier_key FROM reviews INDEXED BY reviews_open_by_carrier
       WHERE carrier_key IS NOT NULL AND state = 'pending' AND parent_id IS NULL GROUP BY carrier_key HAVING COUNT(*) > 1`,
    )
    .all();
  if (keys.length === 0) return;
  const open = db.prepare<[string], { id: string }>(
    "SELECT id FROM reviews WHERE carrier_key = ? AND state = 'pending' AND parent_id IS NULL ORDER BY created_at DESC, rowid DESC",
  );
  const join = db.prepare<[string, string]>("UPDATE reviews SET parent_id = ? WHERE id = ? AND state = 'pending' AND parent_id IS NULL");
  // As supersede() does: what waited on a review now waits on the carrier's.
  const reparent = db.prepare<[string, string]>("UPDATE reviews SET parent_id = ? WHERE parent_id = ? AND state = 'pending'");
  for (const { carrier_key } of keys) {
    const [head, ...others] = open.all(carrier_key).map((r) => r.id);
    for (const id of others) {
      join.run(head!, id);
      reparent.run(head!, id);
    }
  }
}
