/**
 * Every intake operation in one place: its operationId (the name a client generated from
 * /openapi.json gives it), its tag, and its description when the route gives none. A route
 * missing here is refused at start-up (no unnamed, untagged or undescribed operation).
 */
export interface Operation {
  id: string;
  tag: string;
  description: string;
}

/** The document's tags, in the order a reader meets them. */
export const TAGS = [
  { name: 'screenings', description: 'Screen carriers for tenders, one or a load board at once, and find screenings again.' },
  { name: 'reviews', description: 'Carriers held for a person: one open review per carrier, approved or rejected by the desk.' },
  { name: 'decisions', description: 'Standing carrier decisions and the due-diligence export.' },
  { name: 'watchlist', description: 'Carriers re-screened daily, and the changes found in them.' },
  { name: 'blocks', description: 'The local do-not-use list.' },
  { name: 'callbacks', description: 'The callback outbox: deliveries owed to a TMS, retried or cancelled.' },
  { name: 'events', description: 'The live event stream (Server-Sent Events) with replay.' },
  { name: 'operations', description: 'Status, identity, usage, the queue, health and metrics.' },
  {
    name: 'sandbox',
    description: 'Test helpers, sandbox keys and admin tokens only: make a carrier change and a decision lapse, to test a TMS end to end.',
  },
] as const;
type Tag = (typeof TAGS)[number]['name'];

const op = (id: string, tag: Tag, description: string): Operation => ({ id, tag, description });

