import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';

/**
 * How the tray reaches its worker when the worker's certificate comes from the broker's own CA
 * (docs/operations.md "TLS"): CARRIER_SCREEN_CA_FILE names a PEM file of CA certificates the
 * tray trusts for the worker, besides the public roots. Electron's net.fetch verifies with the
 * OS trust store only, so with a CA file the tray's HTTP client is this fetch over Node's own
 * TLS (a direct connection: no system proxy). Never imports `electron`.
 */

export type FetchLike = (input: string | Request, init?: RequestInit) => Promise<Response>;

export const CA_FILE_ENV = 'CARRIER_SCREEN_CA_FILE';

export class CaFileError extends Error {
  override readonly name = 'CaFileError';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** The CA file's PEM text, checked: readable, and every certificate in it parses. */
export function readCaFile(path: string, param = CA_FILE_ENV): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CaFileError(`${param}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, param);
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new CaFileError(`${param}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, param);
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch {
      throw new CaFileError(`${param}: ${path} holds a certificate that does not parse`, param);
    }
  }
  return blocks.join('\n');
}

/**
 * A fetch whose https connections trust the public roots and `caPem` (TLS 1.2 or later, the
 * host name checked as always). Bodies stream both ways as with fetch, so the event stream and
 * the audit export work through it; `signal` aborts the request and its body.
 */
export function fetchTrustingCa(caPem: string): FetchLike {
  const agent = new HttpsAgent({ ca: [...rootCertificates, caPem], keepAlive: true, minVersion: 'TLSv1.2' });
  return async (input, init) => {
    const r = new Request(input, init);
    const url = new URL(r.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`fetch: unsupported protocol ${url.protocol}`);
    const body = r.body ? Buffer.from(await r.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        { method: r.method, headers, signal: r.signal, ...(url.protocol === 'https:' ? { agent } : {}) },
        (res: IncomingMessage) => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) h.append(k, x);
            else if (v !== undefined) h.set(k, v);
          }
          const status = res.statusCode ?? 0;
          const noBody = r.method === 'HEAD' || status === 204 || status === 205 || status === 304;
          if (noBody) res.resume();
          resolve(
            new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              statusText: res.statusMessage ?? '',
              headers: h,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

/**
 * The fetch the tray uses for its worker: `fallback` (Electron's net.fetch) without a CA file,
 * else one that trusts it. Throws CaFileError naming the variable for a bad file.
 */
export function workerFetch(o: { caFile: string | undefined; fallback: FetchLike }): FetchLike {
  const path = o.caFile?.trim();
  if (!path) return o.fallback;
  return fetchTrustingCa(readCaFile(path));
}
