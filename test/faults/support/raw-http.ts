import { connect } from 'node:net';

/**
 * HTTP/1.1 over a bare socket, byte for byte: the fuzz tests need request targets and
 * headers no well-behaved client would send (raw `..`, `%zz`, control characters).
 */

export interface RawRequest {
  method: string;
  /** The request target exactly as sent, e.g. `/screenings/..%2f..%2fetc`. */
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawNoAnswerError extends Error {
  override readonly name = 'RawNoAnswerError';
}

function dechunk(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(b.subarray(i, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Send one request on a fresh connection (Connection: close) and read the whole answer. */
export function rawRequest(port: number, r: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new RawNoAnswerError(`${r.method} ${r.target.slice(0, 120)}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.on('data', (c: Buffer) => chunks.push(c));
    // The server may answer (413) and close before it has read a huge body: that is fine.
    sock.on('error', () => {});
    sock.on('close', () => {
      clearTimeout(timer);
      let all: Buffer = Buffer.concat(chunks);
      // Skip interim answers (100 Continue): the final one follows.
      while (/^HTTP\/1\.[01] 1\d\d/.test(all.subarray(0, 16).toString('latin1')) && all.indexOf('\r\n\r\n') >= 0)
        all = all.subarray(all.indexOf('\r\n\r\n') + 4);
      const sep = all.indexOf('\r\n\r\n');
      if (sep < 0) return reject(new RawNoAnswerError(`${r.method} ${r.target.slice(0, 120)}: connection closed without an answer`));
      const head = all.subarray(0, sep).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const c = line.indexOf(':');
        if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
      }
      let body: Buffer = all.subarray(sep + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
      else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
      resolve({ status, headers, body: body.toString('utf8') });
    });
    sock.on('connect', () => {
      const lines = [`${r.method} ${r.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
      const hasLength = r.headers.some(([k]) => k.toLowerCase() === 'content-length' || k.toLowerCase() === 'transfer-encoding');
      for (const [k, v] of r.headers) lines.push(`${k}: ${v}`);
      if (r.body !== undefined && !hasLength) lines.push(`Content-Length: ${r.body.length}`);
      sock.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
      if (r.body !== undefined) sock.write(r.body);
    });
  });
}
