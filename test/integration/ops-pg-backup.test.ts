/**
 * docs/operations.md "Backups on PostgreSQL", run as written: its two shell blocks (pg_dump of the
 * record named by SCREEN_DB in the env file, then createdb and pg_restore into a new database)
 * against a record of this test's own, with the doc's paths and names pointed at the test's
 * (the env file, the backup directory, the restored database's name, the dump's date, the
 * service's role: one of the test's own, not a superuser). The dump is mode 0600; the restored
 * record opens as the product opens it, as that role, and holds what was written before the dump.
 * Skipped with one line when the PostgreSQL client tools are not installed, except in CI.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../worker/store/pg/pg-store.js';
import { PG_ADMIN_URL, pgTestStore, runPrefix } from '../helpers/pg-db.js';
import { mkdirTemp, REPO_ROOT } from '../helpers/processes.js';

const inCi = process.env.CI !== undefined;

/** The `n`th ```sh block under the heading line `heading` (exact), before the next heading. */
function docBlock(heading: string, n: number): string {
  const lines = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8').split('\n');
  let inside = false;
  let fence = false;
  let seen = 0;
  const code: string[] = [];
  for (const line of lines) {
    if (line.startsWith('```')) {
      if (inside && !fence && line === '```sh') seen++;
      else if (fence && seen === n) return code.join('\n');
      fence = !fence;
      continue;
    }
    if (fence) {
      if (inside && seen === n) code.push(line);
      continue;
    }
    if (/^#{1,6} /.test(line)) {
      if (inside) break;
      inside = line === heading;
    }
  }
  throw new Error(`docs/operations.md: no sh block ${n} under "${heading}" (a heading moved?)`);
}

function hasTools(): boolean {
  return ['pg_dump', 'pg_restore', 'createdb', 'vacuumdb'].every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0);
}

describe('docs/operations.md "Backups on PostgreSQL", run as written', () => {
  let seeded: Awaited<ReturnType<typeof pgTestStore>> | undefined;
  let restored: PgStore | undefined;
  const dir = mkdirTemp('cs-pg-backup-');
  const restoredName = `${runPrefix()}${process.pid}_restored_${randomBytes(4).toString('hex')}`;
  // The doc's carrier_screen: the role in SCREEN_DB, which owns its database and is no superuser.
  const serviceRole = `${restoredName}_svc`;
  const admin = new URL(PG_ADMIN_URL);

  beforeAll(async () => {
    if (!hasTools()) return;
    seeded = await pgTestStore();
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`CREATE ROLE ${serviceRole} LOGIN`).finally(() => c.end());
  });
  afterAll(async () => {
    await restored?.close();
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect().then(
      () =>
        c
          .query(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`)
          .then(() => c.query(`DROP ROLE IF EXISTS ${serviceRole}`))
          .finally(() => c.end()),
      () => {}, // no server: nothing was made
    );
    await seeded?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('dumps the running record, and the dump restored into a new database is the same record', async (ctx) => {
    if (!seeded) {
      if (inCi) throw new Error('pg_dump, pg_restore, createdb or vacuumdb is missing');
      ctx.skip('the PostgreSQL client tools (pg_dump, pg_restore, createdb, vacuumdb) are not installed');
      return;
    }
    const { store, db } = seeded;
    // What the dump must carry: a screening held and finished, its event, a token.
    const s = await store.screenings.insertScreening({
      query: { dot_number: '1000003' },
      tender_id: 'BK-1',
      priority: 'tender',
      refresh: false,
      callback_url: null,
    });
    await store.screenings.completeScreening(s.id, {
      action: 'hold',
      hold_reason: 'manual_review',
      source: 'none',
      score: null,
      score_fetched_at: null,
      error: null,
    });
    const [event] = await store.events.appendEvents([{ event: 'screening.completed', data: { screening_ref: s.id } }]);
    await store.tokens.insert({
      id: 'tok_backup',
      name: 'tms-backup',
      role: 'tms',
      hash: 'h'.repeat(64),
      prefix: 'cs_tms_bk',
      created_at: new Date().toISOString(),
      api_version: '2026-01-01',
    });
    const before = await store.screenings.getScreening(s.id);

    const envFile = join(dir, 'env');
    // As the two-host layout's line is: parameters joined by &, which a shell sourcing the file would end the command at.
    const dbLine = `${db.url}${db.url.includes('?') ? '&' : '?'}application_name=carrier-screen-backup&connect_timeout=10`;
    writeFileSync(envFile, `SCREEN_DB=${dbLine}\nSVC_API_KEY=svc_test_x\n`, { mode: 0o640 });
    const rewrite = (block: string): string =>
      block
        .replaceAll('/etc/carrier-screen/env', envFile)
        .replaceAll('/var/backups/carrier-screen', dir)
        .replaceAll('carrier_screen_restored', restoredName)
        .replaceAll('=carrier_screen ', `=${serviceRole} `)
        // The restore names the day's dump: today's, here.
        .replace(/record-\d{4}-\d{2}-\d{2}\.dump/g, 'record-$(date +%F).dump');
    const run = (block: string): { status: number | null; out: string } => {
      // A root shell's usual umask, 022: the block itself must make the dump private.
      const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', `umask 022\n${rewrite(block)}`], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          // The client tools' server and role, as the doc says to set them.
          PGHOST: admin.hostname,
          PGPORT: admin.port || '5432',
          PGUSER: decodeURIComponent(admin.username) || 'postgres',
          ...(admin.password ? { PGPASSWORD: decodeURIComponent(admin.password) } : {}),
        },
      });
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    };

    const dump = run(docBlock('### Backups on PostgreSQL', 1));
    expect(dump.status, dump.out).toBe(0);
    expect(dump.out).toContain('the dump reads back');
    const dumps = readdirSync(dir).filter((f) => f.endsWith('.dump'));
    expect(dumps).toHaveLength(1);
    // The whole record: readable by its owner only, whatever the shell's umask.
    expect(statSync(join(dir, dumps[0]!)).mode & 0o777).toBe(0o600);
    const restore = run(docBlock('### Backups on PostgreSQL', 2));
    expect(restore.status, restore.out).toBe(0);
    // Analyzed as restored: the planner has the tables' statistics before the first start.
    const c = new pg.Client({ connectionString: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${restoredName}`) });
    await c.connect();
    const stats = await c
      .query<{ relname: string; analyzed: boolean }>(
        "SELECT relname, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname IN ('screenings', 'watch_entries', 'reviews')",
      )
      .finally(() => c.end());
    expect(stats.rows.map((r) => [r.relname, r.analyzed]).sort()).toEqual([
      ['reviews', true],
      ['screenings', true],
      ['watch_entries', true],
    ]);

    const url = new URL(db.url);
    url.pathname = `/${restoredName}`;
    url.username = serviceRole;
    url.password = '';
    restored = await openPgStore(url.toString(), { max: 2 });
    expect(await restored.screenings.getScreening(s.id)).toEqual(before);
    expect(await restored.events.lastEventId()).toBe(event!.id);
    expect((await restored.tokens.list()).map((t) => t.id)).toEqual(['tok_backup']);
    // The next event id follows the dump's: the head came with it.
    const [next] = await restored.events.appendEvents([{ event: 'queue.paused', data: {} }]);
    expect(next!.id).toBe(event!.id + 1);
  });
});
