import createClient from 'openapi-fetch';
import type { paths } from '../shared/intake-api.js';
import type { Review, StatusReport } from '../shared/screening.js';

/**
 * `carrier-screen status`: what a running worker is doing, for a person at a terminal —
 * queue, quota, rate limit, pending reviews and /v1 reachability — from its intake API.
 * Exit codes: 0 shown, 1 worker unreachable or answering errors, 2 no token / token refused / its TLS certificate not trusted.
 */

export interface StatusOptions {
  url: string;
  token: string | undefined;
  json: boolean;
  /** Where output goes (tests capture it); default stdout / stderr. */
  out?: (text: string) => void;
  err?: (text: string) => void;
  timeoutMs?: number;
}

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The generated client (shared/intake-api.ts): the paths and answers are the server's own spec. */
function intakeClient(base: string, token: string, timeoutMs: number) {
  return createClient<paths>({
    baseUrl: base.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    fetch: (req) => fetch(req, { signal: AbortSignal.timeout(timeoutMs) }),
  });
}

/** Node's codes for a certificate the client refused (untrusted, expired, wrong name …). */
function isCertificateProblem(code: string): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ERR_TLS_CERT_ALTNAME_INVALID/.test(code);
}

/** One call's data, or the CliError a person at a terminal can act on. */
async function answer<T>(base: string, path: string, call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let r;
  try {
    r = await call();
  } catch (e) {
    if (e instanceof SyntaxError)
      throw new CliError(`${base}${path} answered with something that is not JSON: is this the carrier-screen intake?`, 1);
    const cause = (e as { cause?: { code?: string } }).cause;
    const code = cause?.code ?? (e as Error).name;
    // It answered, but over TLS with a certificate we do not accept: not a worker that is down.
    if (isCertificateProblem(code))
      throw new CliError(
        `the worker at ${base} answered, but its TLS certificate is not accepted here (${code}): trust its CA with NODE_EXTRA_CA_CERTS=<ca.pem>, or use --url with a host name the certificate names (docs/operations.md "TLS")`,
        2,
      );
    throw new CliError(`cannot reach the worker at ${base} (${code}). Is it running? Start it with: npx carrier-screen start`, 1);
  }
  if (r.response.status === 401)
    throw new CliError(
      'the worker refused the intake token (401). Use the token from INTAKE_TOKEN or the intake-token file in the data dir (SCREEN_DATA_DIR; beside the database by default).',
      2,
    );
  if (r.data === undefined || r.response.status !== 200) {
    const msg = (r.error as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${r.response.status}`;
    throw new CliError(`${path}: ${msg}`, 1);
  }
  return r.data;
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(rows: string[][], indent = ''): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows
    .map(
      (r) =>
        indent +
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

const n = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : v.toLocaleString('en-US'));
const day = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : '–');
const minute = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')}Z` : '–');
const clock = (iso: string | null | undefined): string => (iso ? `${iso.slice(11, 19)}Z` : '–');

function carrierOf(r: Review): string {
  const q = r.screening.query;
  return 'dot_number' in q ? `DOT ${q.dot_number}` : q.mc_number;
}

export function formatStatus(s: StatusReport, pending: Review[], url: string): string {
  const q = s.queue;
  const quota = s.quota;
  const quotaLine = !quota.livemode
    ? `sandbox: lookups are not counted · gate ${quota.gate}`
    : `used ${n(quota.used)} of ${n(quota.monthly_quota)} · remaining ${n(quota.remaining)} · gate ${quota.gate}` +
      `${quota.gate === 'closed' ? ' (no live lookups)' : quota.gate === 'reserve' ? ' (tender-time only)' : ''} · resets ${day(quota.resets_at)}`;
  const svc = s.service;
  const svcLine = svc.key_rejected
    ? `KEY REJECTED${svc.last_error ? `: ${svc.last_error}` : ''}`
    : svc.reachable
      ? `reachable (checked ${minute(svc.checked_at)})`
      : `UNREACHABLE${svc.last_error ? `: ${svc.last_error}` : ''} (checked ${minute(svc.checked_at)}); cached scores still served`;
  const lines = [
    `carrier-screen status — ${s.environment} — ${url}`,
    '',
    table([
      [
        'Queue',
        `waiting ${n(q.waiting)} · active ${n(q.active)} · delayed ${n(q.delayed)} · failed ${n(q.failed)} · ${q.paused ? 'PAUSED' : 'running'}`,
      ],
      ['Quota', quotaLine],
      [
        'Rate limit',
        `${n(s.rate_limit.per_minute)}/min · remaining ${n(s.rate_limit.remaining)} · resets ${clock(s.rate_limit.resets_at)}`,
      ],
      ['Reviews', `${n(s.reviews.pending)} pending`],
      // The callback outbox; absent from an older worker.
      ...(s.callbacks
        ? [
            [
              'Callbacks',
              `${n(s.callbacks.pending)} pending · ${n(s.callbacks.dead)} dead${s.callbacks.dead > 0 ? ' (retry: POST /callbacks/:id/retry)' : ''}`,
            ],
          ]
        : []),
      ['/v1', svcLine],
    ]),
  ];
  if (pending.length > 0) {
    lines.push('', 'Pending reviews (oldest first):');
    const rows = [['REVIEW', 'CARRIER', 'TENDER', 'REASON', 'SINCE']];
    for (const r of pending) rows.push([r.id, carrierOf(r), r.screening.tender_id ?? '–', r.hold_reason, minute(r.created_at)]);
    lines.push(table(rows, '  '));
    if (s.reviews.pending > pending.length) lines.push(`  … and ${s.reviews.pending - pending.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runStatus(o: StatusOptions): Promise<number> {
  const out = o.out ?? ((t: string) => void process.stdout.write(t));
  const err = o.err ?? ((t: string) => void process.stderr.write(t));
  const timeoutMs = o.timeoutMs ?? 5_000;
  try {
    try {
      new URL(o.url);
    } catch {
      throw new CliError(`--url ${o.url} is not a URL (e.g. http://127.0.0.1:8787)`, 1);
    }
    if (!o.token)
      throw new CliError(
        'no intake token: set INTAKE_TOKEN, or run `npx carrier-screen start` once (it writes intake-token in the data dir, SCREEN_DATA_DIR: beside the database by default)',
        2,
      );
    const api = intakeClient(o.url, o.token, timeoutMs);
    const status = (await answer(o.url, '/status', () => api.GET('/status'))) as StatusReport;
    if (o.json) {
      out(`${JSON.stringify(status, null, 2)}\n`);
      return 0;
    }
    const reviews = await answer(o.url, '/reviews', () => api.GET('/reviews', { params: { query: { state: 'pending', limit: 20 } } }));
    out(formatStatus(status, reviews.data as Review[], o.url));
    return 0;
  } catch (e) {
    if (e instanceof CliError) {
      err(`carrier-screen status: ${e.message}\n`);
      return e.exitCode;
    }
    err(`carrier-screen status: ${(e as Error).message}\n`);
    return 1;
  }
}
