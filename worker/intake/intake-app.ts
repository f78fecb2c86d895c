import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Caller } from '../tokens/intake-tokens.js';
import { REFRESH_ROLE, mayUse, type Role } from '../tokens/roles.js';
import { HttpError, badRequest } from './http-error.js';

/**
 * What the intake's route modules share: the app type they register on, what a request carries,
 * and who did it. Its own module, so route modules never import server.ts (no import circle).
 */

export type IntakeApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (health probe, static UI files). */
    public?: boolean;
    /** The least role a token needs for this route (every non-public route declares one). */
    role?: Role;
  }
  interface FastifyRequest {
    /** Who sent it (set by the auth hook; absent on public routes). */
    caller?: Caller;
  }
}

/** Who did it: the body's `by`, else the token's name (docs/api.md "Tokens and roles"). */
export function byOf(req: FastifyRequest, given: string | undefined): string {
  const by = given?.trim() || req.caller?.name;
  if (!by) throw badRequest("by is required: who did it (a scoped token's name is used when by is left out)", 'by');
  return by;
}

/** 403 for `refresh: true` from a token below REFRESH_ROLE (a tms token): it spends live quota. */
export function checkRefresh(req: FastifyRequest, refresh: boolean | undefined): void {
  if (refresh === true && req.caller && !mayUse(req.caller.role, REFRESH_ROLE))
    throw new HttpError(403, 'forbidden', `refresh: true spends live quota and needs a ${REFRESH_ROLE} or admin token; this token's role is ${req.caller.role}`, 'refresh');
}
