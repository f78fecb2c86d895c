import type {
  Caller,
  CarrierChange,
  DailyUsage,
  Decision,
  IntakeEvent,
  LocalBlock,
  Review,
  ReviewState,
  Screening,
  StatusReport,
} from '../../shared/screening.js';
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff.js';
import {
  BLOCK_LIST_STATES,
  CHANGE_STATES,
  DECISION_LIST_STATES,
  IntakeError,
  type BlockInput,
  type BlockListState,
  type CarrierFilter,
  type ChangeState,
  type ConnectionState,
  type DecisionListState,
  type DeskBridge,
  type HistoryPage,
  type RecheckInput,
  type ReviewDecision,
  type ReviewVerdict,
  type ScreeningSearch,
} from './bridge.js';
import { SseParser, type SseMessage } from './sse-parser.js';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../shared/intake-api.js';

/**
 * DeskBridge over the intake's HTTP API with fetch. Runs in a browser (the /ui/ build)
 * and in Node (the Electron main, which holds the token). The event stream is read with
 * fetch, not EventSource, so it can carry the Bearer token; on loss it reconnects with
 * backoff and `Last-Event-ID`, so the intake can replay what was missed.
 */

export interface HttpBridgeOptions {
  /** Intake base URL, e.g. http://127.0.0.1:8787 (no trailing path needed). */
  baseUrl: string;
  token: string;
  backoff?: BackoffOptions;
  /** No byte (not even a `:hb` heartbeat) for this long: treat the stream as dead. */
  idleTimeoutMs?: number;
  /** Per-request timeout for the JSON calls. */
  requestTimeoutMs?: number;
  random?: () => number;
  /**
   * After the intake refused the token (401/403), try again this much later: the token may be
   * re-enabled, or a proxy's 403 may pass. Settings → Save reconnects at once (reconnect()).
   */
  refusedRetryMs?: number;
  /** The fetch to use: Electron's main passes net.fetch (system proxy, OS trust store). */
  fetch?: (input: string | Request, init?: RequestInit) => Promise<Response>;
}

const REVIEW_STATES: readonly ReviewState[] = ['pending', 'approved', 'rejected', 'superseded'];
/** Pages of 100 a list call follows at most: 2 000 items. */
const LIST_PAGES = 20;

