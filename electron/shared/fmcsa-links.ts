/**
 * Links out to the carrier's public record at FMCSA, by DOT number: the SAFER company snapshot
 * and the Licensing & Insurance (L&I) list of its operating authority. The renderer draws them
 * as plain links (target=_blank); the Electron main opens only these in the system browser
 * (externalLinkAllowed), every other window stays refused.
 */

const DOT = /^\d{1,8}$/;

/** FMCSA SAFER company snapshot of a USDOT number. */
export function saferSnapshotUrl(dot: string): string {
  if (!DOT.test(dot)) throw new TypeError(`a DOT number is 1 to 8 digits, got ${JSON.stringify(dot)}`);
  return `https://safer.fmcsa.dot.gov/query.asp?searchtype=ANY&query_type=queryCarrierSnapshot&query_param=USDOT&query_string=${dot}`;
}

/** FMCSA L&I: the carrier's operating authority (dockets, insurance on file) by USDOT number. */
export function authorityRecordUrl(dot: string): string {
  if (!DOT.test(dot)) throw new TypeError(`a DOT number is 1 to 8 digits, got ${JSON.stringify(dot)}`);
  return `https://li-public.fmcsa.dot.gov/LIVIEW/pkg_carrquery.prc_carrlist?n_dotno=${dot}`;
}

const ALLOWED = [
  { host: 'safer.fmcsa.dot.gov', path: '/query.asp' },
  { host: 'li-public.fmcsa.dot.gov', path: '/LIVIEW/pkg_carrquery.prc_carrlist' },
] as const;

/** Whether a window the page asks for is one of these links (https, exact host and path): only those leave the app. */
export function externalLinkAllowed(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return false;
  return ALLOWED.some((a) => u.hostname === a.host && u.pathname === a.path);
}
