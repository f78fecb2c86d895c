import type { StatusReport } from '../../shared/screening.js';
import type { ConnectionState } from './bridge.js';

/**
 * What is wrong (or needs a look) given the worker's status and the connection to it.
 * Pure; shared by the tray (icon, tooltip, menu) and the dashboard's banner.
 */

/** Below this share of the monthly quota left, the tray asks for attention. */
export const QUOTA_WARN_SHARE = 0.1;

export interface StatusInput {
  /** Last status read from the worker; null before the first answer. */
  status: StatusReport | null;
  connection: ConnectionState;
  workerUrl: string;
  /** The last GET /status failed with this text (cleared by the next success). */
  statusError?: string | null;
  /** Carrier changes not yet acknowledged; null or absent when not known (e.g. an older worker). */
  changesNew?: number | null;
}

export interface StatusProblem {
  level: 'trouble' | 'attention';
  text: string;
  /** Set for problems a dashboard tab already counts (its badge), so a banner can leave them out. */
  topic?: 'reviews' | 'changes';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const count = new Intl.NumberFormat('en-US');

/** 1,234 — fixed locale so tray texts do not depend on the machine's. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** "Dec 1, 00:00 UTC" — quota resets are UTC instants, so say so. */
export function formatResetUtc(iso: string | null): string {
  if (!iso) return 'unknown';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${hh}:${mm} UTC`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count.format(n)} ${n === 1 ? one : many}`;
}

/** Is the quota used up: the gate is closed or nothing remains. */
export function quotaExhausted(s: StatusReport): boolean {
  return s.quota.gate === 'closed' || (s.quota.remaining !== null && s.quota.remaining <= 0 && s.quota.monthly_quota !== null);
}

/** Is the quota running low: under the warning share, or into the reserve (only tender-time lookups spend it). */
export function quotaLow(s: StatusReport): boolean {
  if (quotaExhausted(s)) return false;
  if (s.quota.gate === 'reserve') return true;
  const { remaining, monthly_quota, reserve } = s.quota;
  if (remaining === null || monthly_quota === null || monthly_quota <= 0) return false;
  if (reserve !== null && remaining <= reserve) return true;
  return remaining / monthly_quota < QUOTA_WARN_SHARE;
}

export function quotaLine(s: StatusReport): string {
  const q = s.quota;
  if (!q.livemode && q.monthly_quota === null) return 'Quota: sandbox, lookups not counted';
  if (q.remaining === null || q.monthly_quota === null) return `Quota: not known yet · resets ${formatResetUtc(q.resets_at)}`;
  return `Quota: ${count.format(q.remaining)} of ${count.format(q.monthly_quota)} left · resets ${formatResetUtc(q.resets_at)}`;
}

export function queueLine(s: StatusReport): string {
  const q = s.queue;
  const line = `Queue: ${count.format(q.waiting)} waiting · ${count.format(q.active)} active · ${count.format(q.delayed)} delayed · ${count.format(q.failed)} failed`;
  return q.paused ? `${line} (paused)` : line;
}

/** Every problem, worst first. */
export function problemsOf(input: StatusInput): StatusProblem[] {
  const out: StatusProblem[] = [];
  const trouble = (text: string): void => void out.push({ level: 'trouble', text });
  const attention = (text: string, topic?: StatusProblem['topic']): void =>
    void out.push({ level: 'attention', text, ...(topic ? { topic } : {}) });
  const { status, connection, workerUrl } = input;

  if (connection === 'unconfigured') trouble('Not set up: add the worker address and token in Settings');
  else if (connection === 'unauthorized') trouble('The worker refused the tray token: check Settings');
  // The bridge's message names the address already: say it once.
  else if (input.statusError)
    trouble(`Worker unreachable at ${workerUrl}: ${input.statusError.replace(/^worker unreachable at \S+: /i, '')}`);
  else if (connection === 'reconnecting' || connection === 'closed') trouble(`Lost the connection to the worker at ${workerUrl}; retrying`);
  else if (status === null) trouble(`Connecting to the worker at ${workerUrl}`);

  if (status !== null) {
    if (status.service.key_rejected) trouble('The /v1 service rejected the API key: live lookups stopped');
    else if (status.service.environment_mismatch)
      trouble(`The /v1 service answered from the wrong environment: live lookups stopped (${status.service.environment_mismatch})`);
    else if (status.service.hold_off_until)
      trouble(`The /v1 service asked for no calls until ${formatResetUtc(status.service.hold_off_until)}: cached scores only, misses held`);
    else if (!status.service.reachable)
      trouble(
        `The /v1 scoring service is unreachable${status.service.last_error ? `: ${status.service.last_error}` : ''}; cached scores only`,
      );
    if (quotaExhausted(status)) trouble(`Monthly quota used up: no live lookups until ${formatResetUtc(status.quota.resets_at)}`);
    const dead = status.callbacks?.dead ?? 0;
    if (dead > 0) trouble(`${plural(dead, 'callback')} to the TMS gave up after 24 h (dead): retry with POST /callbacks/:id/retry`);

    const pending = status.reviews.pending;
    if (pending > 0) attention(`${plural(pending, 'carrier')} waiting for review`, 'reviews');
  }
  const changes = input.changesNew ?? 0;
  if (changes > 0) attention(`${plural(changes, 'carrier change')} to acknowledge`, 'changes');
  if (status !== null) {
    if (quotaLow(status)) {
      const q = status.quota;
      const left = q.remaining !== null ? `${count.format(q.remaining)} lookups left` : 'into the reserve';
      attention(q.gate === 'reserve' ? `Quota low (${left}): only tender-time lookups spend it` : `Quota low: ${left}`);
    }
    if (status.queue.paused) attention('Queue paused: no /v1 lookups until resumed');
  }
  return out;
}
