import { Type, type TLiteral, type TSchema, type TSchemaOptions, type TUnion } from 'typebox';
import {
  CALLER_ROLES,
  CHANGE_REASONS,
  CHANGE_STATES,
  DECISION_STATES,
  DISPATCHER_DECISIONS,
  ENDED_DECISION_STATES,
  ENVIRONMENTS,
  FINDING_KINDS,
  INTAKE_EVENT_NAMES,
  LOCAL_BLOCK_STATES,
  PRIORITIES,
  QUOTA_GATES,
  REVIEW_CLOSED_BY,
  REVIEW_STATES,
  SCREENING_SOURCES,
  SETTLED_BY,
  type ScreeningStatus,
} from '../../shared/screening.js';
import { KNOWN_DECISIONS, KNOWN_GRADES, KNOWN_SEVERITIES } from '../../shared/svc-contract.js';
import { HOLD_REASONS, TENDER_ACTIONS } from '../../shared/tender-rules.js';
import { CALLBACK_STATES, DELIVERY_FAILURES } from '../callbacks/index.js';

/**
 * The objects the intake answers with, as named OpenAPI components (`#/components/schemas/…`,
 * registered with `app.addSchema`), mirroring shared/screening.ts field for field. Every set of
 * values is built from its one list (shared/screening.ts, shared/tender-rules.ts,
 * shared/svc-contract.ts, worker/callbacks/, ERROR_CODES below), never written out here;
 * test/unit/vocabulary-drift.test.ts fails on one that is. Closed sets are enums; open sets
 * (values may be added within a version, docs/api.md) are strings with their known values in
 * `x-extensible-enum`. Every object also allows fields not listed here:
 * additive changes within a version. These shapes document; answers are serialised as they are.
 */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A closed set: `anyOf` of its `const`s, typed as the list's own values (Static<> of a component
 * is the list's union, which the drift test compares with shared/screening.ts's types).
 */
export const Enum = <const V extends readonly string[]>(
  values: V,
  description?: string | TSchemaOptions,
): TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    typeof description === 'string' ? { description } : (description ?? {}),
  ) as never;
const Open = (values: readonly string[], description: string) =>
  Type.String({ description: `${description} Known values: ${values.join(', ')}; others may appear.`, 'x-extensible-enum': values });
const Time = (description = 'ISO 8601, UTC') => Type.String({ format: 'date-time', description });
const Obj = <P extends Record<string, TSchema>>($id: string, description: string, props: P) =>
  Type.Object(props, { $id, title: $id, description, additionalProperties: true });

/** Every error code the intake answers with (docs/api.md "Errors"). */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'sandbox_only',
  'resource_missing',
  'route_not_found',
  'method_not_allowed',
  'review_conflict',
  'review_stale',
  'block_conflict',
  'change_conflict',
  'decision_conflict',
  'callback_delivered',
  'callback_superseded',
  'idempotency_conflict',
  'idempotency_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'headers_too_large',
  'request_timeout',
  'rate_limited',
  'too_many_streams',
  'unavailable',
  'storage_unavailable',
  'sandbox_control_unavailable',
  'internal_error',
] as const;
export type IntakeErrorCode = (typeof ERROR_CODES)[number];

/** Named ErrorEnvelope, not Error: a generated client must not shadow the built-in Error. */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: Open(ERROR_CODES, 'What went wrong, for programs (the catalogue is in docs/api.md).'),
        message: Type.String({ description: 'What went wrong, for people.' }),
        param: Type.Optional(Type.String({ description: 'The parameter, field or header at fault.' })),
        resource_id: Type.Optional(Type.String({ description: 'On a 409 *_conflict: the object already in the state asked for.' })),
        review: Type.Optional(
          Type.Ref('Review', {
            description: "On a 409 review_stale: the review as it is now, with the carrier's newest facts and version.",
          }),
        ),
      },
      { additionalProperties: true },
    ),
  },
  { $id: 'ErrorEnvelope', title: 'ErrorEnvelope', description: 'Every 4xx and 5xx answer.', additionalProperties: false },
);

