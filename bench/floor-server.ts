/**
 * Child process: the floors. Two Fastify routes taking the same JSON body as POST /screenings,
 * with no logging:
 * - `POST /screenings`: empty — what this machine, Node and Fastify can do at best;
 * - `POST /durable/screenings`: the least a durable cache hit must do — check the bearer token,
 *   read the carrier's cached score (one SQLite read of its JSON text), insert a screening row
 *   that refers to the score (WAL, synchronous=NORMAL, a commit per request), answer ~3 KB
 *   (the screening with the score's text spliced in, not parsed and serialised again).
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveCarrier, scoreBody } from '../emulator/index.js';
import { serveRpc } from './rpc.js';

const TOKEN = process.env.FLOOR_TOKEN ?? 'durable-floor-token-0123456789';
const expected = createHash('sha256').update(TOKEN).digest();
const dir = mkdtempSync(join(tmpdir(), 'durable-floor-'));
const db = new Database(join(dir, 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE scores (id INTEGER PRIMARY KEY, carrier TEXT NOT NULL UNIQUE, json TEXT NOT NULL, fetched_at TEXT NOT NULL);
  CREATE TABLE screenings (id TEXT PRIMARY KEY, tender_id TEXT, carrier TEXT NOT NULL, score_id INTEGER NOT NULL REFERENCES scores (id), action TEXT NOT NULL, created_at TEXT NOT NULL);
`);
const readScore = db.prepare<[string], { id: number; json: string; fetched_at: string }>(
  'SELECT id, json, fetched_at FROM scores WHERE carrier = ?',
);
const insert = db.prepare('INSERT INTO screenings (id, tender_id, carrier, score_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?)');

function authorized(header: string | undefined): boolean {
  const m = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  return m !== null && timingSafeEqual(expected, createHash('sha256').update(m[1]!).digest());
}

const app = Fastify({ logger: false });
app.post('/screenings', async () => ({ object: 'floor' }));
app.post<{ Body: { dot_number: string; tender_id?: string } }>('/durable/screenings', async (req, reply) => {
  if (!authorized(req.headers.authorization)) return reply.code(401).send({ error: { code: 'unauthorized' } });
  const score = readScore.get(req.body.dot_number);
  if (!score) return reply.code(404).send({ error: { code: 'resource_missing' } });
  const id = `scr_${randomBytes(13).toString('hex')}`;
  const at = new Date().toISOString();
  insert.run(id, req.body.tender_id ?? null, req.body.dot_number, score.id, 'tender', at);
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
  return reply.type('application/json').send(`${head.slice(0, -1)},"score":${score.json}}`);
});
const ready = app.listen({ host: '127.0.0.1', port: 0 }).then(() => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);

serveRpc({
  url: () => ready,
  token: () => TOKEN,
  /** The cached scores of these live carriers, as the emulator would answer them. */
  seed: (dots: string[]) => {
    const put = db.prepare('INSERT OR REPLACE INTO scores (carrier, json, fetched_at) VALUES (?, ?, ?)');
    const now = new Date();
    let bytes = 0;
    for (const dot of dots) {
      const profile = liveCarrier(dot);
      if (!profile) throw new Error(`no live carrier ${dot}`);
      const json = JSON.stringify(scoreBody(profile, 'live', now));
      bytes += json.length;
      put.run(dot, json, now.toISOString());
    }
    return Math.round(bytes / dots.length);
  },
  close: async () => {
    await app.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  },
});
