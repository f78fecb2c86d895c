/**
 * `node dist/bench/profile-summary.js <file.cpuprofile> [top]`: where a worker's CPU went, from
 * a profile written by `npm run bench -- --profile <dir>`. Prints self time by function and
 * total (inclusive) time by package or project directory.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** "node_modules/fastify/…" → "fastify"; "…/dist/worker/store/x.js" → "worker/store"; "node:…" → "node". */
function area(url: string): string {
  if (url === '') return '(native / idle)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return 'node';
  const own = /\/dist\/((?:worker|shared|emulator|bench)(?:\/[^/]+)?)\//.exec(url);
  if (own) return own[1]!;
  const file = /\/dist\/([^/]+)\.js$/.exec(url);
  return file ? file[1]! : url;
}

export function summarizeProfile(p: CpuProfile, top = 25): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const nameOf = (n: ProfileNode): string => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'}  ${area(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
  };
  const selfByFn = new Map<string, number>();
  const inclByFn = new Map<string, number>();
  const inclByArea = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    selfByFn.set(nameOf(n), (selfByFn.get(nameOf(n)) ?? 0) + us);
    if (n.callFrame.functionName === '(idle)') continue;
    busy += us;
    // Inclusive: count each function and each area once per sample stack.
    const seenFn = new Set<string>();
    const seenArea = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur)!;
      const fn = nameOf(node);
      if (!seenFn.has(fn)) {
        seenFn.add(fn);
        inclByFn.set(fn, (inclByFn.get(fn) ?? 0) + us);
      }
      const a = area(node.callFrame.url);
      if (!seenArea.has(a)) {
        seenArea.add(a);
        inclByArea.set(a, (inclByArea.get(a) ?? 0) + us);
      }
    }
  }
  const pct = (us: number): string => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const pctBusy = (us: number): string => `${((us / busy) * 100).toFixed(1).padStart(5)} %`;
  const list = (m: Map<string, number>, k: number, f: (us: number) => string): string[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => `${f(us)}  ${name}`);
  return [
    `profile: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`,
    '',
    'self time by function (share of all samples):',
    ...list(selfByFn, top, pct),
    '',
    'inclusive time by function (share of busy time):',
    ...list(inclByFn, top, pctBusy),
    '',
    'inclusive time by package / directory (share of busy time):',
    ...list(inclByArea, 20, pctBusy),
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const top = Number(process.argv[3] ?? 25);
  process.stdout.write(summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top) + '\n');
}
