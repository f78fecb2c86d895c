/** Test helpers for the reference /v1 server: start one on a free port, call it over real HTTP. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';

/** Start an emulator on 127.0.0.1 and a free port. The caller closes it (afterEach/afterAll). */
export function withEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ host: '127.0.0.1', ...opts, port: opts.port ?? 0 });
}

export interface SvcResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

/** The demo key that matches the instance's environment. */
export function keyOf(emu: RunningEmulator): string {
  return emu.keys[emu.mode];
}

/**
 * GET `path` (e.g. `/v1/svc-score?dot_number=1000003`) over real HTTP. `key`: undefined uses
 * the instance's demo key, null sends no Authorization header.
 */
export async function svcGet(
  emu: RunningEmulator,
  path: string,
  key: string | null | undefined = undefined,
  init: { signal?: AbortSignal; method?: string; authorization?: string } = {},
): Promise<SvcResponse> {
  const headers: Record<string, string> = {};
  const k = key === undefined ? keyOf(emu) : key;
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  else if (k !== null) headers.authorization = `Bearer ${k}`;
  const res = await fetch(emu.baseUrl + path, { method: init.method ?? 'GET', headers, signal: init.signal });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A clock the test moves by hand (`now` option of the emulator). */
export function manualClock(startIso: string): { now: () => Date; set(iso: string): void; advance(ms: number): void } {
  let t = Date.parse(startIso);
  if (Number.isNaN(t)) throw new Error(`manualClock: not a timestamp: ${startIso}`);
  return {
    now: () => new Date(t),
    set: (iso) => {
      t = Date.parse(iso);
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