export const OPERATIONS: Readonly<Record<string, Operation>> = {
  'POST /screenings': op('createScreening', 'screenings', ''),
  'POST /screenings/batch': op(
    'createScreeningBatch',
    'screenings',
    "207 with one answer per item, in order: 200 (done at once from the cache), 202 (queued) or the item's own 4xx/5xx with an error. An accepted item is exactly what POST /screenings makes. Send an Idempotency-Key: a retry returns the first answer whole.",
  ),
  'GET /screenings': op(
    'listScreenings',
    'screenings',
    'Cursor-paged (limit, starting_after, ending_before), newest first; filter by tender_id, dot_number, mc_number, status, action, updated_since.',
  ),
  'GET /screenings/:id': op('getScreening', 'screenings', 'The screening as it is now; its version grows with every change.'),
  'GET /reviews': op('listReviews', 'reviews', 'Cursor-paged; pending reviews come oldest first, the rest newest first. Filter by state.'),
  'GET /reviews/:id': op('getReview', 'reviews', 'One review with its newest facts (latest), every tender waiting on it and its version.'),
  'POST /reviews/:id/approve': op('approveReview', 'reviews', ''),
  'POST /reviews/:id/reject': op('rejectReview', 'reviews', ''),
  'GET /status': op(
    'getStatus',
    'operations',
    'Queue counts, monthly quota and its gate, the /v1 rate limit, pending reviews, callbacks and whether /v1 answers.',
  ),
  'GET /me': op('getMe', 'operations', 'Who the bearer token is: its id, name and role (null id and name for INTAKE_TOKEN).'),
  'GET /usage/daily': op('getDailyUsage', 'operations', 'Live /v1 lookups per UTC day of this month, against the monthly quota.'),
  'POST /queue/pause': op(
    'pauseQueue',
    'operations',
    'Stops calling /v1: screenings are still accepted and queued, cache hits still answered. Answers the status.',
  ),
  'POST /queue/resume': op('resumeQueue', 'operations', 'Calls /v1 again for what waits in the queue. Answers the status.'),
  'GET /events': op('streamEvents', 'events', ''),
  'GET /healthz': op(
    'getHealth',
    'operations',
    'No token. 200 ok, or degraded while /v1 is unreachable (the cache is served); 503 degraded while SQLite refuses writes (reads served, new work refused; 200 again once a write succeeds), 503 down when Redis or SQLite is down.',
  ),
  'GET /metrics': op(
    'getMetrics',
    'operations',
    "Prometheus text exposition: this process's counters and the shared state read at scrape time (docs/operations.md).",
  ),
  'GET /watchlist': op('listWatchEntries', 'watchlist', 'Cursor-paged, the carrier due for its re-screen soonest first.'),
  'POST /watchlist': op('addWatchEntry', 'watchlist', ''),
  'GET /watchlist/:dot': op('getWatchEntry', 'watchlist', 'One watched carrier by DOT or MC number, with its last snapshot.'),
  'DELETE /watchlist/:dot': op('removeWatchEntry', 'watchlist', 'It is watched again after its next tender screening.'),
  'GET /changes': op(
    'listChanges',
    'watchlist',
    "Cursor-paged, newest first; filter by state, dot_number and updated_since. Sync with updated_since (your own read position): state=new is the desk's acknowledgement, not a TMS's.",
  ),
  'GET /changes/:id': op(
    'getChange',
    'watchlist',
    'One change: before and after snapshots, why it counts, and the tenders that used the carrier.',
  ),
  'POST /changes/:id/acknowledge': op(
    'acknowledgeChange',
    'watchlist',
    'Marks it seen by the desk (also the change.acknowledged event); 409 change_conflict when already acknowledged.',
  ),
  'GET /blocks': op('listBlocks', 'blocks', 'Cursor-paged, newest first; active blocks unless state says otherwise.'),
  'POST /blocks': op(
    'createBlock',
    'blocks',
    'Blocks the carrier at once: its open review is closed and its waiting tenders blocked, in one commit. 409 block_conflict when already blocked.',
  ),
  'GET /blocks/:dot': op('getBlock', 'blocks', "The carrier's active block; 404 when it has none."),
  'DELETE /blocks/:dot': op(
    'liftBlock',
    'blocks',
    'Recorded, never deleted. 409 block_conflict (resource_id: the block) when its block is already lifted; 404 when it was never blocked.',
  ),
  'POST /blocks/:dot/lift': op('liftBlockByPost', 'blocks', 'As DELETE /blocks/:dot, for clients that cannot send DELETE.'),
  'GET /callbacks': op('listCallbacks', 'callbacks', 'Cursor-paged; dead deliveries by default, most recently changed first.'),
  'GET /callbacks/:id': op('getCallback', 'callbacks', 'One delivery: its state, attempts and what the last attempt met.'),
  'POST /callbacks/:id/retry': op(
    'retryCallback',
    'callbacks',
    '409 callback_delivered when delivered, callback_superseded when a newer callback of its screening is delivered or owed.',
  ),
  'POST /callbacks/:id/cancel': op('cancelCallback', 'callbacks', 'A cancelled callback is kept and may be retried.'),
  'POST /callbacks/cancel': op('cancelCallbacksToUrl', 'callbacks', 'Answers how many were cancelled; delivered ones are untouched.'),
  'GET /decisions': op('listDecisions', 'decisions', 'Cursor-paged, newest first; filter by dot_number and state.'),
  'GET /decisions/:id': op('getDecision', 'decisions', 'One decision with its basis, expiry and how it ended.'),
  'POST /decisions/:id/revoke': op(
    'revokeDecision',
    'decisions',
    "The next hold of the carrier opens a review again. Who revoked is the token's name (`by` only from an admin token). 409 decision_conflict when it no longer stands.",
  ),
  'GET /audit.csv': op('exportAudit', 'decisions', ''),
  'GET /event-log': op(
    'listEvents',
    'events',
    'Every event of the stream, kept SCREEN_EVENTS_RETENTION (7 days by default): newest first, cursor-paged by id, filtered by type (comma-separated) and created_gte / created_lt. Catch up after downtime from your last id (ending_before walks forward in time), or sync by time. A carrier.changed whose callback died is here too.',
  ),
  'POST /sandbox/carriers/:dot/change': op(
    'sandboxChangeCarrier',
    'sandbox',
    "From now on the sandbox carrier's score shows the change (reset: its fixture again); with check_now (default) a background re-screen with refresh detects it at once: carrier.changed to its recent tenders' callback URLs, decisions whose basis changed lapse at the next tender. 403 sandbox_only on a live key.",
  ),
  'POST /sandbox/decisions/:id/lapse': op(
    'sandboxLapseDecision',
    'sandbox',
    'Ends a standing decision as lapsed now, as its TTL would: the next hold of the carrier opens a review. 403 sandbox_only on a live key.',
  ),
};

/** The operation of a documented route; throws for one that has none (a new route must be named here). */
export function operationOf(method: string, url: string): Operation {
  const o = OPERATIONS[`${method} ${url}`];
  if (!o) throw new Error(`intake route ${method} ${url} has no operationId: add it to worker/intake/operations.ts`);
  return o;
}

/** The operationId of a documented route (see operationOf). */
export function operationIdOf(method: string, url: string): string {
  return operationOf(method, url).id;
}
