/**
 * A client made by a second generator compiles under --strict with a program that narrows on
 * status without casts (issue 32): @hey-api/openapi-ts (pinned, through npx; not a dependency)
 * generates from the served /openapi.json, and the committed program
 * test/fixtures/second-generator/narrow.ts is type-checked against it with this project's tsc.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
// Its own TypeScript pinned too: the generator drives the compiler API of the version it was built for.
const GENERATOR = ['-p', 'typescript@5.9.3', '-p', '@hey-api/openapi-ts@0.99.0', 'openapi-ts'];

let stack: Stack;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'second-generator-'));
  writeFileSync(join(dir, 'openapi.json'), await (await fetch(`${stack.intakeUrl}/openapi.json`)).text());
});
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function sh(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd: dir, maxBuffer: 32 * 1024 * 1024, timeout: 240_000 });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : 1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
  }
}

describe('a client from a second generator', () => {
  it('@hey-api/openapi-ts generates it; the narrowing program compiles under --strict', async () => {
    const gen = await sh('npx', ['--yes', ...GENERATOR, '-i', 'openapi.json', '-o', 'gen']);
    expect(gen.code, gen.out).toBe(0);
    copyFileSync(join(ROOT, 'test/fixtures/second-generator/narrow.ts'), join(dir, 'narrow.ts'));
    const tsc = await sh(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--strict',
      '--noEmit',
      '--target',
      'es2022',
      '--module',
      'esnext',
      '--moduleResolution',
      'bundler',
      '--lib',
      'es2022,dom,dom.iterable',
      '--skipLibCheck',
      'narrow.ts',
    ]);
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);
  }, 300_000);
});
