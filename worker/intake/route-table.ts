/**
 * The routes the intake serves, by path pattern, so an unmatched request can be told apart:
 * a known path with another method is 405 (with `Allow`), an unknown path 404 route_not_found.
 */
export class RouteTable {
  readonly #routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];

  /** A Fastify route URL (`/reviews/:id/approve`, `/ui/*`) and its methods. */
  add(url: string, methods: string | readonly string[]): void {
    const source = url
      .split('/')
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}$`);
    let entry = this.#routes.find((r) => r.pattern.source === pattern.source);
    if (!entry) this.#routes.push((entry = { pattern, methods: new Set() }));
    for (const m of typeof methods === 'string' ? [methods] : methods) entry.methods.add(m.toUpperCase());
  }

  /** The methods some route serves at this path (empty: no route has this path). */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const r of this.#routes) if (r.pattern.test(path)) for (const m of r.methods) out.add(m);
    return [...out].sort();
  }
}
