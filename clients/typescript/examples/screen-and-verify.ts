/**
 * What a TMS does at tender time, end to end, with the typed client:
 *   1. listen for callbacks, and verify each one's signature before trusting it;
 *   2. screen a carrier for a load with an idempotency key (sent twice: one screening);
 *   3. wait for the answer, and for its signed callback;
 *   4. find the load's screenings again by tender id, walking the list's pages.
 *
 *   CARRIER_SCREEN_URL=http://127.0.0.1:8787 CARRIER_SCREEN_TOKEN=… \
 *   CARRIER_SCREEN_CALLBACK_SECRET_FILE=data/callback-secret node dist/clients/typescript/examples/screen-and-verify.js 1000003
 *
 * Prints one JSON line per step; exits 1 on a failed step. The callback listener binds 127.0.0.1,
 * which the worker sends to while its intake binds loopback (else add it to CALLBACK_ALLOW).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { CarrierScreen, SIGNATURE_HEADER, verifyCallbackSignature } from '../src/index.js';

function env(name: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`${name} is not set`);
    process.exit(2);
  }
  return v;
}

const say = (step: string, fields: Record<string, unknown>): void => console.log(JSON.stringify({ step, ...fields }));

async function main(): Promise<void> {
  const client = new CarrierScreen({ baseUrl: env('CARRIER_SCREEN_URL'), token: env('CARRIER_SCREEN_TOKEN') });
  const secret = readFileSync(env('CARRIER_SCREEN_CALLBACK_SECRET_FILE'), 'utf8');
  const dot = process.argv[2] ?? '1000001';
  const tenderId = `EXAMPLE-${Date.now()}`;

  // 1. The callback listener: the raw body is what the signature covers.
  let gotCallback: (v: {
    event: string;
    ok: boolean;
    body: { event?: string; version?: number; screening?: { id?: string; action?: string } };
  }) => void = () => {};
  const callback = new Promise<Parameters<typeof gotCallback>[0]>((r) => (gotCallback = r));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const check = verifyCallbackSignature(secret, req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined, raw);
      // Refuse what does not verify: the worker retries, and nothing unsigned is acted on.
      res.writeHead(check.ok ? 200 : 400).end();
      gotCallback({ event: String(req.headers['x-carrier-screen-event']), ok: check.ok, body: JSON.parse(raw.toString('utf8')) });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const callbackUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/carrier-screen`;

  try {
    // 2. Screen with one key, twice, as a TMS retrying after a time-out would.
    // The load this tender is for: the desk shows its pickup, lane and equipment on the carrier's card.
    const load = {
      pickup_at: new Date(Date.now() + 86_400_000).toISOString(),
      origin: 'Dallas, TX',
      destination: 'Memphis, TN',
      equipment: '53 ft dry van',
    };
    const key = `tender-${tenderId}`;
    const first = await client.screen({ dot_number: dot, tender_id: tenderId, callback_url: callbackUrl, load }, { idempotencyKey: key });
    const again = await client.screen({ dot_number: dot, tender_id: tenderId, callback_url: callbackUrl, load }, { idempotencyKey: key });
    say('screened', { id: first.id, status: first.status, replay_same_id: again.id === first.id });

    // 3. The answer, and its callback.
    const done = await client.waitForScreening(first.id, { timeoutMs: 60_000 });
    say('done', { id: done.id, action: done.action, pickup_at: done.load?.pickup_at ?? null });
    const cb = await Promise.race([
      callback,
      new Promise<never>((_, j) => setTimeout(() => j(new Error('no callback within 60 s')), 60_000).unref()),
    ]);
    say('callback', {
      event: cb.event,
      signature_ok: cb.ok,
      id: cb.body.screening?.id,
      action: cb.body.screening?.action,
      version: cb.body.version,
    });

    // 4. Find the load again, page by page.
    const found: string[] = [];
    for await (const s of client.list('/screenings', { tender_id: tenderId, limit: 1 })) found.push(s.id);
    say('found', { tender_id: tenderId, ids: found });
    if (!(
      again.id === first.id &&
      done.load?.pickup_at === load.pickup_at &&
      cb.ok &&
      cb.body.screening?.id === first.id &&
      found.length === 1 &&
      found[0] === first.id
    ))
      process.exitCode = 1;
  } finally {
    server.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  process.exit(1);
});
