import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyKeyError, IdempotencyKeys, requestHash } from '../decisions/idempotency.js';
import { HttpError, badRequest } from './http-error.js';

/**
 * Run a state-changing route under the caller's `Idempotency-Key` (when it sent one): a replay
 * answers with what the first request made and `Idempotent-Replayed: true`; another body with
 * the same key is 409 `idempotency_conflict` (worker/decisions/idempotency.ts).
 *
 * Keys belong to the token that sent them: another token's same key is another key, so no
 * caller can replay, or turn into a 409, what another caller sent.
 * `idOf` names what the request made (default: its `id`); `replay` gets that name back.
 */
export async function idempotent<T>(
  keys: IdempotencyKeys,
  req: FastifyRequest,
  reply: FastifyReply,
  route: string,
  run: () => Promise<T>,
  replay: (id: string) => Promise<T | undefined> | T | undefined,
  idOf: (out: T) => string = (out) => (out as { id: string }).id,
): Promise<T> {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return run();
  let key: string;
  try {
    key = IdempotencyKeys.check(Array.isArray(header) ? '' : header);
  } catch (e) {
    if (e instanceof IdempotencyKeyError) throw badRequest(e.message, 'Idempotency-Key');
    throw e;
  }
  const scope = `${req.caller?.token_id ?? 'intake_token'} ${route}`;
  const claim = await keys.claim(scope, key, requestHash(scope, req.body ?? null));
  if (claim.kind === 'conflict')
    throw new HttpError(
      409,
      'idempotency_conflict',
      'this Idempotency-Key was used with another request in the last 24 h; use a new key',
      'Idempotency-Key',
    );
  if (claim.kind === 'in_progress')
    throw new HttpError(
      409,
      'idempotency_in_progress',
      'a request with this Idempotency-Key is still being worked; retry shortly',
      'Idempotency-Key',
    );
  if (claim.kind === 'replay') {
    const out = await replay(claim.resourceId);
    if (out) {
      reply.header('idempotent-replayed', 'true');
      return out;
    }
  }
  let out: T;
  try {
    out = await run();
  } catch (e) {
    try {
      await keys.release(scope, key);
    } catch {
      // The disk refused this too: the request's own error is the answer; the key is taken over after a minute.
    }
    throw e;
  }
  try {
    await keys.complete(scope, key, idOf(out));
  } catch {
    // Made, but the key could not record it: answer what was made rather than a 503 inviting a second one.
  }
  return out;
}
