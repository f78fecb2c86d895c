/**
 * Child process: the durable floor on PostgreSQL, built as floor-server.ts's on SQLite (issue 34).
 * `POST /durable/screenings`: check the bearer token (in memory, as the SQLite floor does), read
 * the carrier's cached score (one statement: its JSON text), insert a screening row that refers
 * to it (one statement, committed on its own: autocommit, synchronous_commit as the server has
 * it), answer ~3 KB (the score's text spliced in). Two round trips per request, on a pool.
 * The database is the bench's (pg-db.ts); this process makes its own two tables in it.
 */
import Fastify from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { liveCarrier, scoreBody } from '../emulator/index.js';
import { poolExecutor } from '../worker/store/pg/executor.js';
import { openPgPool } from '../worker/store/pg/pg-pool.js';
import { statement } from '../worker/store/pg/sql.js';
import { serveRpc } from './rpc.js';

const TOKEN = process.env.FLOOR_TOKEN ?? 'durable-floor-token-0123456789';
const expected = createHash('sha256').update(TOKEN).digest();

const readScore = statement<{ carrier: string }>(
  'bench_floor_read_score',
  'SELECT id, json, fetched_at FROM floor_scores WHERE carrier = @carrier',
);
const insert = statement<{ id: string; tender_id: string | null; carrier: string; score_id: number; action: string; created_at: string }>(
  'bench_floor_insert',
  `INSERT INTO floor_screenings (id, tender_id, carrier, score_id, action, created_at)
   VALUES (@id, @tender_id, @carrier, @score_id, @action, @created_at)`,
);
const putScore = statement<{ carrier: string; json: string; fetched_at: string }>(
  'bench_floor_put_score',
  `INSERT INTO floor_scores (carrier, json, fetched_at) VALUES (@carrier, @json, @fetched_at)
   ON CONFLICT (carrier) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
);

function authorized(header: string | undefined): boolean {
  const m = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  return m !== null && timingSafeEqual(expected, createHash('sha256').update(m[1]!).digest());
}

let opened: { pool: ReturnType<typeof openPgPool>; url: string; app: ReturnType<typeof Fastify> } | undefined;
let answered = 0;

async function open(o: { url: string; poolMax: number }): Promise<string> {
  if (opened) return opened.url;
  const pool = openPgPool(o.url, { max: o.poolMax, applicationName: 'carrier-screen-bench-floor' });
  // Connections kept between runs (pg closes them after 10 s idle): the bench meters their backends' CPU.
  pool.options.idleTimeoutMillis = 0;
  const x = poolExecutor(pool);
  await pool.query(`
    CREATE TABLE IF NOT EXISTS floor_scores (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, carrier text COLLATE "C" NOT NULL UNIQUE,
      json text COLLATE "C" NOT NULL, fetched_at text COLLATE "C" NOT NULL);
    CREATE TABLE IF NOT EXISTS floor_screenings (id text COLLATE "C" PRIMARY KEY, tender_id text COLLATE "C", carrier text COLLATE "C" NOT NULL,
      score_id bigint NOT NULL REFERENCES floor_scores (id), action text COLLATE "C" NOT NULL, created_at text COLLATE "C" NOT NULL);
  `);
  const app = Fastify({ logger: false });
  app.post<{ Body: { dot_number: string; tender_id?: string } }>('/durable/screenings', async (req, reply) => {
    if (!authorized(req.headers.authorization)) return reply.code(401).send({ error: { code: 'unauthorized' } });
    const score = await readScore.get<{ id: number; json: string; fetched_at: string }>(x, { carrier: req.body.dot_number });
    if (!score) return reply.code(404).send({ error: { code: 'resource_missing' } });
    const id = `scr_${randomBytes(13).toString('hex')}`;
    const at = new Date().toISOString();
    await insert.run(x, {
      id,
      tender_id: req.body.tender_id ?? null,
      carrier: req.body.dot_number,
      score_id: score.id,
      action: 'tender',
      created_at: at,
    });
    const head = JSON.stringify({
      object: 'screening',
      id,
      tender_id: req.body.tender_id ?? null,
      status: 'done',
      action: 'tender',
      source: 'cache',
      score_fetched_at: score.fetched_at,
      created_at: at,
    });
    answered++;
    return reply.type('application/json').send(`${head.slice(0, -1)},"score":${score.json}}`);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  opened = { pool, app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  return opened.url;
}

serveRpc({
  open: (o: { url: string; poolMax: number }) => open(o),
  token: () => TOKEN,
  /** The cached scores of these live carriers, as the emulator would answer them; the mean JSON size. */
  seed: async (dots: string[]) => {
    if (!opened) throw new Error('not open');
    const now = new Date();
    let bytes = 0;
    for (const dot of dots) {
      const profile = liveCarrier(dot);
      if (!profile) throw new Error(`no live carrier ${dot}`);
      const json = JSON.stringify(scoreBody(profile, 'live', now));
      bytes += json.length;
      await putScore.run(poolExecutor(opened.pool), { carrier: dot, json, fetched_at: now.toISOString() });
    }
    return Math.round(bytes / dots.length);
  },
  /** Answers sent (200) and screening rows committed, so far. */
  counts: async () => {
    if (!opened) throw new Error('not open');
    const { rows } = await opened.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM floor_screenings');
    return { answered, committed: rows[0]!.n };
  },
  close: async () => {
    if (!opened) return;
    await opened.app.close();
    await opened.pool.end();
  },
});
