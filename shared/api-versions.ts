/**
 * The intake API's dated versions (docs/api.md "Versioning"), newest last. A token is pinned to
 * the newest when it is made; a request may ask for another with Carrier-Screen-Version; a
 * callback carries the version its body was written in.
 */
export const API_VERSIONS: readonly string[] = ['2026-11-25'];
export const LATEST_API_VERSION: string = API_VERSIONS[API_VERSIONS.length - 1]!;
export const API_VERSION_HEADER = 'Carrier-Screen-Version';

export function isApiVersion(v: unknown): v is string {
  return typeof v === 'string' && API_VERSIONS.includes(v);
}