export const Score = Obj(
  'Score',
  'The /v1 score object exactly as the scoring service sent it (unknown fields kept; svc-v1-interface.md).',
  {
    object: Type.String(),
    livemode: Type.Boolean(),
    carrier: Type.Object(
      {
        dot_number: Type.String(),
        mc_number: Nullable(Type.String()),
        legal_name: Nullable(Type.String()),
        dba_name: Nullable(Type.String()),
      },
      { additionalProperties: true },
    ),
    score: Type.Number(),
    grade: Open(KNOWN_GRADES, 'Letter grade.'),
    decision: Open(KNOWN_DECISIONS, "The service's decision."),
    verdict: Nullable(Type.String()),
    needs_manual_review: Type.Boolean(),
    knockout: Type.Object(
      {
        triggered: Type.Boolean(),
        reasons: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true })),
      },
      { additionalProperties: true },
    ),
    reasons: Type.Array(
      Type.Object(
        {
          // Display fields: /v1 promises strings, and a drifting one is kept as sent (shared/svc-contract.ts).
          check: Type.Optional(Type.String({ description: 'Name of the check.' })),
          area: Type.Optional(Type.String({ description: 'One of seven areas, e.g. "Safety & Roadside".' })),
          severity: Type.Optional(Open(KNOWN_SEVERITIES, 'How serious.')),
          detail: Type.Optional(Type.String({ description: 'What was found, one sentence.' })),
          facts: Type.Array(
            Type.Object(
              {
                label: Type.Optional(Type.String()),
                value: Type.Optional(
                  Type.Union([Type.String(), Type.Number()], { description: 'Display value: text (a number when /v1 drifts).' }),
                ),
              },
              { additionalProperties: true },
            ),
            { description: 'Figures behind the finding.' },
          ),
        },
        { additionalProperties: true, description: 'A check that found a problem (svc-v1-interface.md), as /v1 sent it.' },
      ),
      { description: 'Every check that found a problem, most serious first.' },
    ),
    checks: Type.Optional(Type.Object({}, { additionalProperties: true })),
    flags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'As sent: null is kept (a display field).' })),
    data_confidence: Nullable(Type.Number()),
    model_version: Type.String(),
    calculated_at: Type.String(),
  },
);

export const StandingDecisionRef = Obj('StandingDecisionRef', 'A standing carrier decision as it was when it settled a screening.', {
  id: Type.String(),
  review_id: Type.String(),
  decision: Enum(DISPATCHER_DECISIONS),
  decided_by: Type.String(),
  token_id: Type.Optional(Nullable(Type.String({ description: 'The credential that decided: an intake token id, or "intake_token".' }))),
  decided_at: Time(),
  expires_at: Time(),
  model_version: Nullable(Type.String()),
});

export const Load = Obj(
  'Load',
  'The load a tender is for, exactly as POST /screenings sent it (each field optional); the desk shows it, it never changes the action.',
  {
    pickup_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the load is picked up: ISO 8601 with its offset, as sent.' }),
    ),
    origin: Type.Optional(Type.String({ description: 'Where the load is picked up.' })),
    destination: Type.Optional(Type.String({ description: 'Where it is delivered.' })),
    equipment: Type.Optional(Type.String({ description: 'The equipment it needs, e.g. "53 ft dry van".' })),
    customer_ref: Type.Optional(Type.String({ description: "The customer's reference." })),
  },
);

