/**
 * The served /openapi.json passes the two linters a TMS team reaches for: Redocly's
 * `recommended` rules and Spectral's `spectral:oas`, with no errors and no warnings but those
 * justified in redocly.yaml and .spectral.yaml. The linters are not dependencies of the project:
 * npx fetches the pinned versions from the npm registry (as CI does).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
export const REDOCLY = '@redocly/cli@2.77.0';
export const SPECTRAL = '@stoplight/spectral-cli@6.16.3';

let stack: Stack;
let dir: string;
let file: string;

beforeAll(async () => {
  stack = await startStack();
  // No token: the document holds no data.
  const res = await fetch(`${stack.intakeUrl}/openapi.json`);
  expect(res.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, await res.text());
});
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a linter; a non-zero exit is a finding, not a crash of the test. */
async function lint(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--yes', ...args], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024, timeout: 240_000 });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : 1, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

/** The JSON report a linter printed, or a failure that shows what it said instead. */
function reportOf<T>(r: { out: string; err: string }, open: string): T {
  const at = r.out.indexOf(open);
  if (at < 0) throw new Error(`no report from the linter:\n${r.out}\n${r.err}`);
  return JSON.parse(r.out.slice(at)) as T;
}

describe('the OpenAPI document under the linters', () => {
  it('Redocly recommended (redocly.yaml): no errors, no warnings', async () => {
    const r = await lint([REDOCLY, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file]);
    const report = reportOf<{
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    }>(r, '{');
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 300_000);

  it('Spectral spectral:oas (.spectral.yaml): no errors, no warnings', async () => {
    const out = join(dir, 'spectral.json');
    const r = await lint([
      SPECTRAL,
      'lint',
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      out,
      '--fail-severity',
      'hint',
      file,
    ]);
    const results = reportOf<Array<{ code: string; message: string; path: string[]; severity: number }>>(
      { out: existsSync(out) ? readFileSync(out, 'utf8') : '', err: r.out + r.err },
      '[',
    );
    const problems = results.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`);
    expect(problems).toEqual([]);
    expect(r.code).toBe(0);
  }, 300_000);
});
