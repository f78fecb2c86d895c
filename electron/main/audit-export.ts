import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { HttpBridge } from '../shared/http-bridge.js';

/**
 * The audit CSV from the tray, into a file the user picked: streamed chunk by chunk (a large
 * range is hundreds of MB; nothing is held in memory), with progress, and no time limit but a
 * stall. It is written to `<file>.part` and renamed when complete, so a file with the chosen
 * name is always a whole export.
 */

/** The default range: the last 31 days, today included ([from, to) in UTC days). */
export function defaultAuditRange(now: Date): { from: string; to: string } {
  const day = (d: Date): string => d.toISOString().slice(0, 10);
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from = new Date(to.getTime() - 31 * 86_400_000);
  return { from: day(from), to: day(to) };
}

export function defaultAuditFileName(range: { from: string; to: string }): string {
  return `carrier-screen-audit-${range.from}-to-${range.to}.csv`;
}

export async function exportAuditCsv(o: {
  bridge: Pick<HttpBridge, 'streamAuditCsv'>;
  from: string;
  to: string;
  file: string;
  onProgress?: (bytes: number) => void;
  signal?: AbortSignal;
}): Promise<number> {
  const part = `${o.file}.part`;
  const out = createWriteStream(part, { mode: 0o600 });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  // Backpressure: wait for the disk when the stream's buffer is full.
  const write = (chunk: Uint8Array): Promise<void> =>
    out.write(chunk) ? Promise.resolve() : Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  try {
    const bytes = await o.bridge.streamAuditCsv(o.from, o.to, write, {
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    await Promise.race([new Promise<void>((r) => out.end(() => r())), failed]);
    await rename(part, o.file);
    return bytes;
  } catch (err) {
    out.destroy();
    await rm(part, { force: true });
    throw err;
  }
}
