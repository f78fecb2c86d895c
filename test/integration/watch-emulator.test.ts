import { afterEach, describe, expect, it } from 'vitest';
import { liveCarrier, type RunningEmulator } from '../../emulator/index.js';
import { DEFAULT_CHANGE_SHARE, defaultDatedChange } from '../../emulator/dated-changes.js';
import { manualClock, svcGet, withEmulator } from '../helpers/emulator.js';

/** The emulator's dated changes: a carrier's record gets worse from a day on (injected clock). */

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

function approved(from: number): string {
  for (let d = from; ; d++) {
    const c = liveCarrier(String(d));
    if (c && c.decision === 'approved' && !c.knockout.triggered && c.carrier.mc_number) return String(d);
  }
}

describe('dated changes', () => {
  it('a listed change applies from its date on, by DOT and by MC number', async () => {
    const clock = manualClock('2026-06-01T12:00:00.000Z');
    const revoked = approved(7_000_000);
    const lapsed = approved(Number(revoked) + 1);
    const downgraded = approved(Number(lapsed) + 1);
    emu = await withEmulator({
      mode: 'live',
      now: clock.now,
      datedChanges: [
        { dot: revoked, from: '2026-06-03', change: 'authority_revoked' },
        { dot: lapsed, from: '2026-06-03T00:00:00Z', change: 'insurance_lapsed' },
        { dot: downgraded, from: '2026-06-03T00:00:00Z', change: 'safety_downgrade' },
      ],
    });
    const score = async (q: string) => (await svcGet(emu!, `/v1/svc-score?${q}`)).json;
    const before = await score(`dot_number=${revoked}`);
    expect(before.decision).toBe('approved');
    expect(before).toEqual(await score(`dot_number=${revoked}`));

    clock.set('2026-06-02T23:59:59.999Z');
    expect((await score(`dot_number=${revoked}`)).decision).toBe('approved');

    clock.set('2026-06-03T00:00:00.000Z');
    const after = await score(`dot_number=${revoked}`);
    expect(after).toMatchObject({
      decision: 'rejected',
      grade: 'F',
      knockout: { triggered: true, reasons: [{ code: 'AUTHORITY_INACTIVE' }] },
    });
    expect(after.score).toBeLessThanOrEqual(35);
    expect(after.carrier).toEqual(before.carrier);
    expect(after.checks.total).toBe(53);
    expect(after.checks.triggered + after.checks.passed + after.checks.not_checked).toBe(53);
    expect(after.reasons[0].check).toBe('Operating authority active');
    expect(await score(`mc_number=${before.carrier.mc_number}`)).toEqual(after);

    const l = await score(`dot_number=${lapsed}`);
    expect(l.decision).toBe('rejected');
    expect(l.knockout.reasons.map((r: { code: string }) => r.code)).toContain('NO_BIPD');
    expect(l.reasons.map((r: { check: string }) => r.check)).not.toContain('BIPD coverage below required minimum');

    const d = await score(`dot_number=${downgraded}`);
    const was = liveCarrier(downgraded)!;
    expect(d.score).toBeLessThan(was.score);
    expect(['review', 'high_risk']).toContain(d.decision);
    expect(['D', 'F']).toContain(d.grade);
    expect(d.knockout.triggered).toBe(false);

    // A carrier not in the list never changes.
    const other = approved(Number(downgraded) + 1);
    expect((await score(`dot_number=${other}`)).score).toBe(liveCarrier(other)!.score);
  });

  it('by default a deterministic few percent change on a day 1 to 30 days after the start', async () => {
    const start = new Date('2026-06-01T12:00:00.000Z');
    const picked: Array<{ dot: string; from: string }> = [];
    for (let d = 8_000_000; d < 8_020_000; d++) {
      const c = defaultDatedChange(String(d), start);
      if (c) picked.push(c);
    }
    const share = picked.length / 20_000;
    expect(share).toBeGreaterThan(DEFAULT_CHANGE_SHARE * 0.8);
    expect(share).toBeLessThan(DEFAULT_CHANGE_SHARE * 1.2);
    for (const c of picked) {
      const days = (Date.parse(c.from) - start.getTime()) / 86_400_000;
      expect(Number.isInteger(days) && days >= 1 && days <= 30).toBe(true);
    }
    expect(defaultDatedChange(picked[0]!.dot, start)).toEqual(picked[0]);

    // Over HTTP: the instance starts "now"; the change shows from its day on.
    const first = picked.find((c) => liveCarrier(c.dot) !== undefined)!;
    const clock = manualClock(start.toISOString());
    emu = await withEmulator({ mode: 'live', now: clock.now });
    const was = (await svcGet(emu, `/v1/svc-score?dot_number=${first.dot}`)).json;
    expect(was.score).toBe(liveCarrier(first.dot)!.score);
    clock.set(first.from);
    const now = (await svcGet(emu, `/v1/svc-score?dot_number=${first.dot}`)).json;
    expect(now.reasons.length).toBeGreaterThan(was.reasons.length);
  });

  it('rejects a bad datedChanges option naming the field', async () => {
    await expect(
      withEmulator({ mode: 'live', datedChanges: [{ dot: 'x', from: '2026-01-01', change: 'authority_revoked' }] }),
    ).rejects.toThrow(/datedChanges\[0\]\.dot/);
    await expect(withEmulator({ mode: 'live', datedChanges: [{ dot: '1', from: 'soon', change: 'authority_revoked' }] })).rejects.toThrow(
      /datedChanges\[0\]\.from/,
    );
    await expect(
      withEmulator({ mode: 'live', datedChanges: [{ dot: '1', from: '2026-01-01', change: 'bankrupt' as 'authority_revoked' }] }),
    ).rejects.toThrow(/datedChanges\[0\]\.change/);
  });
});
