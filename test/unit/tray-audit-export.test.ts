import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAuditFileName, defaultAuditRange, exportAuditCsv } from '../../electron/main/audit-export.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';

let server: Server | undefined;
const dirs: string[] = [];
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('audit export from the tray', () => {
  it("streams into the picked file as the worker sends it, with progress, past the JSON calls' time-out", async () => {
    const rows = 2000;
    const line = (i: number) => `scr_${String(i).padStart(8, '0')},3100007,approved,tender\n`;
    let releaseRest: () => void = () => undefined;
    const restReleased = new Promise<void>((r) => (releaseRest = r));
    const seen: string[] = [];
    const base = await serve(async (req, res) => {
      seen.push(`${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('id,dot_number,decision,action\n');
      for (let i = 0; i < rows / 2; i++) res.write(line(i));
      // The second half only after the tray has written the first: it does not wait for the whole body.
      await restReleased;
      for (let i = rows / 2; i < rows; i++) res.write(line(i));
      res.end();
    });
    const dir = mkdtempSync(join(tmpdir(), 'tray-audit-'));
    dirs.push(dir);
    const file = join(dir, 'audit.csv');
    // requestTimeoutMs 1: the JSON calls' limit does not apply to the export.
    const bridge = new HttpBridge({ baseUrl: base, token: 'desk-tok', requestTimeoutMs: 1 });
    const progress: number[] = [];
    const bytes = await exportAuditCsv({
      bridge,
      from: '2026-01-01',
      to: '2026-02-01',
      file,
      onProgress: (b) => {
        progress.push(b);
        if (b > 30_000) releaseRest();
      },
    });
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')).toHaveLength(rows + 2);
    expect(bytes).toBe(Buffer.byteLength(text));
    expect(progress.at(-1)).toBe(bytes);
    expect(progress.length).toBeGreaterThan(1);
    expect(seen).toEqual(['/audit.csv?from=2026-01-01&to=2026-02-01 Bearer desk-tok']);
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('an error answer or a stall leaves no file with the chosen name, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tray-audit-'));
    dirs.push(dir);
    let mode: 'refuse' | 'stall' = 'refuse';
    const base = await serve((_req, res) => {
      if (mode === 'refuse')
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"code":"invalid_request","message":"to must be after from","param":"to"}}');
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('id\nscr_1\n'); // then nothing
    });
    // The idle limit only has to be shorter than the stall (which never ends), not than a loaded
    // machine's answer: 100 ms made the refusal itself look like an unreachable worker under load.
    const bridge = new HttpBridge({ baseUrl: base, token: 't', idleTimeoutMs: 1_000 });
    const file = join(dir, 'a.csv');
    await expect(exportAuditCsv({ bridge, from: '2026-02-01', to: '2026-01-01', file })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: 'to',
    });
    mode = 'stall';
    await expect(exportAuditCsv({ bridge, from: '2026-01-01', to: '2026-02-01', file })).rejects.toMatchObject({
      code: 'export_interrupted',
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.part`)).toBe(false);
    await expect(exportAuditCsv({ bridge, from: 'soon', to: '2026-02-01', file })).rejects.toThrow(/from must be an ISO 8601 date/);
  });

  it('offers the last 31 days, today included, as the default range and file name', () => {
    const r = defaultAuditRange(new Date('2026-03-15T22:30:00Z'));
    expect(r).toEqual({ from: '2026-02-13', to: '2026-03-16' });
    expect(defaultAuditFileName(r)).toBe('carrier-screen-audit-2026-02-13-to-2026-03-16.csv');
  });
});
