import type { Screening } from '../../shared/screening.js';
import type { RecordRepos } from '../store/record.js';

/**
 * Events refer to their screening instead of copying it: the log row of a
 * `screening.completed` is `{"screening_ref":"scr_…"}`, not the whole screening with its
 * score (~2.7 KB), and a review event keeps its own fields with the screening as a reference.
 * Readers get the event whole again (expandEvent), with the screening as it is now. This is
 * most of the bytes a screening wrote to SQLite, and the event log is pruned after 7 days
 * while the screening is kept for years, so a reference never outlives what it names.
 */

const REF = 'screening_ref';
const REVIEW_REF = 'review_ref';

/** An event's data that names a review, read when the event is read (review.updated). */
export function reviewRef(id: string): { review_ref: string } {
  return { [REVIEW_REF]: id } as { review_ref: string };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScreening = (v: unknown): v is Screening => isObj(v) && v.object === 'screening' && typeof v.id === 'string';

/** A review's newest facts (`latest`) name their screening: the score is read back from it. */
const FACTS_SCORE_REF = 'score_ref';

/** What to store for an event's data. */
export function compactEvent(event: string, data: unknown): unknown {
  if (event === 'screening.completed' && isScreening(data)) return { [REF]: data.id };
  if (isObj(data) && isScreening(data.screening)) {
    const { screening, ...rest } = data;
    if (isObj(rest.latest) && 'score' in rest.latest) {
      const { score: _score, ...facts } = rest.latest;
      rest.latest = { ...facts, [FACTS_SCORE_REF]: true };
    }
    return { ...rest, [REF]: screening.id };
  }
  return data;
}

/** The event's data as published, from what was stored. */
export function expandEvent(
  event: string,
  stored: unknown,
  getScreening: (id: string) => Screening | undefined,
  getReview?: (id: string) => unknown,
): unknown {
  if (isObj(stored) && typeof stored[REVIEW_REF] === 'string' && getReview)
    return getReview(stored[REVIEW_REF]) ?? { object: 'review', id: stored[REVIEW_REF], pruned: true };
  if (!isObj(stored) || typeof stored[REF] !== 'string') return stored;
  const { [REF]: id, ...rest } = stored as Obj & { [REF]: string };
  // A screening pruned before its event (retention shorter than the event log's): say so.
  const screening = getScreening(id) ?? { object: 'screening', id, pruned: true };
  if (event === 'screening.completed' && Object.keys(rest).length === 0) return screening;
  if (isObj(rest.latest) && rest.latest[FACTS_SCORE_REF] === true) {
    const { [FACTS_SCORE_REF]: _ref, ...facts } = rest.latest;
    const from = typeof facts.screening_id === 'string' ? getScreening(facts.screening_id) : undefined;
    rest.latest = { ...facts, score: from?.score ?? null };
  }
  return { ...rest, screening };
}

/**
 * expandEvent reading what the event names through the record. At once when it names nothing
 * (most events, delivered as appended: no Promise); else a first pass with no reads collects the
 * ids it asks for, which are read together.
 */
export function expandEventFrom(repos: Pick<RecordRepos, 'screenings' | 'reviews'>, event: string, data: unknown): unknown {
  const screeningIds: string[] = [];
  const reviewIds: string[] = [];
  const unread = expandEvent(
    event,
    data,
    (id) => void screeningIds.push(id),
    (id) => void reviewIds.push(id),
  );
  if (screeningIds.length === 0 && reviewIds.length === 0) return unread;
  return (async () => {
    const [screenings, reviews] = await Promise.all([
      Promise.all(screeningIds.map(async (id) => [id, await repos.screenings.getScreening(id)] as const)),
      Promise.all(reviewIds.map(async (id) => [id, await repos.reviews.getReview(id)] as const)),
    ]);
    const s = new Map<string, Screening | undefined>(screenings);
    const r = new Map<string, unknown>(reviews);
    return expandEvent(
      event,
      data,
      (id) => s.get(id),
      (id) => r.get(id),
    );
  })();
}
