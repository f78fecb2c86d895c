/**
 * The operator's surface checked by the real tools: promtool on ops/prometheus.yml and on the
 * scraped /metrics text, and a real Prometheus scraping the real processes (`carrier-screen
 * start` on its intake port, `carrier-screen worker` on SCREEN_METRICS_PORT) with
 * ops/prometheus.yml's shape and a metrics token (`token create --role metrics`) in its file,
 * whose HTTP API then counts the screenings this test made and lists the alert rules. The
 * worker's port and the metrics role are checked over HTTP even without Prometheus.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_KEYS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { freePort } from '../helpers/free-port.js';
import {
  REPO_ROOT,
  ensureBuilt,
  mkdirTemp,
  spawnCli,
  startIntakeProcess,
  startWorkerProcess,
  until,
  type RunningProcess,
  type StartedIntake,
  type WorkerEnv,
} from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { testRecord, type TestRecord } from '../helpers/test-db.js';

const OPS = join(REPO_ROOT, 'ops');
const has = (cmd: string): boolean => spawnSync(cmd, ['--version']).status === 0;
const tools = has('promtool') && has('prometheus');
// .ci/run installs Debian's prometheus package; elsewhere say plainly why this is skipped.
if (!tools) console.info('SKIPPED ops-prometheus: promtool/prometheus not installed (apt-get install prometheus)');

const TOKEN = 'ops-prometheus-test-token-0123456789abcdef';
let dir: string;
let emu: RunningEmulator;
let worker: StartedIntake;
let prom: ReturnType<typeof spawn> | undefined;
let promUrl: string;
let config: string;

/** ops/prometheus.yml with this run's targets, token file, rule file and a 1 s scrape interval. */
function derivedConfig(tokenFile: string, targets: string[]): string {
  const text = readFileSync(join(OPS, 'prometheus.yml'), 'utf8');
  const out = text
    .replace('scrape_interval: 15s', 'scrape_interval: 1s')
    .replace('evaluation_interval: 15s', 'evaluation_interval: 1s')
    .replace('credentials_file: /etc/prometheus/carrier-screen-metrics-token', `credentials_file: ${tokenFile}`)
    .replace("targets: ['127.0.0.1:8787', '127.0.0.1:9487']", `targets: [${targets.map((t) => `'${t}'`).join(', ')}]`)
    .replace('  - alerts.yml', `  - ${join(OPS, 'alerts.yml')}`);
  // Each replacement must have found its line: the shipped file is what is tested.
  for (const s of ['1s', tokenFile, ...targets, join(OPS, 'alerts.yml')]) expect(out).toContain(s);
  return out;
}

let env: WorkerEnv;
let record: TestRecord;
let workerProc: RunningProcess;
let workerMetrics: string;
let metricsToken: string;

