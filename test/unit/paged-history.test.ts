import { describe, expect, it } from 'vitest';
import { PagedHistory } from '../../electron/renderer/paged-history.js';

/**
 * The desk's paged history (issue 30) over a list that behaves as the intake's keyset pages do:
 * newest first, a page after a cursor id, items only ever added at the head.
 */
interface Item {
  id: string;
  at: number;
}

function list(n: number) {
  const items: Item[] = [];
  const add = () => {
    const at = items.length;
    items.unshift({ id: `it_${String(at).padStart(3, '0')}`, at });
  };
  for (let i = 0; i < n; i++) add();
  const reads: Array<{ limit: number; after?: string }> = [];
  const read = async (limit: number, after?: string) => {
    reads.push({ limit, ...(after === undefined ? {} : { after }) });
    const from = after === undefined ? 0 : items.findIndex((x) => x.id === after) + 1;
    return { data: items.slice(from, from + limit), has_more: items.length > from + limit };
  };
  const history = new PagedHistory<Item>(5, (a, b) => b.at - a.at, read);
  return { items, add, reads, history, ids: () => history.items.map((x) => x.id) };
}

describe('PagedHistory', () => {
  it('reads one page, then the next from the last id shown; nothing twice, and says when none is left', async () => {
    const l = list(12);
    await l.history.reload();
    expect(l.ids()).toEqual(l.items.slice(0, 5).map((x) => x.id));
    expect(l.history.more).toBe(true);
    expect(await l.history.older()).toBe(5);
    expect(await l.history.older()).toBe(2);
    expect(l.ids()).toEqual(l.items.map((x) => x.id));
    expect(l.history.more).toBe(false);
    expect(l.reads).toEqual([{ limit: 5 }, { limit: 5, after: l.items[4]!.id }, { limit: 5, after: l.items[9]!.id }]);
  });

  it('a first page read again after new items keeps the older pages shown, with no gap', async () => {
    const l = list(12);
    await l.history.reload();
    await l.history.older();
    for (let i = 0; i < 3; i++) l.add(); // fewer than a page arrived at the head
    await l.history.reload();
    // The new items on top, then every item shown before, once each, in order.
    expect(l.ids()).toEqual(l.items.slice(0, 13).map((x) => x.id));
    while (l.history.more) await l.history.older();
    expect(l.ids()).toEqual(l.items.map((x) => x.id));
  });

  it('more than a page arrived unseen: the history starts again from the new first page, never with a gap', async () => {
    const l = list(12);
    await l.history.reload();
    await l.history.older();
    for (let i = 0; i < 7; i++) l.add();
    await l.history.reload();
    expect(l.ids()).toEqual(l.items.slice(0, 5).map((x) => x.id));
    expect(l.history.more).toBe(true);
    while (l.history.more) await l.history.older();
    expect(l.ids()).toEqual(l.items.map((x) => x.id));
  });

  it('before "Show older", a live item goes on top and one page stays one page', async () => {
    const l = list(5);
    await l.history.reload();
    expect(l.history.more).toBe(false);
    l.add();
    l.history.add(l.items[0]!);
    expect(l.ids()).toEqual(l.items.slice(0, 5).map((x) => x.id));
    expect(l.history.more).toBe(true);
    expect(await l.history.older()).toBe(1);
    expect(l.ids()).toEqual(l.items.map((x) => x.id));
  });
});
