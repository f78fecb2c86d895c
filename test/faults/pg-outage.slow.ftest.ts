/**
 * Fault suite — the PostgreSQL server going away mid-stream and coming back, as it does when it
 * restarts (issue 34; the PostgreSQL counterpart of sqlite-faults.slow.ftest.ts). A real `start`
 * process on a PostgreSQL record of the test's own, reached through a TCP hop on its own port
 * (support/tcp-proxy.ts), so that the shared server itself is never stopped. A steady stream of
 * tenders, each with an Idempotency-Key and a callback; a third of the way in, the server is
 * taken away for a few seconds: every backend of the worker is terminated (57P01, what a
 * shutdown sends) and new connections are refused; then it is back on the same address.
 *
 * While it is away: every answer is 503 storage_unavailable (never a 500, never a hang), the
 * process lives, /healthz says 503; the TMS sends each refused tender again with its key. After:
 * the process reconnects by itself; every tender has exactly one screening, all done, each with
 * one screening.completed (two where a job the outage failed ended held and was re-screened
 * after it); no event id is missing; every callback arrives. The figures are printed.
 *
 * Found on the way (fixed): a client a unit of work held ended the process when its connection
 * died (worker/store/pg/pg-pool.ts); the callback sender lost its destination's slots to a
 * claim that failed half-way, and delivered nothing more (worker/callbacks/sender.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pg from 'pg';
import { PG_ADMIN_URL } from '../helpers/pg-db.js';
import { until } from '../helpers/processes.js';
import { onPostgres } from '../helpers/test-db.js';
import { startCallbackReceiver, type CallbackReceiver } from './support/callback-receiver.js';
import { mapLimit, NoAnswerError, type Answer } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { recordSnapshot, unfinishedCount } from './support/record-inspect.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { sleep, tenderCarrier } from './support/tender-carriers.js';
import { installation, type Installation } from './support/worker-stack.js';

const TENDERS = 240;
/** One tender every this many ms. */
const EVERY_MS = 50;
/** The server goes away once this many tenders have been sent, for OUTAGE_MS. */
const OUTAGE_AFTER = 80;
const OUTAGE_MS = 6_000;
const CONCURRENCY = 4;

/** Every other tender is a carrier not seen before; the others repeat an earlier one. */
const carrierOf = (i: number): string => tenderCarrier(i, 2, 4_200_000);

/** Only on PostgreSQL: the scenario takes its server away. On SQLite the file's faults are sqlite-faults.slow.ftest.ts's. */
const describePg = onPostgres ? describe : describe.skip;
const PG_ONLY = onPostgres ? '' : ' [PostgreSQL only: takes the database server away; SQLite has no server]';

let emu: RecordingEmulator;
let receiver: CallbackReceiver;
let proxy: TcpProxy;
let inst: Installation;

beforeAll(async () => {
  if (!onPostgres) return;
  emu = await startRecordingEmulator({ mode: 'live', ratePerMinute: 1_000_000, monthlyQuota: 1_000_000, faults: { latencyMs: 200 } });
  const server = new URL(PG_ADMIN_URL);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  inst = await installation({
    svcBaseUrl: emu.baseUrl,
    svcKey: emu.key,
    redisUrl: inject('redisUrl'),
    env: { SCREEN_CONCURRENCY: String(CONCURRENCY) },
    via: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(proxy.port);
      return u.toString();
    },
  });
  receiver = await startCallbackReceiver(inst.callbackSecret);
  await inst.start();
}, 120_000);

afterAll(async () => {
  await proxy?.up();
  await inst?.close();
  await proxy?.close();
  await receiver?.close();
  await emu?.close();
});

