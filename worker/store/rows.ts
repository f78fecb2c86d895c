import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { LoadDetails, Review, ReviewClosedBy, ReviewState, Screening, ScreeningStatus } from '../../shared/screening.js';
import { basisChanges, basisOf } from '../../shared/basis.js';
import type { ScoreOf } from './score-refs.js';
import type { NewScreening, ScreeningResult } from './types.js';

/** The columns every screening read selects: the screening plus its review, if any (r_*). */
export const SCREENING_COLUMNS = `
  s.id, s.tender_id, s.load, s.status, s.query_kind, s.query_value, s.priority, s.refresh, s.callback_url,
  s.action, s.hold_reason, s.source, s.score, s.score_fetch_id AS score_fid, s.score_fetched_at, s.error, s.created_at, s.completed_at,
  s.settled_by, s.standing_decision, s.version,
  MAX(s.created_at, COALESCE(s.completed_at, ''), COALESCE(r.decided_at, '')) AS updated_at,
  r.id AS r_id, r.state AS r_state, r.hold_reason AS r_hold_reason, r.decided_by AS r_decided_by,
  r.decided_at AS r_decided_at, r.note AS r_note, r.created_at AS r_created_at,
  r.parent_id AS r_parent_id, r.previous_decision AS r_previous_decision`;

export interface ScreeningRow {
  id: string;
  tender_id: string | null;
  /** The load details as sent (JSON), or null. */
  load: string | null;
  status: string;
  query_kind: string;
  query_value: string;
  priority: string;
  refresh: number;
  callback_url: string | null;
  action: string | null;
  hold_reason: string | null;
  source: string | null;
  /** The score's own copy (rows from before scores were stored per fetch). */
  score: string | null;
  /** The fetch the score is (score_fetches.id). */
  score_fid: number | null;
  score_fetched_at: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
  settled_by: string | null;
  standing_decision: string | null;
  /** When it last changed: created, completed, or settled by its review. */
  updated_at: string;
  version: number;
  r_id: string | null;
  r_state: string | null;
  r_hold_reason: string | null;
  r_decided_by: string | null;
  r_decided_at: string | null;
  r_note: string | null;
  r_created_at: string | null;
  r_parent_id: string | null;
  r_previous_decision: string | null;
}

function queryOf(row: Pick<ScreeningRow, 'query_kind' | 'query_value'>): CarrierQuery {
  return row.query_kind === 'mc_number' ? { mc_number: row.query_value } : { dot_number: row.query_value };
}

/** How old the score was when the screening was answered (whole seconds), or null without one. */
export function scoreAgeSeconds(completedAt: string | null, fetchedAt: string | null): number | null {
  if (completedAt === null || fetchedAt === null) return null;
  return Math.max(0, Math.floor((Date.parse(completedAt) - Date.parse(fetchedAt)) / 1000));
}

/** The `load` column (JSON as sent) parsed back; null when none was sent. */
export function loadOf(json: string | null): LoadDetails | null {
  return json === null ? null : (JSON.parse(json) as LoadDetails);
}

