/**
 * ops/alerts.yml against its unit tests, with the real promtool: the rules load, the tests pass,
 * and every alert is tested both firing and quiet. Skipped only where promtool is missing and
 * this is not CI (.ci/run sets CI and installs Debian's prometheus package).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';

const OPS = join(REPO_ROOT, 'ops');
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
if (!hasPromtool && !inCi) console.info('SKIPPED ops-alerts: promtool not installed (apt-get install prometheus)');

function promtool(args: string[]): { code: number | null; out: string } {
  const r = spawnSync('promtool', args, { cwd: OPS, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Each `alert_rule_test` case of the test file: its alert and whether it expects any alert. */
function cases(text: string): Array<{ alertname: string; fires: boolean }> {
  return text
    .split(/^\s*- eval_time:/m)
    .slice(1)
    .map((c) => {
      const name = /^\s*alertname:\s*(\S+)\s*$/m.exec(c)?.[1];
      if (!name) throw new Error(`an alert_rule_test case without an alertname:\n${c}`);
      return { alertname: name, fires: !/^\s*exp_alerts:\s*\[\]\s*$/m.test(c) };
    });
}

describe('ops/alerts.yml', () => {
  const rules = readFileSync(join(OPS, 'alerts.yml'), 'utf8');
  const alerts = [...rules.matchAll(/^\s*- alert:\s*(\S+)\s*$/gm)].map((m) => m[1]!);
  const tested = cases(readFileSync(join(OPS, 'alerts.test.yml'), 'utf8'));

  it('every alert has a promtool case where it fires and one where it stays quiet', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(15);
    const missing = alerts.flatMap((a) => [
      ...(tested.some((t) => t.alertname === a && t.fires) ? [] : [`${a} never fires`]),
      ...(tested.some((t) => t.alertname === a && !t.fires) ? [] : [`${a} is never quiet`]),
    ]);
    expect(missing).toEqual([]);
    // A case for an alert that no longer exists tests nothing.
    expect(tested.map((t) => t.alertname).filter((n) => !alerts.includes(n))).toEqual([]);
  });

  it.skipIf(!hasPromtool && !inCi)('promtool loads the rules and their unit tests pass', () => {
    expect(hasPromtool, 'promtool is required in CI').toBe(true);
    const check = promtool(['check', 'rules', 'alerts.yml']);
    expect(check.out).toContain(`SUCCESS: ${alerts.length} rules found`);
    const test = promtool(['test', 'rules', 'alerts.test.yml']);
    expect(test.code, test.out).toBe(0);
  });
});