const screeningFields = {
  object: Type.Literal('screening'),
  id: Type.String({ description: '"scr_" and 26 characters a–z, 2–7' }),
  tender_id: Nullable(Type.String()),
  load: Nullable(Type.Ref('Load', { description: 'The load details sent with the request, as sent; null when none were.' })),
  query: Type.Object(
    { dot_number: Type.Optional(Type.String()), mc_number: Type.Optional(Type.String()) },
    { description: 'What was asked, normalised: exactly one of the two.' },
  ),
  priority: Enum(PRIORITIES),
  refresh: Type.Boolean({ description: 'The request skipped the cache (a re-check).' }),
  action: Nullable(Enum(TENDER_ACTIONS, 'What to do now; null until done.')),
  hold_reason: Nullable(Open(HOLD_REASONS, 'Why it was held; kept after it is settled.')),
  source: Nullable(
    Open(
      SCREENING_SOURCES,
      'Where the answer came from: service (/v1 now, a score or carrier_not_found), cache, stale_cache (an outage), none (no answer: a local block, or /v1 failed).',
    ),
  ),
  score: Nullable(Type.Ref('Score')),
  score_fetched_at: Nullable(Time('When the score was fetched from /v1 (its age when served from cache).')),
  score_age_seconds: Nullable(
    Type.Integer({
      minimum: 0,
      description:
        'How old the score was when the screening was answered (completed_at − score_fetched_at), in seconds; null without a score. With source "stale_cache": the age of the score an outage left us with (at most SCREEN_STALE_IF_ERROR).',
    }),
  ),
  review: Nullable(
    Type.Object({
      id: Type.String(),
      state: Enum(REVIEW_STATES),
      decided_by: Nullable(Type.String()),
      decided_at: Nullable(Time()),
      note: Nullable(Type.String()),
    }),
  ),
  settled_by: Nullable(
    Open(SETTLED_BY, 'What settled a held screening: its review, a standing decision, or a re-screen after an outage (docs/decisions.md).'),
  ),
  standing_decision: Nullable(Type.Ref('StandingDecisionRef')),
  error: Nullable(
    Type.Object(
      {
        code: Type.String({
          description:
            "/v1's own code (carrier_not_found …), or ours: service_unreachable, deadline_exceeded, invalid_response, key_rejected, local_block … Never a raw network code.",
        }),
        message: Type.String(),
        request_id: Nullable(Type.String({ description: "/v1's request id, when it answered." })),
      },
      {
        description:
          'What stood in the way of a fresh score, or the local block: news about the carrier or /v1, not a failure of this request (the screening itself is a 200). Null when nothing did.',
      },
    ),
  ),
  callback_url: Nullable(Type.String()),
  created_at: Time(),
  completed_at: Nullable(Time()),
  updated_at: Time('When it last changed: created, completed or settled by its review.'),
  version: Type.Integer({
    minimum: 1,
    description:
      'Grows with every change of this screening; apply a callback or a read only when its version is newer than the one you hold (docs/callbacks.md).',
  }),
};

/**
 * A screening is one of three shapes, told apart by `status` (a discriminated union, so a
 * generated client narrows: after `status === 'done'`, `action` and `completed_at` are set).
 */
const screeningOf = <S extends ScreeningStatus, N extends Record<string, TSchema>>(status: S, description: string, narrowed: N) =>
  Obj(`Screening${status[0]!.toUpperCase()}${status.slice(1)}`, description, {
    ...screeningFields,
    status: Type.Literal(status),
    ...narrowed,
  } as Omit<typeof screeningFields, keyof N> & { status: TLiteral<S> } & N);
// Not `type: null` alone: openapi-fetch's Readable<> drops a property whose type is only null.
const NOT_YET = { action: Nullable(Enum(TENDER_ACTIONS, 'Null: not done yet.')), completed_at: Nullable(Time('Null: not done yet.')) };
export const ScreeningQueued = screeningOf(
  'queued',
  'A screening waiting for its /v1 lookup: look again after Retry-After, or take the callback.',
  NOT_YET,
);
export const ScreeningActive = screeningOf('active', 'A screening whose /v1 lookup is under way.', NOT_YET);
export const ScreeningDone = screeningOf('done', 'A finished screening: its action is what to do with the tender now.', {
  action: Enum(TENDER_ACTIONS, 'What to do now (a held one may later be settled by its review).'),
  completed_at: Time('When it was done.'),
});
const SCREENING_VARIANTS = {
  queued: 'ScreeningQueued',
  active: 'ScreeningActive',
  done: 'ScreeningDone',
} as const satisfies Record<ScreeningStatus, string>;
export const Screening = Type.Unsafe<unknown>({
  $id: 'Screening',
  title: 'Screening',
  description: 'One screening of one carrier for one tender, by status (docs/decisions.md for settled_by).',
  oneOf: Object.values(SCREENING_VARIANTS).map((id) => Type.Ref(id)),
  discriminator: {
    propertyName: 'status',
    mapping: Object.fromEntries(Object.entries(SCREENING_VARIANTS).map(([k, id]) => [k, `#/components/schemas/${id}`])),
  },
});

const PreviousDecision = Type.Object(
  {
    ...StandingDecisionRef.properties,
    state: Type.Optional(Enum(ENDED_DECISION_STATES)),
    ended_at: Type.Optional(Nullable(Time())),
    ended_by: Type.Optional(Nullable(Type.String())),
    note: Type.Optional(Nullable(Type.String({ description: "A revoke's note." }))),
    changes: Type.Array(Type.String(), { description: 'What changed in the basis (a lapse), e.g. "grade D → C".' }),
  },
  { additionalProperties: true },
);

