/** Validation of the /v1/svc-score query: exactly one of dot_number or mc_number, well-formed. */

export type ScoreQuery = { dot: string } | { mcDigits: string };

export class QueryError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

const DOT_RE = /^\d{1,8}$/;
const MC_RE = /^MC(\d{1,8})$/i;

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new QueryError(`${name} was sent more than once; send it once`, name);
  return String(v);
}

/** Throws QueryError naming the parameter. Unknown parameters are ignored (new ones may come). */
export function parseScoreQuery(query: Record<string, unknown>): ScoreQuery {
  const dot = single(query, 'dot_number');
  const mc = single(query, 'mc_number');
  if (dot !== undefined && mc !== undefined) throw new QueryError('send exactly one of dot_number or mc_number, not both', 'dot_number');
  if (dot === undefined && mc === undefined)
    throw new QueryError('one of the query parameters dot_number or mc_number is required', 'dot_number');
  if (dot !== undefined) {
    if (!DOT_RE.test(dot)) throw new QueryError('dot_number must be 1 to 8 digits, for example dot_number=1000003', 'dot_number');
    return { dot: String(Number(dot)) };
  }
  const m = MC_RE.exec(mc as string);
  if (!m) throw new QueryError('mc_number must be "MC" followed by 1 to 8 digits, for example mc_number=MC1000003', 'mc_number');
  return { mcDigits: String(Number(m[1])) };
}
