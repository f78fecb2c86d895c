import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { INTAKE_TOKEN_ID, type Actor, type Caller } from '../tokens/intake-tokens.js';
import { REFRESH_ROLE, mayUse, type Role } from '../tokens/roles.js';
import { HttpError, badRequest } from './http-error.js';
import type { IntakeServices } from './intake-services.js';

/**
 * What the intake's route plugins share: the app type they register on, the one plugin signature,
 * the services they use (decorations), what a request carries, and who did it. Its own module, so
 * route modules never import server.ts (no import circle).
 */

export type IntakeApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * Every resource's routes are one plugin of this type (`screening-routes.ts`, `review-routes.ts`, …),
 * registered from `buildIntake` in server.ts. A plugin reads the services from `fastify` (the
 * decorations below), never from an import of the store; its options carry only settings.
 */
export type IntakePlugin<Options extends object = Record<never, never>> = FastifyPluginAsync<
  Options,
  RawServerDefault,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  /** The services, decorated on the root instance by server.ts (intake-services.ts builds them). */
  interface FastifyInstance {
    screener: IntakeServices['screener'];
    idempotencyKeys: IntakeServices['idempotencyKeys'];
    reviewReads: IntakeServices['reviewReads'];
    callbackOutbox: IntakeServices['callbackOutbox'];
    auditExport: IntakeServices['auditExport'];
    listBodies: IntakeServices['listBodies'];
    watchList: IntakeServices['watchList'];
    localBlocks: IntakeServices['localBlocks'];
  }
  interface FastifyContextConfig {
    /** No bearer token needed (health probe, static UI files). */
    public?: boolean;
    /** The least role a token needs for this route (every non-public route declares one). */
    role?: Role;
  }
  interface FastifyRequest {
    /** Who sent it (`decorateRequest('caller', null)`; set by the auth hook, null on public routes). */
    caller: Caller | null;
    /** The screening this request made or decided on, for its log line (set by the route). */
    screeningId?: string;
    /** The API version it is answered in: its Carrier-Screen-Version, else its token's pin. */
    apiVersion?: string;
  }
}

/**
 * Who did it, from the credential (docs/api.md "Tokens and roles"): a desk (or tms) token acts
 * as itself, its name, whatever the body's `by` says; only an admin token may act for a person
 * named in `by` (its own name when left out). INTAKE_TOKEN has no name: `by` is required.
 * `token_id` is recorded with the act either way.
 */
export function actorOf(req: FastifyRequest, given: string | undefined): Actor {
  const c = req.caller;
  const named = given?.trim() || undefined;
  const by = c?.role === 'admin' ? (named ?? c.name) : (c?.name ?? named);
  if (!by)
    throw badRequest("by is required with INTAKE_TOKEN: who did it (a scoped token's name is used, and a desk token's always)", 'by');
  return { by, token_id: c ? (c.token_id ?? INTAKE_TOKEN_ID) : null };
}

/** 403 for `refresh: true` from a token below REFRESH_ROLE (a tms token): it spends live quota. */
export function checkRefresh(req: FastifyRequest, refresh: boolean | undefined): void {
  if (refresh === true && req.caller && !mayUse(req.caller.role, REFRESH_ROLE))
    throw new HttpError(
      403,
      'forbidden',
      `refresh: true spends live quota and needs a ${REFRESH_ROLE} or admin token; this token's role is ${req.caller.role}`,
      'refresh',
    );
}
