import { readFileSync } from 'node:fs';
import { SingleBar, Presets } from 'cli-progress';
import type { Logger } from 'pino';
import type { CarrierQuery } from '../shared/carrier-id.js';
import { readRoster } from './roster.js';
import type { Config } from '../shared/config.js';
import type { Screening } from '../shared/screening.js';
import { ensureService } from './bootstrap.js';
import { createCallbacks } from './callbacks/index.js';
import { ensureSecret } from './intake/token-file.js';
import { createScreener } from './screener.js';

/** `carrier-screen screen`: one carrier, or a roster in bulk at background priority. */

export interface ScreenOptions {
  dot?: string;
  mc?: string;
  file?: string;
  tender?: string;
  refresh?: boolean;
  json?: boolean;
  wait: number;
}

function describe(s: Screening): string {
  const sc = s.score;
  const who = sc ? `${sc.carrier.legal_name ?? '(no name)'}${sc.carrier.dba_name ? ` dba ${sc.carrier.dba_name}` : ''}` : '';
  const id = 'dot_number' in s.query ? `DOT ${s.query.dot_number}` : s.query.mc_number;
  const lines = [`${id}  ${who}`, `  action:   ${(s.action ?? s.status).toUpperCase()}${s.hold_reason ? ` (${s.hold_reason})` : ''}`];
  if (sc) {
    lines.push(
      `  score:    ${sc.score} grade ${sc.grade}, decision ${sc.decision}${sc.needs_manual_review ? ', needs manual review' : ''}`,
    );
    if (sc.verdict) lines.push(`  verdict:  ${sc.verdict}`);
    for (const k of sc.knockout.reasons) lines.push(`  knockout: ${k.code}: ${k.message}`);
    for (const r of sc.reasons) lines.push(`  reason:   [${r.severity}] ${r.area}: ${r.detail}`);
    lines.push(`  source:   ${s.source}, model ${sc.model_version}, calculated ${sc.calculated_at}`);
  }
  if (s.error) lines.push(`  error:    ${s.error.code}: ${s.error.message}`);
  if (s.review) lines.push(`  review:   ${s.review.id} (${s.review.state})`);
  lines.push(`  screening ${s.id}`);
  return lines.join('\n');
}

export async function runScreen(config: Config, log: Logger, o: ScreenOptions): Promise<number> {
  const svc = await ensureService(config, log);
  // This process works the shared queue, so it delivers callbacks too (any process's).
  const callbackSecret = config.callbackSecret ?? ensureSecret(config.dataDir, 'callback-secret');
  const screener = await createScreener(config, {
    svc,
    logger: log,
    callbacks: (deps) => createCallbacks({ ...deps, secret: callbackSecret }),
  });
  try {
    if (!o.file) {
      const query: CarrierQuery = o.dot ? { dot_number: o.dot } : { mc_number: o.mc! };
      const s = await screener.screen(
        { query, tender_id: o.tender ?? null, priority: 'tender', refresh: o.refresh ?? false },
        { waitMs: o.wait * 1_000 },
      );
      process.stdout.write((o.json ? JSON.stringify(s, null, 2) : describe(s)) + '\n');
      return s.status === 'done' ? 0 : 3;
    }
    const { queries, errors } = readRoster(readFileSync(o.file, 'utf8'));
    for (const e of errors) process.stderr.write(`${o.file}: ${e}\n`);
    const bar = o.json ? undefined : new SingleBar({ format: 'screening |{bar}| {value}/{total} {eta_formatted}' }, Presets.shades_classic);
    bar?.start(queries.length, 0);
    const done = await Promise.all(
      queries.map(async (query) => {
        const s = await screener.screen({ query, priority: 'background', refresh: o.refresh ?? false }, { waitMs: o.wait * 1_000 });
        bar?.increment();
        return s;
      }),
    );
    bar?.stop();
    if (o.json) process.stdout.write(JSON.stringify(done, null, 2) + '\n');
    else {
      const count = (a: string | null): number => done.filter((s) => s.action === a).length;
      process.stdout.write(
        `${done.length} screened: ${count('tender')} tender, ${count('hold')} hold, ${count('block')} block, ` +
          `${done.filter((s) => s.status !== 'done').length} still queued; ${errors.length} roster lines rejected\n`,
      );
    }
    return errors.length > 0 ? 1 : 0;
  } finally {
    await screener.close();
    await svc.emulator?.close();
  }
}