describe('`start` and a `worker` with SCREEN_METRICS_PORT, scraped with a metrics token', () => {
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdirTemp('cs-prom-');
    emu = await startEmulator({ port: 0 });
    // The record of this pass: a SQLite file, or a PostgreSQL test database `start` makes the schema in.
    record = await testRecord();
    env = {
      SVC_API_KEY: DEMO_KEYS.sandbox,
      SVC_BASE_URL: emu.baseUrl,
      REDIS_URL: inject('redisUrl'),
      SCREEN_DB: record.screenDb,
      ...record.env,
      SCREEN_REDIS_PREFIX: uniquePrefix('prom'),
    };
    worker = await startIntakeProcess({ ...env, INTAKE_TOKEN: TOKEN });
    // Prometheus's own token, made as an operator would.
    const create = spawnCli(['token', 'create', '--role', 'metrics', '--name', 'prometheus'], { env });
    expect((await create.exited).code, create.stderr()).toBe(0);
    metricsToken = create.stdout().trim();
    expect(metricsToken).toMatch(/^cs_metrics_/);
    const port = await freePort();
    workerProc = await startWorkerProcess({ ...env, SCREEN_METRICS_PORT: String(port) });
    workerMetrics = `http://127.0.0.1:${port}`;
    await workerProc.waitForOutput(/metrics served on a port of their own/, 10_000);
  }, 180_000);

  afterAll(async () => {
    prom?.kill('SIGTERM');
    await workerProc?.stop();
    await worker?.stop();
    await emu?.close();
    await record?.cleanup();
  });

  it('a worker serves /metrics on its own port, to a token, and nothing else there', async () => {
    expect((await request(`${workerMetrics}/metrics`)).statusCode).toBe(401);
    expect((await request(`${workerMetrics}/metrics`, { headers: { authorization: 'Bearer cs_metrics_wrong' } })).statusCode).toBe(401);
    const res = await request(`${workerMetrics}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.statusCode).toBe(200);
    const text = await res.body.text();
    expect(text).toMatch(/^carrier_screen_build_info\{version="[^"]+",node="v24\./m);
    expect(text).toMatch(/^carrier_screen_shared_state_up 1$/m);
    expect(text).toContain('# TYPE carrier_screen_queue_oldest_queued_seconds gauge');
    expect((await request(`${workerMetrics}/status`, { headers: { authorization: `Bearer ${metricsToken}` } })).statusCode).toBe(404);
  });

  it('a SCREEN_METRICS_PORT already taken stops the worker with one line, exit 2', async () => {
    const p = spawnCli(['worker'], { env: { ...env, LOG_LEVEL: 'warn', SCREEN_METRICS_PORT: String(worker.port) } });
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    expect(p.stderr()).toMatch(
      /^carrier-screen: SCREEN_METRICS_PORT: cannot serve \/metrics on 127\.0\.0\.1:\d+ \(EADDRINUSE\): pick a free port$/m,
    );
  });

  it('a metrics token reads /metrics on the intake and nothing else', async () => {
    const auth = { authorization: `Bearer ${metricsToken}` };
    expect((await request(`${worker.url}/metrics`, { headers: auth })).statusCode).toBe(200);
    for (const path of ['/status', '/screenings', '/reviews', '/me', '/callbacks'])
      expect((await request(`${worker.url}${path}`, { headers: auth })).statusCode, path).toBe(403);
  });

  it.skipIf(!tools)(
    'a real Prometheus with ops/prometheus.yml scrapes both and counts the screenings this test made',
    async () => {
      const tokenFile = join(dir, 'metrics-token');
      writeFileSync(tokenFile, metricsToken, { mode: 0o600 });
      config = join(dir, 'prometheus.yml');
      writeFileSync(config, derivedConfig(tokenFile, [`127.0.0.1:${worker.port}`, workerMetrics.replace('http://', '')]));
      const check = spawnSync('promtool', ['check', 'config', config], { encoding: 'utf8' });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      const port = await freePort();
      promUrl = `http://127.0.0.1:${port}`;
      prom = spawn(
        'prometheus',
        [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`],
        {
          stdio: 'ignore',
        },
      );
      await until(
        'Prometheus ready',
        60_000,
        async () =>
          await request(`${promUrl}/-/ready`).then(
            (r) => r.body.text().then(() => r.statusCode === 200),
            () => false,
          ),
      );
      const query = async (q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
        const r = await request(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
        return ((await r.body.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }).data
          .result;
      };
      const screen = async (dot: string): Promise<string> => {
        const r = await request(`${worker.url}/screenings?wait=10`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ dot_number: dot }),
        });
        return ((await r.body.json()) as { action: string }).action;
      };
      // 1000003 held, 1000005 blocked, 4242 not found (blocked): three screenings.
      expect([await screen('1000003'), await screen('1000005'), await screen('4242')]).toEqual(['hold', 'block', 'block']);
      const total = await until('Prometheus to scrape three screenings', 60_000, async () => {
        const r = await query('sum(carrier_screen_screenings_total)');
        return r[0] && Number(r[0].value[1]) === 3 ? r : undefined;
      });
      expect(Number(total[0]!.value[1])).toBe(3);
      const byAction = await query('sum by (action) (carrier_screen_screenings_total)');
      expect(Object.fromEntries(byAction.map((r) => [r.metric.action, Number(r.value[1])]))).toEqual({ hold: 1, block: 2 });
      expect(Number((await query('max(carrier_screen_reviews_pending)'))[0]!.value[1])).toBe(1);
      // Both processes scraped with the metrics token.
      const up = await until('both targets up', 30_000, async () => {
        const r = await query('up{job="carrier-screen"}');
        return r.length === 2 && r.every((x) => x.value[1] === '1') ? r : undefined;
      });
      expect(up.map((r) => r.metric.instance).sort()).toEqual([`127.0.0.1:${worker.port}`, workerMetrics.replace('http://', '')].sort());

      const rules = (await (await request(`${promUrl}/api/v1/rules`)).body.json()) as {
        data: { groups: Array<{ rules: Array<{ name: string }> }> };
      };
      const names = rules.data.groups.flatMap((g) => g.rules.map((r) => r.name));
      expect(names).toEqual(
        expect.arrayContaining([
          'CarrierScreenDown',
          'CarrierScreenCallbacksFailing',
          'CarrierScreenQueuePaused',
          'CarrierScreenQueueStalled',
          'CarrierScreenWritesRefused',
          'CarrierScreenDiskLow',
        ]),
      );
    },
    120_000,
  );

  it.skipIf(!tools)('/metrics needs the token, and promtool finds nothing to fix in it', async () => {
    expect((await request(`${worker.url}/metrics`)).statusCode).toBe(401);
    const res = await request(`${worker.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = await res.body.text();
    for (const family of [
      'carrier_screen_screenings_total',
      'carrier_screen_svc_requests_total',
      'carrier_screen_svc_request_duration_seconds',
      'carrier_screen_screening_duration_seconds',
      'carrier_screen_queue_jobs',
      'carrier_screen_quota_remaining',
      'carrier_screen_rate_limit_remaining',
      'carrier_screen_reviews_pending',
      'carrier_screen_callbacks',
      'carrier_screen_callback_attempts_total',
      'carrier_screen_callbacks_oldest_pending_seconds',
      'carrier_screen_queue_paused_seconds',
      'carrier_screen_queue_oldest_queued_seconds',
      'carrier_screen_svc_hold_off',
      'carrier_screen_quota_gate',
      'process_cpu_seconds_total',
    ])
      expect(text).toContain(`# TYPE ${family} `);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
  });
});
