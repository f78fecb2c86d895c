/**
 * What each role may do on the intake API, in one table (docs/api.md "Tokens and roles"):
 * - tms: screen, read everything, manage the watch list, listen to events;
 * - desk: also decide reviews, blocks, carrier changes and standing decisions, export the audit;
 * - admin: also pause and resume the queue, retry and cancel callbacks. INTAKE_TOKEN is admin.
 * - metrics: GET /metrics and nothing else (Prometheus's own token: it cannot read a screening).
 * Each route declares the role it needs (`config: { role }`); a HEAD route has its GET's.
 */

import { CALLER_ROLES, type CallerRole } from '../../shared/screening.js';

/** The roles, least first: the one list is shared/screening.ts's (GET /me answers one of them). */
export type Role = CallerRole;
export const ROLES: readonly Role[] = CALLER_ROLES;
// metrics is below tms: every role may scrape, a metrics token may do nothing else.
const RANK: Record<Role, number> = { metrics: 0, tms: 1, desk: 2, admin: 3 };

/**
 * `refresh: true` skips the cache and spends live quota: desk and admin tokens only. A TMS gets
 * fresh scores through the cache's own rules (SCREEN_CACHE_TTL) and cannot drain the month.
 */
export const REFRESH_ROLE: Role = 'desk';

export function mayUse(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}
