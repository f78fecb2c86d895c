import type { Config } from '../../shared/config.js';
import { openRecord } from '../open-record.js';
import { IntakeTokens, TokenArgumentError, tokenPath } from './intake-tokens.js';
import { isRole } from './roles.js';

/**
 * `carrier-screen token create|list|revoke`: scoped intake tokens in the worker's record
 * (SCREEN_DB: a SQLite file or a PostgreSQL database). The token is printed once, on create;
 * only its hash is kept.
 */

type Out = (s: string) => void;

async function withTokens<T>(config: Config, fn: (t: IntakeTokens) => Promise<T>): Promise<T> {
  // No reader threads: a token command only reads and writes a row or two. Never makes the record.
  const opened = await openRecord(config, { readers: { size: 0 }, existing: true });
  try {
    return await fn(new IntakeTokens(opened.record));
  } finally {
    await opened.close();
  }
}

export async function runTokenCreate(
  config: Config,
  o: { role: string; name?: string },
  out: Out = (s) => process.stdout.write(s),
): Promise<number> {
  if (!isRole(o.role)) throw new TokenArgumentError(`--role must be metrics, tms, desk or admin, got ${JSON.stringify(o.role)}`);
  const role = o.role;
  const { token, record } = await withTokens(config, (t) => t.create(role, o.name ?? `${role} token`));
  out(`${token}\n`);
  process.stderr.write(`created ${record.id} (${record.role}, "${record.name}"): the token above is shown only now; keep it secret\n`);
  return 0;
}

export async function runTokenList(config: Config, o: { json?: boolean }, out: Out = (s) => process.stdout.write(s)): Promise<number> {
  const list = await withTokens(config, (t) => t.list());
  if (o.json) {
    out(`${JSON.stringify({ object: 'list', data: list }, null, 2)}\n`);
    return 0;
  }
  if (list.length === 0) {
    out(`no scoped tokens (the admin token is ${config.intakeToken ? 'INTAKE_TOKEN' : `in ${tokenPath(config)}`})\n`);
    return 0;
  }
  for (const t of list)
    out(
      `${t.id}  ${t.role.padEnd(7)}  ${t.prefix}…  ${t.revoked_at ? `revoked ${t.revoked_at}` : 'active'}  last used ${t.last_used_at ?? 'never'}  ${t.name}\n`,
    );
  return 0;
}

export async function runTokenRevoke(config: Config, idOrPrefix: string, out: Out = (s) => process.stdout.write(s)): Promise<number> {
  if (!(await withTokens(config, (t) => t.revoke(idOrPrefix.replace(/…$/, ''))))) {
    process.stderr.write(`carrier-screen token revoke: no active token ${idOrPrefix}\n`);
    return 2;
  }
  out(`revoked ${idOrPrefix}\n`);
  return 0;
}
