import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The rooms of ARCHITECTURE.md, enforced by dependency-cruiser (.dependency-cruiser.cjs): the
 * repository passes, and a tree with a route that opens SQLite, tray logic that imports electron
 * or the worker, shared code that imports a program, a store module that imports a feature folder
 * (its schema lives in worker/store/schema/), a screening pipeline that imports the /v1 client
 * instead of going through its scoring provider, local blocks (worker/blocks/) that import
 * the watch service, and a SQLite module that imports the PostgreSQL driver fails, each by its rule's name.
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');
const tmp = mkdtempSync(join(tmpdir(), 'boundaries-'));

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cruise(cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(bin, ['shared', 'worker', 'emulator', 'electron', '--config', config, '--output-type', 'err'], { cwd });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('import boundaries', () => {
  it('the repository crosses no wall', async () => {
    const r = await cruise(root);
    expect(r.out).toContain('no dependency violations found');
    expect(r.code).toBe(0);
  }, 60_000);

  it('refuses a route that opens SQLite, a feature that holds the connection, a store that imports a feature folder, tray logic that imports electron or the worker, shared code that imports a program, a pipeline that calls /v1 itself, local blocks that ask the watch list, and the driver outside store/pg', async () => {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true } }),
      'node_modules/better-sqlite3/package.json': '{"name":"better-sqlite3","main":"index.js"}',
      'node_modules/better-sqlite3/index.js': 'module.exports = {};',
      'node_modules/pg/package.json': '{"name":"pg","main":"index.js"}',
      'node_modules/pg/index.js': 'module.exports = {};',
      // The SQLite backend is in the store, but not in its PostgreSQL room.
      'worker/store/retention-repo.ts': "import pg from 'pg';\nexport const p = pg;\n",
      'node_modules/electron/package.json': '{"name":"electron","main":"index.js"}',
      'node_modules/electron/index.js': 'module.exports = {};',
      'worker/store/sqlite-store.ts': 'export const connectionOf = 1;\n',
      // Not a route: a feature that holds the connection itself.
      'worker/callbacks/outbox.ts': "import { connectionOf } from '../store/sqlite-store.js';\nexport const o = connectionOf;\n",
      'worker/intake/review-routes.ts':
        "import Database from 'better-sqlite3';\nimport { connectionOf } from '../store/sqlite-store.js';\nexport const r = [Database, connectionOf];\n",
      'electron/main/notifier.ts': "import 'electron';\nimport { r } from '../../worker/intake/review-routes.js';\nexport const n = r;\n",
      'shared/config.ts': "import { n } from '../electron/main/notifier.js';\nexport const c = n;\n",
      'emulator/server.ts': 'export const ok = 1;\n',
      'worker/svc/client.ts': 'export class SvcClient {}\n',
      'worker/queue/screening-pipeline.ts': "import { SvcClient } from '../svc/client.js';\nexport const p = SvcClient;\n",
      'worker/decisions/schema.ts': 'export const DECISIONS_MIGRATION_SQL = "";\n',
      'worker/store/migrations.ts':
        "import { DECISIONS_MIGRATION_SQL } from '../decisions/schema.js';\nexport const m = DECISIONS_MIGRATION_SQL;\n",
      'worker/watch/watch-service.ts': 'export class WatchService {}\n',
      'worker/blocks/local-blocks.ts': "import { WatchService } from '../watch/watch-service.js';\nexport const b = WatchService;\n",
    };
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tmp, p)), { recursive: true });
      writeFileSync(join(tmp, p), text);
    }
    const r = await cruise(tmp);
    expect(r.code).not.toBe(0);
    for (const rule of [
      'routes-never-touch-sqlite',
      'sqlite-only-in-store',
      'electron-only-in-glue',
      'tray-never-worker',
      'shared-imports-nothing-of-ours',
      'pipeline-through-the-provider',
      'store-imports-no-feature',
      'blocks-a-rule-not-watching',
      'pg-only-in-store',
    ])
      expect(r.out, r.out).toContain(rule);
    expect(r.out, r.out).toMatch(/sqlite-only-in-store[^\n]*worker\/callbacks\/outbox\.ts/);
    expect(r.out, r.out).toMatch(/pg-only-in-store[^\n]*worker\/store\/retention-repo\.ts/);
  }, 60_000);
});