export const Review = Obj('Review', 'A carrier held for a person: one open review per carrier, every waiting tender on it.', {
  object: Type.Literal('review'),
  id: Type.String({ description: '"rev_" and 26 characters a–z, 2–7' }),
  screening_id: Type.String(),
  state: Enum(
    REVIEW_STATES,
    'closed: ended without a person by a blocking score or a local block (closed_by); its tenders are blocked. superseded: closed by a re-screen after an outage that gave tender or block (no person decided).',
  ),
  version: Type.Integer({
    minimum: 1,
    description:
      'The version of the facts it shows: 1 when opened, +1 whenever they change (a newer score, closed). Send it as review_version with approve/reject.',
  }),
  latest: Type.Object(
    {
      screening_id: Type.String({ description: "The screening the newest score came with (the review's own until a newer one)." }),
      score: Nullable(Type.Ref('Score')),
      score_fetched_at: Nullable(Time()),
      changes: Type.Array(Type.String(), { description: 'What differs from the score the review was opened on, e.g. "grade D → F".' }),
    },
    { additionalProperties: true, description: 'The newest facts about the carrier.' },
  ),
  closed_by: Nullable(Enum(REVIEW_CLOSED_BY, 'What closed it (state closed).')),
  closed_reason: Nullable(Type.String({ description: 'What closed it, in words: the knockout codes, or the block and its reason.' })),
  token_id: Nullable(Type.String({ description: 'The credential that decided: an intake token id, or "intake_token" (INTAKE_TOKEN).' })),
  hold_reason: Open(HOLD_REASONS, 'Why the carrier was held.'),
  decided_by: Nullable(Type.String()),
  decided_at: Nullable(Time()),
  note: Nullable(Type.String()),
  created_at: Time(),
  updated_at: Time('When it last changed: opened, a tender joined it, newer facts shown, decided or closed.'),
  screening: Type.Ref('Screening'),
  tenders: Type.Array(
    Type.Object({
      screening_id: Type.String(),
      tender_id: Nullable(Type.String()),
      load: Nullable(
        Type.Ref('Load', { description: "The tender's load details as sent (pickup, lane, equipment); null when none were." }),
      ),
      action: Nullable(Enum(TENDER_ACTIONS)),
      created_at: Time(),
    }),
    { description: 'Every held tender of the carrier on this review, oldest first.' },
  ),
  waits_on: Nullable(Type.String({ description: "A tender's own item: the carrier's open review it waits on." })),
  previous_decision: Nullable(PreviousDecision),
});

export const Decision = Obj('Decision', "A dispatcher's decision about a carrier, standing for later screenings while the basis holds.", {
  object: Type.Literal('decision'),
  id: Type.String({ description: '"dec_" and 26 characters a–z, 2–7' }),
  review_id: Type.String(),
  dot_number: Nullable(Type.String()),
  mc_number: Nullable(Type.String()),
  legal_name: Nullable(Type.String({ description: "The carrier's name as the decided score gave it (legal, else DBA)." })),
  decision: Enum(DISPATCHER_DECISIONS),
  state: Enum(DECISION_STATES),
  basis: Type.Object(
    {
      decision: Type.String(),
      grade: Type.String(),
      needs_manual_review: Type.Boolean(),
      knockout_codes: Type.Array(Type.String()),
      reason_checks: Type.Array(Type.String()),
    },
    { additionalProperties: true, description: 'What the decision rests on.' },
  ),
  model_version: Nullable(Type.String()),
  decided_by: Type.String(),
  token_id: Nullable(
    Type.String({
      description: 'The credential that decided: an intake token id, or "intake_token" (null before token ids were recorded).',
    }),
  ),
  decided_at: Time(),
  expires_at: Time(),
  ended_at: Nullable(Time()),
  ended_by: Nullable(Type.String()),
  ended_token_id: Nullable(Type.String({ description: 'The credential that revoked it; null for a lapse.' })),
  end_reason: Nullable(Type.String({ description: "Why it ended: what changed, the TTL, or a revoke's note." })),
  updated_at: Time(),
});

const CarrierSnapshot = Type.Object(
  {
    action: Enum(TENDER_ACTIONS),
    hold_reason: Nullable(Open(HOLD_REASONS, 'Why it would be held.')),
    decision: Type.String(),
    score: Nullable(Type.Number()),
    grade: Nullable(Type.String()),
    knockout_codes: Type.Array(Type.String()),
    model_version: Type.String(),
    screening_id: Type.String(),
    fetched_at: Time(),
  },
  { additionalProperties: true },
);

