/**
 * A token's last use (`last_used_at`): written at its first use and at most once a minute after,
 * decided from the row the lookup read (a use within the minute sends no write). On the record of
 * the pass (openTestRecord): SQLite, or PostgreSQL under `npm run test:pg`.
 */
import { afterEach, expect, it } from 'vitest';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { openTestRecord } from '../helpers/test-record-sql.js';

let opened: Awaited<ReturnType<typeof openTestRecord>> | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

it('a token is touched at its first use, not again within the minute, and again after it', async () => {
  opened = await openTestRecord();
  let now = Date.parse('2026-11-27T10:00:00.000Z');
  const tokens = new IntakeTokens(opened.record, () => new Date(now));
  const { token, record } = await tokens.create('tms', 'Tess TMS');
  const lastUsed = async () => (await tokens.list()).find((t) => t.id === record.id)!.last_used_at;
  expect(await lastUsed()).toBeNull();

  expect(await tokens.lookup(token)).toMatchObject({ token_id: record.id });
  expect(await lastUsed()).toBe('2026-11-27T10:00:00.000Z');

  now += 59_000;
  await tokens.lookup(token);
  expect(await lastUsed()).toBe('2026-11-27T10:00:00.000Z');

  now += 2_000;
  await tokens.lookup(token);
  expect(await lastUsed()).toBe('2026-11-27T10:01:01.000Z');

  // A revoked token is refused and not touched.
  await tokens.revoke(record.id);
  now += 120_000;
  expect(await tokens.lookup(token)).toBeUndefined();
  expect(await lastUsed()).toBe('2026-11-27T10:01:01.000Z');
});
