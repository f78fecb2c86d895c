/**
 * `node dist/emulator/main.js --port 4010 --mode sandbox|live [--rate-per-minute N] [--quota N] [--host H]`
 * Prints the base URL and the demo keys on stdout and serves until SIGINT/SIGTERM.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_EMULATOR_PORT, startEmulator } from './index.js';
import type { EmulatorMode, RunningEmulator } from './types.js';

export interface EmulatorCliIo {
  /** Where the banner goes (default: stdout). */
  out?: (line: string) => void;
  /** Close on SIGINT/SIGTERM and exit (default true; tests pass false). */
  handleSignals?: boolean;
}

function wholeNumber(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
    return n;
  };
}

function modeArg(value: string): EmulatorMode {
  if (value !== 'sandbox' && value !== 'live') throw new InvalidArgumentError('--mode must be "sandbox" or "live"');
  return value;
}

/**
 * Run the emulator from command-line arguments (user arguments only, without `node` and the
 * script, e.g. `['--port', '4010', '--mode', 'live']`). Resolves once it listens.
 */
export async function runEmulatorCli(argv: string[], io: EmulatorCliIo = {}): Promise<RunningEmulator> {
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const program = new Command('emulator')
    .description('reference /v1 Carrier Risk Scoring Service (sandbox fixtures or a synthetic live dataset)')
    .option('--port <port>', `port to listen on (0 = a free port)`, wholeNumber('--port', 0), DEFAULT_EMULATOR_PORT)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--mode <mode>', 'sandbox or live', modeArg, 'sandbox' as EmulatorMode)
    .option('--rate-per-minute <n>', 'requests per minute per account', wholeNumber('--rate-per-minute', 1))
    .option('--quota <n>', 'monthly quota of live score lookups per account', wholeNumber('--quota', 0))
    .exitOverride()
    .configureOutput({ writeOut: (s) => out(s.trimEnd()), writeErr: (s) => process.stderr.write(s) });
  program.parse(argv, { from: 'user' });
  const o = program.opts<{ port: number; host: string; mode: EmulatorMode; ratePerMinute?: number; quota?: number }>();
  if (o.port > 65535) throw new Error('--port must be at most 65535');

  const emu = await startEmulator({ mode: o.mode, host: o.host, port: o.port, ratePerMinute: o.ratePerMinute, monthlyQuota: o.quota });
  out(`svc emulator (${emu.mode}) listening`);
  out(`base URL:    ${emu.baseUrl}`);
  out(`sandbox key: ${emu.keys.sandbox}`);
  out(`live key:    ${emu.keys.live}`);
  out(
    `use the ${emu.mode} key with this instance; try: curl -H "Authorization: Bearer ${emu.keys[emu.mode]}" "${emu.baseUrl}/v1/svc-score?dot_number=1000003"`,
  );

  if (io.handleSignals ?? true) {
    const stop = (): void => {
      emu.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  return emu;
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runEmulatorCli(process.argv.slice(2)).catch((err: unknown) => {
    // commander already printed its own usage errors
    if (!(err instanceof Error && 'code' in err && String(err.code).startsWith('commander.'))) {
      process.stderr.write(`emulator: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    const exitCode = err instanceof Error && 'exitCode' in err && typeof err.exitCode === 'number' ? err.exitCode : 1;
    process.exit(exitCode);
  });
}
