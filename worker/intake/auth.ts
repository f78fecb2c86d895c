import { createHash, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../tokens/intake-tokens.js';

/**
 * Bearer-token check. Both sides are hashed first so the compare is over equal-length
 * digests and its time says nothing about the token's length or content.
 */
export function bearerChecker(token: string): (authorization: string | undefined) => boolean {
  if (token.length < 16) throw new RangeError('the intake token must be at least 16 characters');
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    if (typeof authorization !== 'string') return false;
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    const given = createHash('sha256')
      .update(m?.[1] ?? '')
      .digest();
    return timingSafeEqual(expected, given) && m !== null;
  };
}

/** Who a request is: INTAKE_TOKEN (admin), a scoped token from SQLite, or nobody (undefined). */
export function authenticator(
  /** undefined: scoped tokens only (a `worker` on a host without the intake token file). */
  intakeToken: string | undefined,
  tokens: { lookup(token: string): Promise<Caller | undefined> } | undefined,
): (authorization: string | undefined) => Promise<Caller | undefined> {
  const isIntakeToken = intakeToken === undefined ? () => false : bearerChecker(intakeToken);
  return (authorization) => {
    if (isIntakeToken(authorization)) return Promise.resolve({ role: 'admin', name: null, token_id: null });
    const m = typeof authorization === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization) : null;
    return m && tokens ? tokens.lookup(m[1]!) : Promise.resolve(undefined);
  };
}
