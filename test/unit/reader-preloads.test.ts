import { describe, expect, it } from 'vitest';
import { preloadsOf } from '../../worker/store/reader-pool.js';

/** A reader thread gets the process's preloads and none of its other flags (worker/store/reader-pool.ts). */
describe('preloadsOf', () => {
  it('keeps --import and --require in each spelling, with their values, and nothing else', () => {
    expect(
      preloadsOf([
        '--max-old-space-size=200',
        '--import',
        'file:///a/hooks.mjs',
        '--input-type=module',
        '--import=./b.mjs',
        '-r',
        './c.cjs',
        '--require=./d.cjs',
        '--require',
        './e.cjs',
        '--enable-source-maps',
      ]),
    ).toEqual(['--import', 'file:///a/hooks.mjs', '--import=./b.mjs', '-r', './c.cjs', '--require=./d.cjs', '--require', './e.cjs']);
  });

  it('a process run without preloads starts its threads with no flags', () => {
    expect(preloadsOf([])).toEqual([]);
    expect(preloadsOf(['--max-old-space-size=4096', '--title=x'])).toEqual([]);
    // A flag cut off at the end names nothing to preload.
    expect(preloadsOf(['--import'])).toEqual([]);
  });
});