export const WatchEntry = Obj('WatchEntry', 'A watched carrier, re-screened daily (docs/watchlist.md).', {
  object: Type.Literal('watch_entry'),
  dot_number: Nullable(Type.String()),
  mc_number: Nullable(Type.String()),
  note: Nullable(Type.String()),
  manual: Type.Boolean({ description: 'Added by POST /watchlist: watched until removed.' }),
  added_at: Time(),
  last_tender_at: Nullable(
    Time(
      'Its latest tender screening since it was added (ISO 8601, UTC), cache hits included; null for an entry added by hand and not tendered since.',
    ),
  ),
  watch_until: Nullable(Time('last_tender_at + SCREEN_WATCH_DAYS: watched until then (an entry added by hand stays until removed).')),
  last_checked_at: Nullable(
    Time('When a score fetched from /v1 was last recorded for it (ISO 8601, UTC); a cache hit of that score is not a new check.'),
  ),
  next_check_at: Time(),
  last: Nullable(CarrierSnapshot),
  updated_at: Time(),
});

const ChangeFinding = Type.Object(
  {
    kind: Enum(FINDING_KINDS, 'A check that found something (a score reason) or a knockout.'),
    code: Type.String({ description: "Its identity: the reason's check, or the knockout's code." }),
    severity: Open(KNOWN_SEVERITIES, "The reason's severity; critical for a knockout."),
    area: Nullable(Type.String({ description: "The reason's area; null for a knockout." })),
    detail: Type.String({ description: 'The words the score gave it.' }),
  },
  { description: 'One finding of a score.' },
);

export const CarrierChange = Obj('CarrierChange', 'A watched carrier that screens differently now.', {
  object: Type.Literal('carrier_change'),
  id: Type.String({ description: '"chg_" and 26 characters a–z, 2–7' }),
  dot_number: Nullable(Type.String()),
  mc_number: Nullable(Type.String()),
  legal_name: Nullable(Type.String()),
  reasons: Type.Array(Open(CHANGE_REASONS, 'Why it counts as a change.')),
  before: CarrierSnapshot,
  after: CarrierSnapshot,
  screening_id: Type.String(),
  tenders: Type.Array(
    Type.Object({
      tender_id: Type.String(),
      screening_id: Type.String(),
      screened_at: Time(),
      action: Type.Optional(
        Nullable(
          Enum(
            TENDER_ACTIONS,
            'What the tender got when the change was found: tender (went out), hold (waits for a dispatcher) or block; null when not answered yet. Absent on a change found before actions were recorded.',
          ),
        ),
      ),
      hold_reason: Type.Optional(Nullable(Open(HOLD_REASONS, 'Why it was held; kept after it is settled.'))),
      settled_by: Type.Optional(
        Nullable(
          Open(
            SETTLED_BY,
            'What settled a held tender: its review, a standing decision (it went out without a new review), or a re-screen.',
          ),
        ),
      ),
    }),
    { description: 'Every tender of the carrier in the watch window (SCREEN_WATCH_DAYS), oldest first.' },
  ),
  findings: Nullable(
    Type.Object(
      {
        added: Type.Array(ChangeFinding),
        removed: Type.Array(ChangeFinding),
      },
      {
        description:
          'The findings the new score has and the old had not (added), and the other way round (removed), compared by check or knockout code. Null when not known (the old score is no longer kept, or a change found before findings were recorded).',
      },
    ),
  ),
  state: Enum(CHANGE_STATES),
  acknowledged_by: Nullable(Type.String()),
  acknowledged_at: Nullable(Time()),
  ack_note: Nullable(
    Type.String({ description: 'Why it was acknowledged, as sent with the acknowledgement (at most 500 characters; null: none given).' }),
  ),
  detected_at: Time(),
  updated_at: Time(),
});

export const LocalBlock = Obj(
  'LocalBlock',
  'A carrier on the local do-not-use list: every screening of it is blocked without asking /v1.',
  {
    object: Type.Literal('local_block'),
    id: Type.String(),
    dot_number: Nullable(Type.String()),
    mc_number: Nullable(Type.String()),
    reason: Type.String(),
    state: Enum(LOCAL_BLOCK_STATES),
    blocked_by: Type.String(),
    blocked_at: Time(),
    token_id: Nullable(Type.String({ description: 'The credential that blocked it (null before token ids were recorded).' })),
    lifted_by: Nullable(Type.String()),
    lifted_at: Nullable(Time()),
    lifted_token_id: Nullable(Type.String()),
    lift_note: Nullable(Type.String({ description: 'Why it was lifted, as sent with the lift (null: none given).' })),
    updated_at: Time(),
  },
);

