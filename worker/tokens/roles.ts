/**
 * What each role may do on the intake API, in one table (docs/api.md "Tokens and roles"):
 * - tms: screen, read everything, manage the watch list, listen to events;
 * - desk: also decide reviews, blocks, carrier changes and standing decisions, export the audit;
 * - admin: also pause and resume the queue, retry and cancel callbacks. INTAKE_TOKEN is admin.
 */

export type Role = 'tms' | 'desk' | 'admin';
export const ROLES: readonly Role[] = ['tms', 'desk', 'admin'];
const RANK: Record<Role, number> = { tms: 1, desk: 2, admin: 3 };

/** Routes above `tms`, by method and Fastify route URL. Every other route is `tms`. */
const NEEDS: Record<string, Role> = {
  'POST /reviews/:id/approve': 'desk',
  'POST /reviews/:id/reject': 'desk',
  'POST /blocks': 'desk',
  'DELETE /blocks/:dot': 'desk',
  'POST /blocks/:dot/lift': 'desk',
  'POST /changes/:id/acknowledge': 'desk',
  'POST /decisions/:id/revoke': 'desk',
  'GET /audit.csv': 'desk',
  'POST /queue/pause': 'admin',
  'POST /queue/resume': 'admin',
  'POST /callbacks/:id/retry': 'admin',
  'POST /callbacks/:id/cancel': 'admin',
  'POST /callbacks/cancel': 'admin',
};

export function roleNeeded(method: string, routeUrl: string): Role {
  return NEEDS[`${method.toUpperCase()} ${routeUrl}`] ?? 'tms';
}

export function mayUse(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}
