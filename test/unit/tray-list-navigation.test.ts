import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stepSelection } from '../../electron/renderer/list-navigation.js';

const rows = (...ids: string[]): Array<{ id: string }> => ids.map((id) => ({ id }));

describe('stepSelection (j/k in the review desk and the changes view)', () => {
  it('moves one row down and up, and stops at either end', () => {
    const list = rows('a', 'b', 'c');
    expect(stepSelection(list, 'a', 1)?.id).toBe('b');
    expect(stepSelection(list, 'b', -1)?.id).toBe('a');
    expect(stepSelection(list, 'c', 1)?.id).toBe('c');
    expect(stepSelection(list, 'a', -1)?.id).toBe('a');
  });

  it('selects the first row when nothing, or a row no longer listed, is selected', () => {
    expect(stepSelection(rows('a', 'b'), null, 1)?.id).toBe('a');
    expect(stepSelection(rows('a', 'b'), 'gone', -1)?.id).toBe('a');
  });

  it('gives nothing for an empty list', () => {
    expect(stepSelection([], 'a', 1)).toBeUndefined();
  });

  it('always lands on a listed row', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 }),
        fc.option(fc.string()),
        fc.integer({ min: -5, max: 5 }),
        (ids, sel, step) => {
          const next = stepSelection(rows(...ids), sel, step);
          expect(next && ids.includes(next.id)).toBe(true);
        },
      ),
    );
  });
});