export const Callback = Obj('Callback', 'One callback owed to a TMS, from the outbox (docs/callbacks.md).', {
  object: Type.Literal('callback'),
  id: Type.String(),
  delivery_id: Type.String({ description: 'Stable across attempts: the X-Delivery-Id the TMS sees.' }),
  event: Type.String(),
  url: Type.String(),
  state: Enum(CALLBACK_STATES, 'cancelled: stopped by POST /callbacks/:id/cancel or POST /callbacks/cancel; never sent unless retried.'),
  screening_id: Nullable(Type.String({ description: 'The screening whose state it carries; null for other events (carrier.changed).' })),
  version: Nullable(
    Type.Integer({ description: "That screening's version in the body; one screening's callbacks are sent in version order." }),
  ),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Time()),
  last_status: Nullable(Type.Integer({ description: 'The HTTP status of the last answer (with last_error http_status).' })),
  last_error: Nullable(Open(DELIVERY_FAILURES, 'What the last failed attempt met, as a category (never the raw network error).')),
  created_at: Time(),
  updated_at: Time(),
  delivered_at: Nullable(Time()),
  cancelled_at: Nullable(Time()),
});

export const Status = Obj('Status', 'Queue, quota, rate limit, reviews, callbacks and /v1 reachability.', {
  object: Type.Literal('status'),
  environment: Enum(ENVIRONMENTS),
  queue: Type.Object({
    waiting: Type.Integer(),
    active: Type.Integer(),
    delayed: Type.Integer(),
    failed: Type.Integer(),
    completed: Type.Integer(),
    paused: Type.Boolean(),
  }),
  quota: Type.Object(
    {
      livemode: Type.Boolean(),
      monthly_quota: Nullable(Type.Integer()),
      used: Nullable(Type.Integer()),
      remaining: Nullable(Type.Integer()),
      resets_at: Time(),
      gate: Enum(QUOTA_GATES),
      reserve: Nullable(Type.Integer()),
      updated_at: Nullable(Time()),
    },
    { additionalProperties: true },
  ),
  rate_limit: Type.Object(
    { per_minute: Nullable(Type.Integer()), remaining: Nullable(Type.Integer()), resets_at: Nullable(Time()) },
    { additionalProperties: true },
  ),
  reviews: Type.Object({ pending: Type.Integer(), oldest_pending_at: Type.Optional(Nullable(Time())) }, { additionalProperties: true }),
  callbacks: Type.Optional(
    Type.Object(
      { pending: Type.Integer(), delivered: Type.Integer(), dead: Type.Integer(), cancelled: Type.Optional(Type.Integer()) },
      { additionalProperties: true },
    ),
  ),
  service: Type.Object(
    {
      reachable: Type.Boolean(),
      checked_at: Nullable(Time()),
      last_error: Nullable(Type.String()),
      key_rejected: Type.Boolean(),
      hold_off_until: Type.Optional(Nullable(Time())),
      environment_mismatch: Type.Optional(Nullable(Type.String())),
    },
    { additionalProperties: true },
  ),
});

export const Caller = Obj(
  'Caller',
  'Who a bearer token is (GET /me): what the desk shows as signed in, and whose name its decisions carry.',
  {
    object: Type.Literal('caller'),
    token_id: Nullable(Type.String({ description: 'The scoped token\'s id ("tok_…"); null for INTAKE_TOKEN.' })),
    name: Nullable(Type.String({ description: "The token's name (the `by` of what it decides); null for INTAKE_TOKEN, which has none." })),
    role: Enum(CALLER_ROLES),
  },
);

export const DailyUsage = Obj('DailyUsage', 'Live lookups per UTC day this month.', {
  object: Type.Literal('usage_daily'),
  month: Type.String(),
  monthly_quota: Nullable(Type.Integer()),
  days: Type.Array(Type.Object({ day: Type.String(), lookups: Type.Integer() })),
});

// ---- what the intake sends on its own: callbacks (the `webhooks` of the document) and /events ----

