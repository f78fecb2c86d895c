import { createHash, timingSafeEqual } from 'node:crypto';

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
    const given = createHash('sha256').update(m?.[1] ?? '').digest();
    return timingSafeEqual(expected, given) && m !== null;
  };
}
