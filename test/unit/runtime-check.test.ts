/**
 * The runtime floor: a Node older than 22.14 is refused in one line before anything loads
 * better-sqlite3 (which would crash it). The rule by versions, then the real command on an old
 * Node where the machine has one (Debian's /usr/bin/node is 20 on our build machines).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_NODE, runtimeProblem } from '../../worker/runtime-check.js';
import { ensureBuilt, REPO_ROOT } from '../helpers/processes.js';

describe('runtimeProblem', () => {
  it('accepts the floor and anything newer', () => {
    for (const v of [MIN_NODE, '22.14.1', '22.23.2', '23.0.0', '24.0.0', '24.21.0', '26.1.0', 'v24.21.0'])
      expect(runtimeProblem(v), v).toBeUndefined();
  });

  it('refuses anything older, naming the version to install', () => {
    for (const v of ['22.13.9', '22.12.0', '21.7.3', '20.20.2', '18.20.8', 'v20.19.0']) {
      const line = runtimeProblem(v);
      expect(line, v).toMatch(/too old.*needs Node 22\.14\.0 or later; install Node 24 LTS/);
      expect(line).not.toContain('\n');
    }
  });
});

/** A Node on this machine older than the floor, if there is one. */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const v = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (runtimeProblem(v) !== undefined) return candidate;
  }
  return undefined;
}

const old = oldNode();

describe.skipIf(!old)('carrier-screen on an old Node', () => {
  beforeAll(async () => {
    await ensureBuilt();
  });

  it.each([['start'], ['worker'], ['token', 'list'], ['backup', '/tmp/never.db']])(
    '%s refuses with one line and exit 2, before loading SQLite',
    (...args) => {
      const r = spawnSync(old!, [join(REPO_ROOT, 'dist', 'worker', 'cli.js'), ...args], {
        encoding: 'utf8',
        env: { ...process.env, SCREEN_DB: '/nonexistent/x.db' },
      });
      expect(r.status).toBe(2);
      expect(r.signal).toBeNull();
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^carrier-screen: Node 2?\d\.\d+\.\d+ is too old: carrier-screen needs Node 22\.14\.0 or later; install Node 24 LTS/,
      );
    },
  );
});
if (!old) console.log('SKIPPED: no Node older than 22.14 on this machine to run the command on');
