/** The runnable entry: runEmulatorCli parses options, prints base URL and keys, serves. */
import { describe, expect, it } from 'vitest';
import { parseUsage } from '../../shared/svc-contract.js';
import { DEMO_KEYS } from '../../emulator/index.js';
import { runEmulatorCli } from '../../emulator/main.js';
import { svcGet } from '../helpers/emulator.js';

describe('runEmulatorCli', () => {
  it('starts a live instance with the given limits and prints its base URL and keys', async () => {
    const lines: string[] = [];
    const emu = await runEmulatorCli(['--port', '0', '--mode', 'live', '--quota', '7', '--rate-per-minute', '9'], {
      out: (l) => lines.push(l),
      handleSignals: false,
    });
    try {
      const text = lines.join('\n');
      expect(text).toContain(emu.baseUrl);
      expect(text).toContain(DEMO_KEYS.sandbox);
      expect(text).toContain(DEMO_KEYS.live);
      expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const usage = parseUsage((await svcGet(emu, '/v1/usage')).json);
      expect(usage).toMatchObject({ livemode: true, monthly_quota: 7, rate_limit_per_minute: 9 });
    } finally {
      await emu.close();
    }
  });

  it('defaults to a sandbox instance', async () => {
    const emu = await runEmulatorCli(['--port', '0'], { out: () => {}, handleSignals: false });
    try {
      expect(emu.mode).toBe('sandbox');
      expect((await svcGet(emu, '/v1/svc-score?dot_number=1000003')).json.score).toBe(66);
    } finally {
      await emu.close();
    }
  });

  it('refuses a bad --mode or --port, naming the option', async () => {
    const stderr = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write; // commander prints the error too
    try {
      await expect(runEmulatorCli(['--mode', 'prod'], { out: () => {}, handleSignals: false })).rejects.toThrow(/--mode/);
      await expect(runEmulatorCli(['--port', 'x'], { out: () => {}, handleSignals: false })).rejects.toThrow(/--port/);
      await expect(runEmulatorCli(['--port', '70000'], { out: () => {}, handleSignals: false })).rejects.toThrow(/--port/);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
