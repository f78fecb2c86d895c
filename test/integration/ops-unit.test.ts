/**
 * ops/carrier-screen.service and the install steps around it, as a newcomer meets them: the unit
 * runs Node 24 from the fixed path `scripts/node24.sh --install` makes (not /usr/bin/node, often
 * an older Node that is refused), the env file has one mode everywhere it is described,
 * Prometheus's credentials file is not inside the service's 0700 data directory, and
 * `systemd-analyze security` rates the unit at most 4.0 (where systemd-analyze is installed).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, mkdirTemp } from '../helpers/processes.js';

const read = (p: string): string => readFileSync(join(REPO_ROOT, p), 'utf8');
const unit = read('ops/carrier-screen.service');
const FIXED_NODE = '/var/cache/carrier-screen/node24/bin/node';
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasAnalyze) console.info('SKIPPED the systemd-analyze security score: systemd-analyze not installed');

describe('ops/carrier-screen.service', () => {
  it('runs Node 24 from the fixed path that scripts/node24.sh --install links', () => {
    const exec = /^ExecStart=(\S+) /m.exec(unit)?.[1];
    expect(exec).toBe(FIXED_NODE);
    expect(unit).not.toMatch(/^ExecStart=\/usr\/bin\/node/m);
    // The script links <cache>/node24 to the Node 24 release it names, found in its cache (here a stand-in, no download).
    const cache = mkdirTemp('cs-node-cache-');
    try {
      const bin = join(cache, 'node-v24.99.0', 'bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v24.99.0\n');
      chmodSync(join(bin, 'node'), 0o755);
      const r = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'node24.sh'), '--install'], {
        env: { ...process.env, CARRIER_SCREEN_NODE_CACHE: cache, CARRIER_SCREEN_NODE_VERSION: '24.99.0' },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readlinkSync(join(cache, 'node24'))).toBe(join(cache, 'node-v24.99.0'));
      expect(existsSync(join(cache, 'node24', 'bin', 'node'))).toBe(true);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
    // The release it names by default is a real one (pinned: the script says why).
    expect(read('scripts/node24.sh')).toMatch(/CARRIER_SCREEN_NODE_VERSION:-24\.\d+\.\d+\}/);
    // The default cache for root is the one the unit names.
    expect(read('scripts/node24.sh')).toContain('cache=/var/cache/carrier-screen;');
  });

  it('the env file has one mode in the unit, docs/operations.md and README', () => {
    const modes = new Set<string>();
    for (const m of unit.matchAll(/mode (0[0-7]{3})/g)) modes.add(m[1]!);
    const ops = read('docs/operations.md');
    for (const m of ops.matchAll(/install -m (0?[0-7]{3}) [^\n]*\/etc\/carrier-screen\/env/g)) modes.add(m[1]!.padStart(4, '0'));
    for (const m of ops.matchAll(/\/etc\/carrier-screen\/env[^\n]*mode (0[0-7]{3})/g)) modes.add(m[1]!);
    expect([...modes]).toEqual(['0640']);
  });

  it("Prometheus's token file is outside the service's 0700 data directory", () => {
    expect(unit).toMatch(/^StateDirectoryMode=0700$/m);
    const file = /credentials_file: (\S+)/.exec(read('ops/prometheus.yml'))?.[1];
    expect(file).toBeDefined();
    expect(file!.startsWith('/var/lib/carrier-screen/')).toBe(false);
  });

  it.skipIf(!hasAnalyze)('systemd-analyze security rates it at most 4.0', () => {
    const r = spawnSync('systemd-analyze', ['security', '--offline=true', join(REPO_ROOT, 'ops', 'carrier-screen.service')], {
      encoding: 'utf8',
      cwd: REPO_ROOT,
    });
    const score = /Overall exposure level for carrier-screen\.service: ([\d.]+)/.exec(`${r.stdout}${r.stderr}`)?.[1];
    expect(score, `${r.stdout}${r.stderr}`).toBeDefined();
    console.info(`systemd-analyze security --offline=true ops/carrier-screen.service: ${score}`);
    expect(Number(score)).toBeLessThanOrEqual(4.0);
  });
});
