import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/shared/bridge.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import { CaFileError, readCaFile, workerFetch, type FetchLike } from '../../electron/main/worker-fetch.js';
import { mkdirTemp, until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { makeTestCerts, type TestCerts } from '../helpers/test-ca.js';

/**
 * The tray reaches a worker whose certificate a broker's own CA signed (issue 26): its HTTP
 * client, given CARRIER_SCREEN_CA_FILE, makes a real TLS handshake with the real intake
 * (certificates made by openssl), JSON calls and the event stream included; without the CA,
 * or with another CA, the handshake fails and the tray says the worker is unreachable.
 */

let stack: Stack;
let ours: TestCerts;
let other: TestCerts;
const netFetchStandIn: FetchLike = (input, init) => fetch(input, init); // what net.fetch would be: no extra CA

beforeAll(async () => {
  ours = makeTestCerts(mkdirTemp('cs-tray-ca-'));
  other = makeTestCerts(mkdirTemp('cs-tray-other-ca-'));
  stack = await startStack({ tls: { cert: readFileSync(ours.certPath), key: readFileSync(ours.keyPath) } });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const bridgeWith = (fetchFn: FetchLike, baseUrl = stack.intakeUrl) =>
  new HttpBridge({ baseUrl, token: stack.token, fetch: fetchFn, requestTimeoutMs: 10_000, backoff: { initialMs: 50, maxMs: 200 } });

describe('the tray with CARRIER_SCREEN_CA_FILE', () => {
  it('talks https to the worker trusting the CA file: JSON calls and the event stream', async () => {
    expect(stack.intakeUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);
    const bridge = bridgeWith(workerFetch({ caFile: ours.caPath, fallback: netFetchStandIn }));
    try {
      expect(await bridge.getStatus()).toMatchObject({ object: 'status' });
      expect(await bridge.whoAmI()).toMatchObject({ object: 'caller' });
      // The name the certificate carries works as well as its address.
      const byName = bridgeWith(
        workerFetch({ caFile: ours.caPath, fallback: netFetchStandIn }),
        stack.intakeUrl.replace('127.0.0.1', 'localhost'),
      );
      expect(await byName.getStatus()).toMatchObject({ object: 'status' });
      // A POST with a body, streamed back as JSON.
      const s = await bridge.recheckCarrier({ dot_number: '1000001' });
      expect(s).toMatchObject({ object: 'screening' });
      // The event stream stays open over the same TLS client and carries the screening's news.
      const states: ConnectionState[] = [];
      const events: string[] = [];
      bridge.onConnectionChange((st) => states.push(st));
      bridge.onEvent((e) => events.push(e.event));
      await until('the event stream open', 15_000, () => bridge.connectionState() === 'open');
      await bridge.recheckCarrier({ dot_number: '1000002' });
      await until('an event over the stream', 15_000, () => events.length > 0);
      expect(states).not.toContain('unauthorized');
    } finally {
      bridge.close();
    }
  });

  it('without it (or with another CA) the handshake fails: the worker is unreachable, saying why', async () => {
    for (const fetchFn of [
      workerFetch({ caFile: undefined, fallback: netFetchStandIn }),
      workerFetch({ caFile: other.caPath, fallback: netFetchStandIn }),
    ]) {
      const err = await bridgeWith(fetchFn)
        .getStatus()
        .then(
          () => undefined,
          (e: unknown) => e as { code: string; message: string },
        );
      expect(err).toMatchObject({ code: 'unreachable' });
      expect(err!.message).toMatch(/certificate/i);
    }
  });

  it('a CA file that cannot be used stops with an error naming the variable', () => {
    const dir = mkdirTemp('cs-tray-bad-ca-');
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello\n');
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    for (const path of [join(dir, 'missing.pem'), notPem, broken]) {
      expect(() => readCaFile(path)).toThrow(CaFileError);
      expect(() => workerFetch({ caFile: path, fallback: netFetchStandIn })).toThrow(/CARRIER_SCREEN_CA_FILE/);
    }
    expect(readCaFile(ours.caPath)).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });
});
