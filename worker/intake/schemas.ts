import { Type } from 'typebox';
import { PRIORITIES, SCREENING_STATUSES } from '../../shared/screening.js';
import { Enum } from './components.js';
import { PageQueryFields } from './paging.js';

/**
 * TypeBox schemas of the intake API (DESIGN.md, "Intake API"). Request schemas validate;
 * response schemas document only (the serializer is plain JSON.stringify so unknown /v1
 * fields in `score` are never dropped). Each property's `description` is also the hint in
 * the 400 message that names it.
 */

export const SCREENING_ID = '^scr_[a-z2-7]{26}$';
export const REVIEW_ID = '^rev_[a-z2-7]{26}$';

/** The longest text a load field takes (origin, destination, equipment, customer_ref). */
export const LOAD_TEXT_MAX = 200;
const loadText = (what: string) =>
  Type.Optional(Type.String({ maxLength: LOAD_TEXT_MAX, description: `a string of at most ${LOAD_TEXT_MAX} characters: ${what}` }));

/** The load a tender is for (DESIGN.md "Intake API"): each field optional, stored and returned as sent. */
export const LoadBody = Type.Object(
  {
    pickup_at: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 64,
        description: 'an ISO 8601 date-time with its offset, e.g. "2026-11-28T08:00:00-06:00"',
      }),
    ),
    origin: loadText('where the load is picked up'),
    destination: loadText('where it is delivered'),
    equipment: loadText('the equipment it needs, e.g. "53 ft dry van"'),
    customer_ref: loadText("the customer's reference"),
  },
  { additionalProperties: false },
);

/** A carrier in a body (POST /screenings, /watchlist, /blocks): DOT digits, or an MC number. */
export const DotNumber = Type.Union([Type.String({ pattern: '^\\s*\\d{1,8}\\s*$' }), Type.Integer({ minimum: 0, maximum: 99_999_999 })], {
  description: 'a string of 1 to 8 digits (a JSON integer is accepted too)',
});
export const McNumber = Type.String({
  maxLength: 32,
  description: 'an MC docket number: "MC" followed by 1 to 8 digits (mc123, MC-123, MC 123 are accepted)',
});

export const ScreeningBody = Type.Object(
  {
    dot_number: Type.Optional(DotNumber),
    mc_number: Type.Optional(McNumber),
    tender_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 128 }), Type.Null()], {
        description: 'a string of 1 to 128 characters (or null)',
      }),
    ),
    callback_url: Type.Optional(
      Type.Union([Type.String({ minLength: 8, maxLength: 2048 }), Type.Null()], { description: 'an absolute http or https URL' }),
    ),
    priority: Type.Optional(Enum(PRIORITIES, { description: '"tender" (default) or "background"' })),
    refresh: Type.Optional(Type.Boolean({ description: 'true or false: true skips the cache and asks /v1 now (spends quota)' })),
    load: Type.Optional(
      Type.Union([LoadBody, Type.Null()], {
        description:
          'an object (or null) with any of pickup_at, origin, destination, equipment, customer_ref: the load this tender is for, shown on the desk',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of dot_number or mc_number.' },
);

export const ScreeningCreateQuery = Type.Object(
  {
    wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, description: 'a whole number of seconds from 0 to 30' })),
  },
  { additionalProperties: false },
);

export const ScreeningListQuery = Type.Object(
  {
    ...PageQueryFields,
    status: Type.Optional(Enum([...SCREENING_STATUSES, 'all'], { description: 'queued, active, done or all (default all)' })),
    tender_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the TMS load id sent with the screening' })),
    dot_number: Type.Optional(
      Type.String({ pattern: '^\\s*\\d{1,8}\\s*$', description: 'screenings asked by this DOT number or whose score names it' }),
    ),
    mc_number: Type.Optional(Type.String({ maxLength: 32, description: 'screenings asked by this MC number or whose score names it' })),
    action: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'tender, hold or block (an open set: new actions may appear)' }),
    ),
    updated_since: Type.Optional(Type.String({ description: 'ISO 8601: screenings created, completed or settled at or after it' })),
  },
  { additionalProperties: false },
);

export const ScreeningParams = Type.Object({
  id: Type.String({ pattern: SCREENING_ID, description: 'a screening id: "scr_" and 26 characters a–z, 2–7' }),
});

export const ReviewParams = Type.Object({
  id: Type.String({ pattern: REVIEW_ID, description: 'a review id: "rev_" and 26 characters a–z, 2–7' }),
});

