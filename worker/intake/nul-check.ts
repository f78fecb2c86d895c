/**
 * A NUL character (U+0000) in any string a request sends: PostgreSQL's text cannot hold it (SQLite
 * can), so the same request would be kept on one backend and fail with a 500 on the other. It is
 * never meaningful in an identifier, a note or a URL: refused at the door on both, naming where.
 */

/**
 * The path of the first string holding U+0000 in `value` (e.g. `items[2].tender_id`; '' for
 * `value` itself), or undefined. A key holding it names its object. Iterative: a 16 KiB body may
 * nest thousands deep, more than a recursion's stack.
 */
export function firstNulPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.some(([k]) => k.includes('\u0000'))) return path;
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        stack.push([child, path === '' ? k : `${path}.${k}`]);
      }
    }
  }
  return undefined;
}