/** Check and normalise an intake base URL; the error names the parameter. */
export function normalizeBaseUrl(baseUrl: string, param = 'baseUrl'): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${param} must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${param} must use http or https, got ${url.protocol}`);
  if (url.username || url.password) throw new TypeError(`${param} must not carry credentials`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export class HttpBridge implements DeskBridge {
  private readonly base: string;
  private readonly token: string;
  private readonly backoff: BackoffOptions;
  private readonly idleTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly refusedRetryMs: number;
  private readonly random: () => number;
  private readonly fetch: (input: string | Request, init?: RequestInit) => Promise<Response>;
  private readonly api: Client<paths>;

  private readonly eventListeners = new Set<(e: IntakeEvent) => void>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();
  private state: ConnectionState = 'closed';
  private running = false;
  private stopped = false;
  private streamAbort: AbortController | undefined;
  private wake: (() => void) | undefined;
  private lastEventId = '';
  /** Failed connection attempts in a row (the backoff step). */
  private attempt = 0;
  /** A `retry:` from the server raises the first reconnect delay. */
  private serverRetryMs = 0;

  constructor(opts: HttpBridgeOptions) {
    this.base = normalizeBaseUrl(opts.baseUrl);
    if (typeof opts.token !== 'string' || opts.token.trim() === '') throw new TypeError('token must be a non-empty string');
    this.token = opts.token.trim();
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    this.refusedRetryMs = opts.refusedRetryMs ?? 60_000;
    this.random = opts.random ?? Math.random;
    this.fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.api = createClient<paths>({ baseUrl: this.base, fetch: (req) => this.fetch(req) });
  }

  get baseUrl(): string {
    return this.base;
  }

  // ---- JSON calls: the client generated from the intake's /openapi.json (shared/intake-api.ts) ----

  getStatus(): Promise<StatusReport> {
    return this.call('/status', (o) => this.api.GET('/status', o));
  }

  whoAmI(): Promise<Caller> {
    return this.call('/me', (o) => this.api.GET('/me', o));
  }

  /** Every item of a state (following the cursor, at most LIST_PAGES pages): the desk shows them all. */
  async listReviews(state: ReviewState): Promise<Review[]> {
    if (!REVIEW_STATES.includes(state))
      throw new TypeError(`state must be one of ${REVIEW_STATES.join(', ')}, got ${JSON.stringify(state)}`);
    return this.all<Review>('/reviews', (after, o) =>
      this.api.GET('/reviews', { ...o, params: { query: { state, limit: 100, ...after } } }),
    );
  }

  /** One page of the latest decisions (approved or rejected), newest first: never every page of both states. */
  async recentDecisions(limit: number): Promise<Review[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new TypeError(`limit must be a whole number from 1 to 100, got ${JSON.stringify(limit)}`);
    const page = await this.call<{ data: Review[] }>('/reviews', (o) =>
      this.api.GET('/reviews', { ...o, params: { query: { state: 'decided', limit } } }),
    );
    return page.data;
  }

  resolveReview(id: string, verdict: ReviewVerdict, decision: ReviewDecision): Promise<Review> {
    requireId(id, 'id');
    if (verdict !== 'approve' && verdict !== 'reject')
      throw new TypeError(`verdict must be approve or reject, got ${JSON.stringify(verdict)}`);
    const by = optionalName(decision?.by, 'by');
    const version = decision?.review_version;
    if (version != null && !(Number.isInteger(version) && version >= 0))
      throw new TypeError(`review_version must be a whole number, got ${JSON.stringify(version)}`);
    // No `by` with a named token: the intake records the token's name. The version of what was shown, always when known.
    const body: { by?: string; note: string } = {
      ...(by === null ? {} : { by }),
      note: typeof decision?.note === 'string' ? decision.note : '',
      ...(version == null ? {} : { review_version: version }),
    };
    const path = { params: { path: { id } } };
    return verdict === 'approve'
      ? this.call(`/reviews/${id}/approve`, (o) => this.api.POST('/reviews/{id}/approve', { ...o, ...path, body }))
      : this.call(`/reviews/${id}/reject`, (o) =>
          this.api.POST('/reviews/{id}/reject', { ...o, ...path, body: { ...body, ...(decision.block === true ? { block: true } : {}) } }),
        );
  }

  async listDecisions(state: DecisionListState, filter: CarrierFilter = {}): Promise<Decision[]> {
    if (!DECISION_LIST_STATES.includes(state))
      throw new TypeError(`state must be one of ${DECISION_LIST_STATES.join(', ')}, got ${JSON.stringify(state)}`);
    const dot = dotFilter(filter);
    return this.all<Decision>('/decisions', (after, o) =>
      this.api.GET('/decisions', { ...o, params: { query: { state, ...dot, limit: 100, ...after } } }),
    );
  }

  revokeDecision(id: string, by: string | null, note: string): Promise<Decision> {
    requireId(id, 'id');
    const name = optionalName(by, 'by');
    return this.call(`/decisions/${id}/revoke`, (o) =>
      this.api.POST('/decisions/{id}/revoke', {
        ...o,
        params: { path: { id } },
        body: { ...(name === null ? {} : { by: name }), note: typeof note === 'string' ? note : '' },
      }),
    );
  }

  recheckCarrier(input: RecheckInput): Promise<Screening> {
    const dot = typeof input?.dot_number === 'string' ? input.dot_number.trim() : '';
    const mc = typeof input?.mc_number === 'string' ? input.mc_number.trim() : '';
    if ((dot === '') === (mc === '')) throw new TypeError('exactly one of dot_number or mc_number must be given');
    // wait=10: the answer is usually the finished screening; a 202 (queued) is returned as it is.
    return this.call('/screenings', (o) =>
      this.api.POST('/screenings', {
        ...o,
        params: { query: { wait: 10 } },
        body: { ...(dot ? { dot_number: dot } : { mc_number: mc }), refresh: true },
      }),
    );
  }

  /**
   * The audit CSV of [from, to), handed over chunk by chunk as it arrives: no overall time limit
   * (a large range takes minutes), nothing held in memory. Only a stall (no byte for
   * idleTimeoutMs) or `signal` stops it. Resolves with the byte count.
   */
  async streamAuditCsv(
    from: string,
    to: string,
    write: (chunk: Uint8Array) => Promise<void> | void,
    opts: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
  ): Promise<number> {
    for (const [v, param] of [
      [from, 'from'],
      [to, 'to'],
    ] as const)
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v))
        throw new TypeError(`${param} must be an ISO 8601 date, got ${JSON.stringify(v)}`);
    const ctrl = new AbortController();
    const abortOuter = (): void => ctrl.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', abortOuter, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = (): void => {
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => ctrl.abort(new Error(`no data from the worker for ${this.idleTimeoutMs / 1000} s`)), this.idleTimeoutMs);
    };
    const qs = new URLSearchParams({ from, to });
    try {
      armIdle();
      let res: Response;
      try {
        res = await this.fetch(`${this.base}/audit.csv?${qs}`, {
          headers: { authorization: `Bearer ${this.token}`, accept: 'text/csv, application/json' },
          signal: ctrl.signal,
          cache: 'no-store',
        });
      } catch (err) {
        throw new IntakeError(`worker unreachable at ${this.base}: ${errorText(err)}`, 0, 'unreachable');
      }
      if (!res.ok || res.body === null) {
        const text = await res.text().catch(() => '');
        let e: { code?: unknown; message?: unknown; param?: unknown } | undefined;
        try {
          e = (JSON.parse(text) as { error?: typeof e }).error;
        } catch {
          e = undefined;
        }
        throw new IntakeError(
          typeof e?.message === 'string' ? e.message : `/audit.csv answered HTTP ${res.status}`,
          res.status,
          typeof e?.code === 'string' ? e.code : `http_${res.status}`,
          typeof e?.param === 'string' ? e.param : undefined,
        );
      }
      const reader = res.body.getReader();
      let bytes = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          armIdle();
          await write(value);
          bytes += value.byteLength;
          opts.onProgress?.(bytes);
        }
      } catch (err) {
        await reader.cancel().catch(() => undefined);
        if (err instanceof IntakeError) throw err;
        throw new IntakeError(
          `the audit export stopped after ${bytes} bytes: ${errorText(ctrl.signal.aborted ? (ctrl.signal.reason ?? err) : err)}`,
          0,
          'export_interrupted',
        );
      }
      return bytes;
    } finally {
      if (idle !== undefined) clearTimeout(idle);
      opts.signal?.removeEventListener('abort', abortOuter);
    }
  }

  async listScreenings(limit: number): Promise<Screening[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new TypeError(`limit must be a whole number from 1 to 100, got ${limit}`);
    const list = await this.call<{ data: Screening[] }>('/screenings', (o) =>
      this.api.GET('/screenings', { ...o, params: { query: { limit } } }),
    );
    return list.data;
  }

  getScreening(id: string): Promise<Screening> {
    requireId(id, 'id');
    return this.call(`/screenings/${id}`, (o) => this.api.GET('/screenings/{id}', { ...o, params: { path: { id } } }));
  }

  async searchScreenings(filter: ScreeningSearch, limit: number): Promise<Screening[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new TypeError(`limit must be a whole number from 1 to 100, got ${limit}`);
    const query: ScreeningSearch = {};
    for (const k of ['dot_number', 'mc_number', 'tender_id'] as const) {
      const v = filter?.[k];
      if (v === undefined) continue;
      if (typeof v !== 'string' || v.trim() === '') throw new TypeError(`${k} must be a non-empty string`);
      query[k] = v.trim();
    }
    if (Object.keys(query).length === 0) throw new TypeError('search by dot_number, mc_number or tender_id');
    const list = await this.call<{ data: Screening[] }>('/screenings', (o) =>
      this.api.GET('/screenings', { ...o, params: { query: { ...query, limit } } }),
    );
    return list.data;
  }

  getReview(id: string): Promise<Review> {
    requireId(id, 'id');
    return this.call(`/reviews/${id}`, (o) => this.api.GET('/reviews/{id}', { ...o, params: { path: { id } } }));
  }

  dailyUsage(): Promise<DailyUsage> {
    return this.call('/usage/daily', (o) => this.api.GET('/usage/daily', o));
  }

  pauseQueue(): Promise<StatusReport> {
    return this.call('/queue/pause', (o) => this.api.POST('/queue/pause', o));
  }

  resumeQueue(): Promise<StatusReport> {
    return this.call('/queue/resume', (o) => this.api.POST('/queue/resume', o));
  }

  async listChanges(state: ChangeState | 'all', filter: CarrierFilter = {}): Promise<CarrierChange[]> {
    if (state !== 'all' && !CHANGE_STATES.includes(state))
      throw new TypeError(`state must be one of ${CHANGE_STATES.join(', ')} or all, got ${JSON.stringify(state)}`);
    const dot = dotFilter(filter);
    return this.all<CarrierChange>('/changes', (after, o) =>
      this.api.GET('/changes', { ...o, params: { query: { state, ...dot, limit: 100, ...after } } }),
    );
  }

  acknowledgeChange(id: string, by: string | null, note?: string | null): Promise<CarrierChange> {
    requireId(id, 'id');
    const name = optionalName(by, 'by');
    const text = typeof note === 'string' ? note.trim() : '';
    if (text.length > 500) throw new TypeError(`note must be at most 500 characters, got ${text.length}`);
    const body = { ...(name === null ? {} : { by: name }), ...(text === '' ? {} : { note: text }) };
    return this.call(`/changes/${id}/acknowledge`, (o) =>
      this.api.POST('/changes/{id}/acknowledge', { ...o, params: { path: { id } }, body }),
    );
  }

  async recentChanges(state: ChangeState, limit: number): Promise<CarrierChange[]> {
    if (!CHANGE_STATES.includes(state))
      throw new TypeError(`state must be one of ${CHANGE_STATES.join(', ')}, got ${JSON.stringify(state)}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new TypeError(`limit must be a whole number from 1 to 100, got ${JSON.stringify(limit)}`);
    const page = await this.call<{ data: CarrierChange[] }>('/changes', (o) =>
      this.api.GET('/changes', { ...o, params: { query: { state, limit } } }),
    );
    return page.data;
  }

  async listBlocks(state: BlockListState, filter: CarrierFilter = {}): Promise<LocalBlock[]> {
    if (!BLOCK_LIST_STATES.includes(state))
      throw new TypeError(`state must be one of ${BLOCK_LIST_STATES.join(', ')}, got ${JSON.stringify(state)}`);
    const dot = dotFilter(filter);
    return this.all<LocalBlock>('/blocks', (after, o) =>
      this.api.GET('/blocks', { ...o, params: { query: { state, ...dot, limit: 100, ...after } } }),
    );
  }

  blockCarrier(input: BlockInput): Promise<LocalBlock> {
    const dot = typeof input?.dot_number === 'string' ? input.dot_number.trim() : '';
    const mc = typeof input?.mc_number === 'string' ? input.mc_number.trim() : '';
    if ((dot === '') === (mc === '')) throw new TypeError('exactly one of dot_number or mc_number must be given');
    const by = requireName(input.by, 'by');
    if (typeof input.reason !== 'string' || input.reason.trim() === '') throw new TypeError('reason must say why the carrier is blocked');
    return this.call('/blocks', (o) =>
      this.api.POST('/blocks', { ...o, body: { ...(dot ? { dot_number: dot } : { mc_number: mc }), by, reason: input.reason.trim() } }),
    );
  }

  liftBlock(carrier: string, by: string, note?: string): Promise<LocalBlock> {
    requireId(carrier, 'carrier');
    const name = requireName(by, 'by');
    if (note !== undefined && typeof note !== 'string') throw new TypeError('note must be a string');
    const why = note?.trim() ?? '';
    // DELETE carries no body (proxies drop it): who lifts and why go in the query.
    return this.call(`/blocks/${carrier}`, (o) =>
      this.api.DELETE('/blocks/{dot}', {
        ...o,
        params: { path: { dot: carrier.trim() }, query: { by: name, ...(why === '' ? {} : { note: why }) } },
      }),
    );
  }

  /** Per call: the token, a time-out, no HTTP cache. */
  private opts(): { headers: Record<string, string>; signal: AbortSignal; cache: RequestCache } {
    return {
      headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(this.requestTimeoutMs),
      cache: 'no-store',
    };
  }

  /** One call's data, or an IntakeError with the intake's code (or `unreachable` / `bad_response`). */
  private async call<T>(
    path: string,
    run: (o: ReturnType<HttpBridge['opts']>) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  ): Promise<T> {
    let r: { data?: unknown; error?: unknown; response: Response };
    try {
      r = await run(this.opts());
    } catch (err) {
      if (err instanceof SyntaxError) throw new IntakeError(`${path} answered with a body that is not JSON`, 0, 'bad_response');
      throw new IntakeError(`worker unreachable at ${this.base}: ${errorText(err)}`, 0, 'unreachable');
    }
    if (!r.response.ok) {
      const e = (r.error as { error?: { code?: unknown; message?: unknown; param?: unknown; review?: unknown } } | undefined)?.error;
      const code = typeof e?.code === 'string' ? e.code : `http_${r.response.status}`;
      const message = typeof e?.message === 'string' ? e.message : `${path} answered HTTP ${r.response.status}`;
      const review =
        typeof e?.review === 'object' && e.review !== null && (e.review as { object?: unknown }).object === 'review'
          ? (e.review as Review)
          : undefined;
      throw new IntakeError(message, r.response.status, code, typeof e?.param === 'string' ? e.param : undefined, review);
    }
    if (r.data === undefined) throw new IntakeError(`${path} answered with a body that is not JSON`, r.response.status, 'bad_response');
    return r.data as T;
  }

  /** One page of lifted blocks, latest lift first, from the cursor when given: never every page. */
  async liftedBlocks(limit: number, startingAfter?: string): Promise<HistoryPage<LocalBlock>> {
    checkPage(limit, startingAfter);
    const after = startingAfter === undefined ? {} : { starting_after: startingAfter };
    const page = await this.call<HistoryPage<LocalBlock>>('/blocks', (o) =>
      this.api.GET('/blocks', { ...o, params: { query: { state: 'lifted', limit, ...after } } }),
    );
    return { data: page.data, has_more: page.has_more === true };
  }

  /** One page of ended decisions (lapsed or revoked), latest end first, from the cursor when given: never every page. */
  async endedDecisions(limit: number, startingAfter?: string): Promise<HistoryPage<Decision>> {
    checkPage(limit, startingAfter);
    const after = startingAfter === undefined ? {} : { starting_after: startingAfter };
    const page = await this.call<HistoryPage<Decision>>('/decisions', (o) =>
      this.api.GET('/decisions', { ...o, params: { query: { state: 'ended', limit, ...after } } }),
    );
    return { data: page.data, has_more: page.has_more === true };
  }

  /** A whole list, page after page (starting_after), at most LIST_PAGES pages. */
  private async all<T extends { id: string }>(
    path: string,
    page: (
      after: { starting_after?: string },
      o: ReturnType<HttpBridge['opts']>,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let after: string | undefined;
    for (let i = 0; i < LIST_PAGES; i++) {
      const list = await this.call<{ data: T[]; has_more?: boolean }>(path, (o) =>
        page(after === undefined ? {} : { starting_after: after }, o),
      );
      out.push(...list.data);
      if (!list.has_more || list.data.length === 0) break;
      after = list.data[list.data.length - 1]!.id;
    }
    return out;
  }

  // ---- events ----

  onEvent(cb: (event: IntakeEvent) => void): () => void {
    this.eventListeners.add(cb);
    if (!this.running && !this.stopped) void this.runStream();
    return () => {
      this.eventListeners.delete(cb);
    };
  }

  connectionState(): ConnectionState {
    return this.state;
  }

  onConnectionChange(cb: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(cb);
    return () => {
      this.stateListeners.delete(cb);
    };
  }

  /** Try the stream again now, from the first backoff step (e.g. after Settings → Save). */
  reconnect(): void {
    if (this.stopped) return;
    this.attempt = 0;
    this.streamAbort?.abort();
    this.wake?.();
    if (!this.running && this.eventListeners.size > 0) void this.runStream();
  }

  /** Stop the event stream for good; JSON calls still work. */
  close(): void {
    this.stopped = true;
    this.streamAbort?.abort();
    this.wake?.();
    this.setState('closed');
  }

  private setState(s: ConnectionState): void {
    if (this.state === s) return;
    this.state = s;
    for (const cb of [...this.stateListeners]) {
      try {
        cb(s);
      } catch {
        /* a listener's failure must not stop the stream */
      }
    }
  }

  private async runStream(): Promise<void> {
    this.running = true;
    this.attempt = 0;
    let everOpened = false;
    let refused = false;
    while (!this.stopped) {
      // While refused, say so until a try gets in: "Connecting…" would promise what a retry cannot.
      if (!refused) this.setState(everOpened ? 'reconnecting' : 'connecting');
      const outcome = await this.connectOnce();
      if (outcome === 'opened') {
        everOpened = true;
        this.attempt = 0;
      }
      if (this.stopped) break;
      refused = outcome === 'unauthorized';
      // A refusal is not final (a re-enabled token, a proxy's passing 403): try again, slowly.
      this.setState(refused ? 'unauthorized' : 'reconnecting');
      const delay = refused ? this.refusedRetryMs : Math.max(this.serverRetryMs, backoffDelay(this.attempt, this.backoff, this.random));
      this.attempt++;
      await this.sleep(delay);
    }
    this.running = false;
  }

  /** One connection: resolves when it ends, whatever the cause. */
  private async connectOnce(): Promise<'opened' | 'failed' | 'unauthorized'> {
    const ctrl = new AbortController();
    this.streamAbort = ctrl;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = (): void => {
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => ctrl.abort(), this.idleTimeoutMs);
    };
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      accept: 'text/event-stream',
      'cache-control': 'no-cache',
    };
    if (this.lastEventId !== '') headers['last-event-id'] = this.lastEventId;
    let opened = false;
    try {
      armIdle();
      const res = await this.fetch(`${this.base}/events`, { headers, signal: ctrl.signal, cache: 'no-store' });
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel().catch(() => undefined);
        return 'unauthorized';
      }
      if (!res.ok || res.body === null) {
        await res.body?.cancel().catch(() => undefined);
        return 'failed';
      }
      opened = true;
      this.setState('open');
      const parser = new SseParser(
        {
          onMessage: (m) => this.deliver(m),
          onRetry: (ms) => {
            this.serverRetryMs = Math.min(ms, this.backoff.maxMs);
          },
        },
        this.lastEventId,
      );
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        armIdle();
        parser.push(decoder.decode(value, { stream: true }));
        this.lastEventId = parser.lastEventId;
      }
      parser.push(decoder.decode());
      this.lastEventId = parser.lastEventId;
    } catch {
      /* network error, abort or idle timeout: the caller reconnects */
    } finally {
      if (idle !== undefined) clearTimeout(idle);
      this.streamAbort = undefined;
    }
    return opened ? 'opened' : 'failed';
  }

  private deliver(m: SseMessage): void {
    let data: unknown;
    try {
      data = JSON.parse(m.data);
    } catch {
      data = m.data; // not JSON: hand it over as text rather than drop it
    }
    const id = Number(m.id);
    const event: IntakeEvent = { id: Number.isFinite(id) ? id : 0, event: m.event, data };
    for (const cb of [...this.eventListeners]) {
      try {
        cb(event);
      } catch {
        /* one listener's failure must not stop the others */
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}

function requireId(id: unknown, param: string): void {
  if (typeof id !== 'string' || id.trim() === '') throw new TypeError(`${param} must be a non-empty string`);
}

function requireName(by: unknown, param: string): string {
  if (typeof by !== 'string' || by.trim() === '') throw new TypeError(`${param} must be the dispatcher's name`);
  return by.trim();
}

/** A name given (trimmed), or null for "the token's name"; an empty or blank string is refused. */
function optionalName(by: unknown, param: string): string | null {
  if (by === undefined || by === null) return null;
  return requireName(by, param);
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

/** A carrier filter's DOT number as the query wants it; a bad one is refused here, not by the intake. */
function dotFilter(filter: CarrierFilter | undefined): { dot_number?: string } {
  const dot = filter?.dot_number;
  if (dot === undefined) return {};
  if (typeof dot !== 'string' || !/^\d{1,8}$/.test(dot.trim()))
    throw new TypeError(`dot_number must be 1 to 8 digits, got ${JSON.stringify(dot)}`);
  return { dot_number: dot.trim() };
}

/** A history page's size and cursor, refused before any request when they cannot be right. */
function checkPage(limit: number, startingAfter: string | undefined): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new TypeError(`limit must be a whole number from 1 to 100, got ${JSON.stringify(limit)}`);
  if (startingAfter !== undefined && (typeof startingAfter !== 'string' || startingAfter.trim() === ''))
    throw new TypeError('startingAfter must be an id');
}