export const ReviewListQuery = Type.Object(
  {
    state: Type.Optional(
      Enum(
        // Every review state (shared/screening.ts; the drift test checks), plus decided and all.
        ['pending', 'approved', 'rejected', 'decided', 'closed', 'superseded', 'all'],
        {
          description:
            'pending (oldest first), approved, rejected, decided (approved or rejected: the latest decisions first), closed (by a blocking score or a local block), superseded (by a re-screen after an outage) or all (default all, newest first)',
        },
      ),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

export const ResolveBody = Type.Object(
  {
    by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '\\S',
        description:
          'who decided, 1 to 100 characters: taken only from an admin token (acting for that person); a desk token decides as its own name',
      }),
    ),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], { description: 'a note of at most 2000 characters' })),
  },
  { additionalProperties: false },
);

/** An approve or reject names the review version its maker saw (docs/decisions.md "Approve what you saw"). */
export const ReviewDecisionBody = Type.Object(
  {
    ...ResolveBody.properties,
    review_version: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "the review's `version` as you saw it (default 1: the facts it was opened with); 409 review_stale when the carrier's facts changed since",
      }),
    ),
  },
  { additionalProperties: false },
);

/** A rejection may also put the carrier on the local do-not-use list in the same step. */
export const RejectBody = Type.Object(
  {
    ...ReviewDecisionBody.properties,
    block: Type.Optional(
      Type.Boolean({ description: 'also put the carrier on the local do-not-use list (/blocks), with the note as its reason' }),
    ),
  },
  { additionalProperties: false },
);

export const EventsQuery = Type.Object(
  {
    last_event_id: Type.Optional(
      Type.Integer({ minimum: 0, description: 'the id of the last event received (like the Last-Event-ID header)' }),
    ),
  },
  { additionalProperties: false },
);

export const NoQuery = Type.Object({}, { additionalProperties: false });

// ---- response shapes: named components (components.ts), referenced by $ref ----

export const ErrorBody = Type.Ref('ErrorEnvelope');
export const ScreeningSchema = Type.Ref('Screening');
export const ReviewSchema = Type.Ref('Review');
export const DecisionSchema = Type.Ref('Decision');
export const StatusSchema = Type.Ref('Status');
export const CallerSchema = Type.Ref('Caller');
export const DailyUsageSchema = Type.Ref('DailyUsage');
export const WatchEntrySchema = Type.Ref('WatchEntry');
export const CarrierChangeSchema = Type.Ref('CarrierChange');
export const LocalBlockSchema = Type.Ref('LocalBlock');
export const CallbackSchema = Type.Ref('Callback');

/** What most operations may answer besides their own (each route adds its 409, 413 …). */
export const ERRORS = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };
/** …and an operation that takes a body. */
export const BODY_ERRORS = { 413: ErrorBody, 415: ErrorBody, ...ERRORS };

export const DecisionParams = Type.Object({
  id: Type.String({ pattern: '^dec_[a-z2-7]{26}$', description: 'a decision id: "dec_" and 26 characters a–z, 2–7' }),
});

/** A cursor list of a component: `{ object: "list", data, has_more }`. */
export const ListOf = (item: { $ref: string }) =>
  Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref(item.$ref)),
    has_more: Type.Boolean({ description: 'More objects beyond this page in the direction asked.' }),
  });

export const HealthSchema = Type.Object({
  status: Type.String({
    description:
      'ok; degraded (/v1 unreachable, refusing the API key or holding off after a long Retry-After, cache still served: 200; or the record refusing writes, e.g. a full disk: 503, reads still served); or down (Redis or the record down: 503)',
  }),
  redis: Type.Boolean(),
  record: Type.Boolean({ description: 'The record (SQLite or PostgreSQL) answers reads.' }),
  record_writable: Type.Boolean({
    description:
      'false when a write probe failed, or a write was refused and none has succeeded since (at most a minute): a full disk, a read-only standby',
  }),
  record_backend: Type.Union([Type.Literal('sqlite'), Type.Literal('postgresql')], {
    description: 'Which engine holds the record (SCREEN_DB).',
  }),
  sqlite: Type.Optional(
    Type.Boolean({ deprecated: true, description: 'On SQLite only: the same as `record`, for probes written before PostgreSQL.' }),
  ),
  sqlite_writable: Type.Optional(
    Type.Boolean({ deprecated: true, description: 'On SQLite only: the same as `record_writable`, for probes written before PostgreSQL.' }),
  ),
  svc: Type.Boolean(),
  svc_key_rejected: Type.Optional(Type.Boolean({ description: 'true when /v1 refused the API key at the last call (svc is false then)' })),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});