/** Terminate every backend the worker holds on the record's database (what a shutdown does to them). */
async function terminateWorkerBackends(dbName: string): Promise<number> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity
       WHERE datname = $1 AND application_name = 'carrier-screen' AND pid <> pg_backend_pid()`,
      [dbName],
    );
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

interface Sent {
  answer: Answer;
  /** Answers before the one that took it: 503s by code, and anything else. */
  refused: string[];
}

describePg(`the PostgreSQL server away for a few seconds mid-stream, then back${PG_ONLY}`, () => {
  it('503 storage_unavailable while it is away, never a 500 or a hang; after, every tender screened once and done, every callback, no event lost', async () => {
    const dbName = new URL(inst.screenDb).pathname.slice(1);
    const client = inst.client!;
    const t0 = Date.now();
    let sent = 0;
    /** Every answer the stream got, in time order (ms since t0), for the stretch of refusals. */
    const answers: Array<{ ms: number; status: number | 'no answer'; code: string | undefined }> = [];
    let outage: { from: number; to: number; terminated: number; probes: Record<string, string> } | undefined;

    const send = async (i: number): Promise<Sent> => {
      const refused: string[] = [];
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (Date.now() > deadline) throw new Error(`T-${i}: not taken within 120 s (${refused.join(', ')})`);
        let a: Answer;
        try {
          a = await client.call('POST', '/screenings', {
            body: { dot_number: carrierOf(i), tender_id: `T-${i}`, callback_url: receiver.url },
            headers: { 'idempotency-key': `tender-${i}` },
            timeoutMs: 20_000,
          });
        } catch (e) {
          if (!(e instanceof NoAnswerError)) throw e;
          answers.push({ ms: Date.now() - t0, status: 'no answer', code: undefined });
          refused.push('no answer');
          continue;
        }
        answers.push({ ms: Date.now() - t0, status: a.status, code: a.json?.error?.code });
        if (a.status === 200 || a.status === 202) return { answer: a, refused };
        refused.push(`${a.status} ${a.json?.error?.code ?? ''}`.trim());
        // A TMS retries what was refused, with the same key, after a pause.
        if (a.status === 503) await sleep(500);
        else if (a.status === 409 && a.json?.error?.code === 'idempotency_in_progress') await sleep(2_000);
        else return { answer: a, refused };
      }
    };

    const outageDone = (async () => {
      await until('a third of the stream sent', 60_000, () => sent >= OUTAGE_AFTER || undefined, 10);
      const from = Date.now() - t0;
      // What a shutdown does: the server ends every session (57P01), then accepts no one.
      const terminated = await terminateWorkerBackends(dbName);
      await proxy.down();
      await sleep(OUTAGE_MS / 2);
      // What the rest of the API says meanwhile.
      const probes: Record<string, string> = {};
      for (const [name, path, auth] of [
        ['GET /healthz', '/healthz', null],
        ['GET /screenings', '/screenings?limit=5', undefined],
        ['GET /status', '/status', undefined],
      ] as const) {
        const a = await client.call('GET', path, { authorization: auth, timeoutMs: 20_000 }).catch((e: Error) => e);
        probes[name] = a instanceof Error ? a.name : `${a.status}${a.json?.error?.code ? ` ${a.json.error.code}` : ''}`;
      }
      await sleep(OUTAGE_MS / 2);
      await proxy.up();
      outage = { from, to: Date.now() - t0, terminated, probes };
    })();

    const results = await mapLimit(
      Array.from({ length: TENDERS }, (_, i) => i),
      16,
      async (i) => {
        const wait = t0 + i * EVERY_MS - Date.now();
        if (wait > 0) await sleep(wait);
        sent++;
        return send(i);
      },
    );
    await outageDone;
    const streamMs = Date.now() - t0;
    expect(results.map((s) => s.answer.status).filter((st) => st !== 200 && st !== 202)).toEqual([]);
    const ids = results.map((s) => s.answer.json.id as string);

    // Bounded waits that do not throw: the figures are printed whatever came of them, then checked.
    await until(
      'every screening in the record done',
      180_000,
      async () => (await unfinishedCount(inst.reader)) === 0 || undefined,
      500,
    ).catch(() => undefined);
    await until(
      'a callback for every screening',
      120_000,
      () => ids.every((id) => receiver.counts().has(`${id}:screening.completed`)) || undefined,
      250,
    ).catch(() => undefined);
    const health = await client.call('GET', '/healthz', { authorization: null });

    // ---- the figures ----
    const snap = await recordSnapshot(inst.reader);
    const byId = new Map(snap.screenings.map((s) => [s.id, s]));
    const lost = ids.filter((id) => byId.get(id)?.status !== 'done');
    const perTender = new Map<string, number>();
    for (const s of snap.screenings) perTender.set(String(s.tender_id), (perTender.get(String(s.tender_id)) ?? 0) + 1);
    const twice = [...perTender].filter(([, n]) => n > 1).map(([t]) => t);
    const completed = new Map<string, number>();
    for (const e of snap.events) if (e.event === 'screening.completed' && e.ref) completed.set(e.ref, (completed.get(e.ref) ?? 0) + 1);
    // A job the outage failed for good ends held (scoring_unavailable), and is re-screened once
    // /v1 answers (the outage re-screen): a second screening.completed, its final answer.
    const rescreened = new Set(
      [...inst.logs().matchAll(/"screening":"(scr_\w+)"[^\n]*"msg":"re-screened after an outage"/g)].map((m) => m[1]!),
    );
    const completedNot1 = snap.screenings
      .filter((s) => completed.get(s.id) !== (rescreened.has(s.id) ? 2 : 1))
      .map((s) => `${s.id}×${completed.get(s.id) ?? 0}`);
    const failedForGood = [...inst.logs().matchAll(/"msg":"screening job failed for good"/g)].length;
    const gaps = snap.events.filter((e, i) => e.id !== i + 1).length;
    const byAction: Record<string, number> = {};
    for (const s of snap.screenings) byAction[String(s.action)] = (byAction[String(s.action)] ?? 0) + 1;
    // A key whose screening the outage cut off stays claimed for a minute (docs/design/postgres.md,
    // known issues): its 409s are waited out, as a TMS does, and counted apart.
    const inProgress = answers.filter((a) => a.status === 409 && a.code === 'idempotency_in_progress');
    const notOk = answers.filter((a) => a.status !== 200 && a.status !== 202 && !inProgress.includes(a));
    const tally: Record<string, number> = {};
    for (const a of notOk) tally[`${a.status}${a.code ? ` ${a.code}` : ''}`] = (tally[`${a.status}${a.code ? ` ${a.code}` : ''}`] ?? 0) + 1;
    const firstRefused = notOk[0]?.ms;
    const lastRefused = notOk.at(-1)?.ms;
    const distinct = new Set(Array.from({ length: TENDERS }, (_, i) => carrierOf(i))).size;
    const counts = receiver.counts();
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const noCallback = ids.filter((id) => !counts.has(`${id}:screening.completed`));
    const notDone = snap.screenings.filter((s) => s.status !== 'done').length;
    const holdReasons: Record<string, number> = {};
    for (const row of await inst.reader.rows<{ hold_reason: string | null; n: number | string }>(
      "SELECT hold_reason, COUNT(*) AS n FROM screenings WHERE action = 'hold' GROUP BY hold_reason",
    ))
      holdReasons[String(row.hold_reason)] = Number(row.n);
    const outbox: Record<string, number> = {};
    for (const o of snap.outbox) outbox[o.state] = (outbox[o.state] ?? 0) + 1;

    console.info(
      [
        `pg-outage: ${TENDERS} tenders over ${distinct} carriers in ${Math.round(streamMs / 1000)} s; the server away from ${((outage?.from ?? 0) / 1000).toFixed(1)} s ` +
          `to ${((outage?.to ?? 0) / 1000).toFixed(1)} s (${outage?.terminated} of the worker's backends terminated)`,
        `  answers: ${answers.length - notOk.length - inProgress.length} accepted, ${notOk.length} refused ${JSON.stringify(tally)}, ` +
          `${inProgress.length} × 409 idempotency_in_progress waited out (last at ${((inProgress.at(-1)?.ms ?? 0) / 1000).toFixed(1)} s), ` +
          `refusals from ${((firstRefused ?? 0) / 1000).toFixed(1)} s to ${((lastRefused ?? 0) / 1000).toFixed(1)} s; ` +
          `while away: ${JSON.stringify(outage?.probes)}; /healthz after ${health.status}`,
        `  record: ${snap.screenings.length} screenings (${notDone} not done, ${lost.length} accepted and lost, tenders with two ${twice.length}), ` +
          `actions ${JSON.stringify(byAction)}, holds ${JSON.stringify(holdReasons)}, ` +
          `${failedForGood} jobs failed for good in the outage (ended held), ${rescreened.size} re-screened after it; ` +
          `without one screening.completed (two if re-screened) ${completedNot1.length} (${completedNot1.slice(0, 5).join(' ')}); events 1..${snap.events.at(-1)?.id ?? 0}, ${gaps} gaps`,
        `  /v1: ${emu.requests.length} lookups for ${distinct} carriers; callbacks: outbox ${JSON.stringify(outbox)}, ${receiver.deliveries.length} deliveries for ${counts.size} ids, ` +
          `${noCallback.length} screenings without one, ` +
          `${duplicates} more than once, ${receiver.deliveries.filter((d) => !d.signatureOk).length} badly signed`,
      ].join('\n'),
    );

    // The outage was seen, and answered as the contract says.
    expect(notOk.length, 'no request met the outage').toBeGreaterThan(0);
    expect(notOk.filter((a) => a.status !== 503)).toEqual([]);
    for (const a of notOk) expect(a.code).toBe('storage_unavailable');
    expect(outage!.probes['GET /healthz']).toMatch(/^503/);
    for (const probe of ['GET /screenings', 'GET /status']) expect(outage!.probes[probe]).toMatch(/^(200|503 storage_unavailable)$/);
    expect(inst.proc!.alive()).toBe(true);
    expect(inst.logs()).not.toMatch(/"level":60|uncaught|unhandled/i);
    // Back by itself.
    expect(health.status).toBe(200);
    // Nothing lost, nothing twice.
    expect(lost).toEqual([]);
    expect(snap.screenings).toHaveLength(TENDERS);
    expect(twice).toEqual([]);
    expect(completedNot1).toEqual([]);
    expect(gaps).toBe(0);
    expect(noCallback).toEqual([]);
    expect(receiver.deliveries.every((d) => d.signatureOk)).toBe(true);
  });
});
