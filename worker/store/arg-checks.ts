import type { CarrierQuery } from '../../shared/carrier-id.js';
import { StoreArgumentError } from './store-error.js';
import { newScreeningId } from './ids.js';
import type { Env, NewScreening, ScreeningResult } from './types.js';

/**
 * The store's argument checks, backend-free: the SQLite store and the PostgreSQL repositories
 * (pg/) import these, so both refuse the same arguments with the same message and `param`.
 */

/** The most rows one call of a list or a claim returns. */
export const MAX_LIMIT = 10_000;

export function checkEnv(env: unknown): asserts env is Env {
  if (env !== 'sandbox' && env !== 'live')
    throw new StoreArgumentError(`env must be "sandbox" or "live", got ${JSON.stringify(env)}`, 'env');
}

/** A list's `limit`: a whole number from 1 to 10 000 (StoreArgumentError naming `param` otherwise). */
export function checkLimit(limit: unknown, param = 'limit'): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new StoreArgumentError(`${param} must be a whole number from 1 to ${MAX_LIMIT}, got ${String(limit)}`, param);
  return limit;
}

export function checkId(id: unknown, param = 'id'): string {
  if (typeof id !== 'string' || id.length === 0) throw new StoreArgumentError(`${param} must be a non-empty string`, param);
  return id;
}

export function iso(d: Date, param: string): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new StoreArgumentError(`${param} must be a valid Date`, param);
  return d.toISOString();
}

export function checkQuery(q: unknown): CarrierQuery {
  const o = q as Record<string, unknown> | null;
  if (o && typeof o === 'object') {
    if (typeof o.dot_number === 'string' && o.dot_number.trim() !== '' && o.mc_number === undefined) return { dot_number: o.dot_number };
    if (typeof o.mc_number === 'string' && o.mc_number.trim() !== '' && o.dot_number === undefined) return { mc_number: o.mc_number };
  }
  throw new StoreArgumentError('query must be { dot_number } or { mc_number } with a non-empty string', 'query');
}

export function checkResult(r: ScreeningResult): void {
  if (!r || (r.action !== 'tender' && r.action !== 'hold' && r.action !== 'block'))
    throw new StoreArgumentError('result.action must be "tender", "hold" or "block"', 'action');
}

/** A month's days ("YYYY-MM-DD") up to `today`, for dailyLookups: StoreArgumentError when `month` is not "YYYY-MM". */
export function monthDays(month: unknown, today: string): string[] {
  const m = typeof month === 'string' ? MONTH_RE.exec(month) : null;
  if (!m) throw new StoreArgumentError(`month must be "YYYY-MM", got ${JSON.stringify(month)}`, 'month');
  const last = daysInMonth(Number(m[1]), Number(m[2]));
  const days: string[] = [];
  for (let d = 1; d <= last; d++) {
    const day = `${month as string}-${String(d).padStart(2, '0')}`;
    if (day > today) break;
    days.push(day);
  }
  return days;
}
const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A usage snapshot's figure: a number or null (StoreArgumentError naming `param` otherwise). */
export function usageFigure(v: unknown, param: string): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new StoreArgumentError(`${param} must be a number or null`, param);
  return v;
}

const ID_RE = /^[A-Za-z0-9_-]{1,128}$/;

/** insertScreening's arguments: its query and id (a new one when none is given); the priority and result checked. */
export function checkNewScreening(s: NewScreening, finished: ScreeningResult | undefined): { q: CarrierQuery; id: string } {
  const q = checkQuery(s?.query);
  const id = s.id ?? newScreeningId();
  if (!ID_RE.test(id)) throw new StoreArgumentError('id must be 1 to 128 letters, digits, "_" or "-"', 'id');
  if (s.priority !== 'tender' && s.priority !== 'background')
    throw new StoreArgumentError(`priority must be "tender" or "background", got ${JSON.stringify(s.priority)}`, 'priority');
  if (finished !== undefined) checkResult(finished);
  return { q, id };
}