/** A row as the Screening of shared/screening.ts; JSON columns parsed back (unknown fields kept). */
export function toScreening(row: ScreeningRow, scoreOf: ScoreOf): Screening {
  return {
    object: 'screening',
    id: row.id,
    tender_id: row.tender_id,
    load: loadOf(row.load),
    status: row.status as ScreeningStatus,
    query: queryOf(row),
    priority: row.priority as Screening['priority'],
    refresh: row.refresh === 1,
    action: row.action as Screening['action'],
    hold_reason: row.hold_reason as Screening['hold_reason'],
    source: row.source as Screening['source'],
    score: scoreOf(row.score_fid, row.score),
    score_fetched_at: row.score_fetched_at,
    score_age_seconds: scoreAgeSeconds(row.completed_at, row.score_fetched_at),
    review:
      row.r_id === null
        ? null
        : {
            id: row.r_id,
            state: row.r_state as ReviewState,
            decided_by: row.r_decided_by,
            decided_at: row.r_decided_at,
            note: row.r_note,
          },
    settled_by: row.settled_by as Screening['settled_by'],
    standing_decision: row.standing_decision === null ? null : (JSON.parse(row.standing_decision) as Screening['standing_decision']),
    error: row.error === null ? null : (JSON.parse(row.error) as Screening['error']),
    callback_url: row.callback_url,
    created_at: row.created_at,
    completed_at: row.completed_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/** A review's own columns a review read adds (migration 16); `version` is its carrier review's. */
export interface ReviewExtraRow {
  version: number;
  facts_screening_id: string | null;
  closed_by: string | null;
  closed_reason: string | null;
  token_id: string | null;
}

/**
 * The review with its version, closing, credential and newest facts: `facts`, the screening
 * whose score is newest (undefined: the review's own screening's).
 */
export function withFacts(
  r: Omit<Review, 'version' | 'latest' | 'closed_by' | 'closed_reason' | 'token_id'>,
  x: ReviewExtraRow,
  facts: Screening | undefined,
): Review {
  const f = facts ?? r.screening;
  const first = r.screening.score;
  const changes =
    f === r.screening
      ? []
      : first && f.score
        ? basisChanges(basisOf(first), basisOf(f.score))
        : f.score
          ? ['a score is now available']
          : [];
  // Newer facts are a change of the review too.
  const shownAt = f === r.screening ? null : (f.completed_at ?? f.created_at);
  return {
    ...r,
    updated_at: shownAt !== null && shownAt > r.updated_at ? shownAt : r.updated_at,
    version: x.version,
    latest: { screening_id: f.id, score: f.score, score_fetched_at: f.score_fetched_at, changes },
    closed_by: x.closed_by as ReviewClosedBy | null,
    closed_reason: x.closed_reason,
    token_id: x.token_id,
  };
}

/** A joined row (review present) as the Review of shared/screening.ts, its screening and its carrier's waiting tenders included. */
export function toReview(
  row: ScreeningRow,
  scoreOf: ScoreOf,
  tenders: Review['tenders'] = [],
): Omit<Review, 'version' | 'latest' | 'closed_by' | 'closed_reason' | 'token_id'> {
  return {
    object: 'review',
    id: row.r_id!,
    screening_id: row.id,
    state: row.r_state as ReviewState,
    hold_reason: row.r_hold_reason as Review['hold_reason'],
    decided_by: row.r_decided_by,
    decided_at: row.r_decided_at,
    note: row.r_note,
    created_at: row.r_created_at!,
    // Changes when a tender joins it and when it is decided.
    updated_at: [row.r_decided_at, row.r_created_at!, ...tenders.map((t) => t.created_at)].reduce<string>(
      (a, b) => (b !== null && b > a ? b : a),
      '',
    ),
    screening: toScreening(row, scoreOf),
    tenders,
    waits_on: row.r_parent_id,
    previous_decision: row.r_previous_decision === null ? null : (JSON.parse(row.r_previous_decision) as Review['previous_decision']),
  };
}

/**
 * A screening just inserted, as a read would give it back (no read on the hot path): the load
 * from the JSON written, parsed (a caller's object is not shared).
 */
export function insertedScreening(
  w: { id: string; query: CarrierQuery; loadJson: string | null; createdAt: string },
  s: NewScreening,
  finished: ScreeningResult | undefined,
): Screening {
  const createdAt = w.createdAt;
  return {
    object: 'screening',
    id: w.id,
    tender_id: s.tender_id ?? null,
    load: w.loadJson === null ? null : (JSON.parse(w.loadJson) as LoadDetails),
    status: finished ? 'done' : 'queued',
    query: w.query,
    priority: s.priority,
    refresh: s.refresh === true,
    action: finished?.action ?? null,
    hold_reason: finished?.hold_reason ?? null,
    source: finished?.source ?? null,
    score: finished?.score ?? null,
    score_fetched_at: finished?.score_fetched_at ?? null,
    score_age_seconds: finished ? scoreAgeSeconds(createdAt, finished.score_fetched_at) : null,
    review: null,
    settled_by: null,
    standing_decision: null,
    error: finished?.error ?? null,
    callback_url: s.callback_url ?? null,
    created_at: createdAt,
    completed_at: finished ? createdAt : null,
    updated_at: createdAt,
    version: 1,
  };
}
