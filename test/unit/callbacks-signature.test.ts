import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signCallback, verifyCallback } from '../../worker/callbacks/signature.js';
import { callbackBody, deliveryId } from '../../worker/callbacks/callbacks.js';
import type { Screening } from '../../shared/screening.js';

const T0 = 1_790_000_000;
const at = (t: number) => () => new Date(t * 1000);
const secretArb = fc.string({ minLength: 1, maxLength: 64 });
const bodyArb = fc.string({ maxLength: 400 });
const tArb = fc.integer({ min: 0, max: 4_000_000_000 });

describe('signCallback / verifyCallback', () => {
  it('verify(sign(x)) holds for any secret, body and time', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tArb, (secret, body, t) => {
        const header = signCallback(secret, body, t);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(verifyCallback(secret, header, body, { now: at(t) })).toEqual({ ok: true, t });
        // The raw bytes verify the same as the string.
        expect(verifyCallback(secret, header, Buffer.from(body, 'utf8'), { now: at(t) }).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('any change to the body fails', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, bodyArb, (secret, body, other) => {
        fc.pre(other !== body);
        const header = signCallback(secret, body, T0);
        expect(verifyCallback(secret, header, other, { now: at(T0) })).toEqual({ ok: false, reason: 'mismatch' });
      }),
      { numRuns: 500 },
    );
  });

  it('any change to the secret fails', () => {
    fc.assert(
      fc.property(secretArb, secretArb, bodyArb, (secret, other, body) => {
        fc.pre(other !== secret);
        const header = signCallback(secret, body, T0);
        expect(verifyCallback(other, header, body, { now: at(T0) }).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('any change to t fails (a replayed signature cannot be re-dated)', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        fc.integer({ min: -200, max: 200 }).filter((d) => d !== 0),
        (secret, body, delta) => {
          const header = signCallback(secret, body, T0);
          const forged = header.replace(/^t=\d+/, `t=${T0 + delta}`);
          // Within tolerance, so only the HMAC can reject it.
          expect(verifyCallback(secret, forged, body, { now: at(T0), toleranceSec: 300 })).toEqual({ ok: false, reason: 'mismatch' });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('any change to the signature fails', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, fc.nat({ max: 63 }), fc.constantFrom(...'0123456789abcdef'), (secret, body, pos, ch) => {
        const header = signCallback(secret, body, T0);
        const sig = header.split('v1=')[1]!;
        fc.pre(sig[pos] !== ch);
        const forged = `t=${T0},v1=${sig.slice(0, pos)}${ch}${sig.slice(pos + 1)}`;
        expect(verifyCallback(secret, forged, body, { now: at(T0) }).ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('rejects a t outside the tolerance, and malformed headers', () => {
    const header = signCallback('s3cret', '{}', T0);
    expect(verifyCallback('s3cret', header, '{}', { now: at(T0 + 301) })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCallback('s3cret', header, '{}', { now: at(T0 - 301) })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCallback('s3cret', header, '{}', { now: at(T0 + 3600), toleranceSec: 3600 }).ok).toBe(true);
    for (const bad of [undefined, null, '', 'garbage', `t=${T0}`, 'v1=' + 'a'.repeat(64), `t=x,v1=${'a'.repeat(64)}`, `t=${T0},v1=abc`])
      expect(verifyCallback('s3cret', bad, '{}', { now: at(T0) })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts any of several v1 entries (secret rotation)', () => {
    const good = signCallback('new', 'body', T0).split('v1=')[1]!;
    const other = signCallback('old', 'body', T0).split('v1=')[1]!;
    expect(verifyCallback('new', `t=${T0},v1=${other},v1=${good}`, 'body', { now: at(T0) }).ok).toBe(true);
  });

  it('refuses to sign with a bad t', () => {
    expect(() => signCallback('s', 'b', -1)).toThrow(RangeError);
    expect(() => signCallback('s', 'b', 1.5)).toThrow(RangeError);
  });
});

describe('delivery ids', () => {
  const screening = (state: 'pending' | 'approved' | 'rejected' | null): Screening =>
    ({ id: 'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa', review: state === null ? null : { id: 'rev_x', state } }) as unknown as Screening;

  it('are stable per event and differ between events', () => {
    expect(deliveryId(screening(null), 'screening.completed')).toBe('scr_aaaaaaaaaaaaaaaaaaaaaaaaaa:screening.completed');
    expect(deliveryId(screening('approved'), 'review.resolved')).toBe('scr_aaaaaaaaaaaaaaaaaaaaaaaaaa:review.resolved:approved');
    expect(deliveryId(screening('rejected'), 'review.resolved')).not.toBe(deliveryId(screening('approved'), 'review.resolved'));
    expect(deliveryId(screening('approved'), 'review.resolved')).toBe(deliveryId(screening('approved'), 'review.resolved'));
  });

  it('the body names the event and the delivery', () => {
    expect(JSON.parse(callbackBody('screening.completed', 'd1', screening(null)))).toEqual({
      event: 'screening.completed',
      delivery_id: 'd1',
      api_version: LATEST_API_VERSION,
      screening: screening(null),
    });
  });
});