export const SCREENING_CALLBACK_EVENTS = ['screening.completed', 'review.resolved'] as const;

export const ScreeningCallback = Obj(
  'ScreeningCallback',
  'The body of a screening.completed or review.resolved callback (docs/callbacks.md): the screening as GET /screenings/:id returns it.',
  {
    event: Enum(SCREENING_CALLBACK_EVENTS, 'Also in the X-Carrier-Screen-Event header.'),
    delivery_id: Type.String({ description: 'Stable per event (X-Carrier-Screen-Delivery): de-duplicate on it.' }),
    version: Type.Integer({ minimum: 1, description: "The screening's version: apply only when newer than the one you hold." }),
    screening: Type.Ref('Screening'),
  },
);

export const CarrierChangedCallback = Obj(
  'CarrierChangedCallback',
  'The body of a carrier.changed callback (docs/watchlist.md): a watched carrier screens differently now. Not ordered with the screening callbacks; carries no version.',
  {
    event: Type.Literal('carrier.changed'),
    delivery_id: Type.String({ description: 'Stable per event (X-Carrier-Screen-Delivery): de-duplicate on it.' }),
    change: Type.Ref('CarrierChange'),
  },
);

/** The events of GET /events, each `id:`, `event:` and one `data:` line of JSON. */
const streamEvent = (event: string, description: string, data: TSchema) =>
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, description: 'The `id:` line: send it back as Last-Event-ID to replay what followed.' }),
      event: Type.Literal(event),
      data,
    },
    { title: event, description, additionalProperties: false },
  );
/** What each event of shared/screening.ts's INTAKE_EVENT_NAMES carries (a name left out does not compile). */
const STREAM_EVENT_DATA: Record<(typeof INTAKE_EVENT_NAMES)[number], [description: string, data: TSchema]> = {
  'screening.completed': [
    'A screening is done (data: the screening as it is now; `{object, id, pruned: true}` once pruned).',
    Type.Ref('Screening'),
  ],
  'review.created': ['A carrier is held for a person: a new review.', Type.Ref('Review')],
  'review.updated': ["A review's facts or tenders changed (a newer score, a tender joined it).", Type.Ref('Review')],
  'review.resolved': ['A review was approved, rejected, closed or superseded.', Type.Ref('Review')],
  'carrier.changed': ['A watched carrier screens differently now.', Type.Ref('CarrierChange')],
  'change.acknowledged': ['A carrier change was acknowledged.', Type.Ref('CarrierChange')],
  'quota.changed': [
    'The monthly quota or its gate moved.',
    Type.Object({}, { additionalProperties: true, description: 'As Status.quota.' }),
  ],
  'queue.changed': [
    'The queue was paused or resumed (its counts).',
    Type.Object({}, { additionalProperties: true, description: 'As Status.queue.' }),
  ],
  'decision.lapsed': ["A standing decision lapsed: its score's basis changed or its TTL passed (docs/decisions.md).", Type.Ref('Decision')],
  'decision.revoked': ['A standing decision was revoked.', Type.Ref('Decision')],
};
const STREAM_EVENTS = INTAKE_EVENT_NAMES.map((name) => streamEvent(name, ...STREAM_EVENT_DATA[name]));
export const STREAM_EVENT_NAMES: readonly string[] = INTAKE_EVENT_NAMES;
export const StreamEvent = Type.Unsafe<unknown>({
  $id: 'StreamEvent',
  title: 'StreamEvent',
  description: 'One Server-Sent Event of GET /events, its `data:` line parsed. Event names are an open set: ignore one you do not know.',
  oneOf: STREAM_EVENTS,
});

/** Registered with app.addSchema: each becomes #/components/schemas/<$id>. */
export const COMPONENTS = [
  ErrorEnvelope,
  Score,
  StandingDecisionRef,
  Load,
  ScreeningQueued,
  ScreeningActive,
  ScreeningDone,
  Screening,
  Review,
  Decision,
  WatchEntry,
  CarrierChange,
  LocalBlock,
  Callback,
  Status,
  Caller,
  DailyUsage,
  ScreeningCallback,
  CarrierChangedCallback,
  StreamEvent,
] as const;

/** `{ object: "list", data: [<$id>], has_more }`. */
export const ListOfRef = ($id: string) =>
  Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref($id)),
    has_more: Type.Boolean({ description: 'More objects beyond this page in the direction asked.' }),
  });
