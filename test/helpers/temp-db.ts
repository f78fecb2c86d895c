import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory with a path for a real SQLite file; call cleanup() after. */
export function tempDbPath(): { dir: string; path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cs-db-'));
  return { dir, path: join(dir, 'carrier-screen.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
