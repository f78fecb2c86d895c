import type { FastifyRequest } from 'fastify';

/** Path params that name a screening (GET /screenings/:id). */
const SCREENING_ID_RE = /^scr_[a-z2-7]{26}$/;

/**
 * The request's info line: its id (reqId, from the request's logger), route, status and the
 * screening it concerns, so "quote X-Request-Id to support" holds at the default level.
 * Path only: a query string may hold a caller's ids; the token never appears here.
 * server.ts writes it from onResponse; a hijacked answer (/events) writes its own.
 */
export function logRequest(req: FastifyRequest, status: number, ms?: number): void {
  const param = (req.params as { id?: unknown } | undefined)?.id;
  const screening_id = req.screeningId ?? (typeof param === 'string' && SCREENING_ID_RE.test(param) ? param : undefined);
  req.log.info(
    {
      method: req.method,
      route: req.routeOptions.url ?? null,
      path: req.url.split('?')[0],
      status,
      ...(ms === undefined ? {} : { ms }),
      ...(screening_id ? { screening_id } : {}),
    },
    'request',
  );
}
