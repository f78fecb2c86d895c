/**
 * The operationId of every intake operation, in one place: the name a client generated from
 * /openapi.json gives it. A route without one here is refused at start-up (no unnamed operation).
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'POST /screenings': 'createScreening',
  'POST /screenings/batch': 'createScreeningBatch',
  'GET /screenings': 'listScreenings',
  'GET /screenings/:id': 'getScreening',
  'GET /reviews': 'listReviews',
  'GET /reviews/:id': 'getReview',
  'POST /reviews/:id/approve': 'approveReview',
  'POST /reviews/:id/reject': 'rejectReview',
  'GET /status': 'getStatus',
  'GET /me': 'getMe',
  'GET /usage/daily': 'getDailyUsage',
  'POST /queue/pause': 'pauseQueue',
  'POST /queue/resume': 'resumeQueue',
  'GET /events': 'streamEvents',
  'GET /healthz': 'getHealth',
  'GET /metrics': 'getMetrics',
  'GET /watchlist': 'listWatchEntries',
  'POST /watchlist': 'addWatchEntry',
  'GET /watchlist/:dot': 'getWatchEntry',
  'DELETE /watchlist/:dot': 'removeWatchEntry',
  'GET /changes': 'listChanges',
  'GET /changes/:id': 'getChange',
  'POST /changes/:id/acknowledge': 'acknowledgeChange',
  'GET /blocks': 'listBlocks',
  'POST /blocks': 'createBlock',
  'GET /blocks/:dot': 'getBlock',
  'DELETE /blocks/:dot': 'liftBlock',
  'POST /blocks/:dot/lift': 'liftBlockByPost',
  'GET /callbacks': 'listCallbacks',
  'GET /callbacks/:id': 'getCallback',
  'POST /callbacks/:id/retry': 'retryCallback',
  'POST /callbacks/:id/cancel': 'cancelCallback',
  'POST /callbacks/cancel': 'cancelCallbacksToUrl',
  'GET /decisions': 'listDecisions',
  'GET /decisions/:id': 'getDecision',
  'POST /decisions/:id/revoke': 'revokeDecision',
  'GET /audit.csv': 'exportAudit',
  'POST /sandbox/carriers/:dot/change': 'sandboxChangeCarrier',
  'POST /sandbox/decisions/:id/lapse': 'sandboxLapseDecision',
};

/** The operationId of a documented route; throws for one that has none (a new route must be named here). */
export function operationIdOf(method: string, url: string): string {
  const id = OPERATION_IDS[`${method} ${url}`];
  if (!id) throw new Error(`intake route ${method} ${url} has no operationId: add it to worker/intake/operations.ts`);
  return id;
}
