/**
 * Group commit (worker/store/group-commit.ts) on a real SQLite file: work arriving within two
 * turns of the event loop shares one transaction; a failing piece rolls back alone and rejects only
 * its caller; every caller is answered after the COMMIT.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { openStore, type Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';

let store: Store | undefined;
let tmp: ReturnType<typeof tempDbPath> | undefined;
afterEach(() => {
  store?.close();
  tmp?.cleanup();
});

describe('group commit', () => {
  it('one transaction for a burst; a failing piece rolls back alone; answers come after the commit', async () => {
    tmp = tempDbPath();
    store = openStore(tmp.path);
    const db = connectionOf(store);
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    let outer = 0;
    let depth = 0;
    const counting = {
      transaction<T>(fn: () => T): T {
        if (depth === 0) outer++;
        depth++;
        try {
          return store!.transaction(fn);
        } finally {
          depth--;
        }
      },
    };
    const group = new GroupCommit(counting);
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const seenCommitted: boolean[] = [];
    const runs = [1, 2, 3, 4, 5].map((n) =>
      group
        .run(() => {
          insert.run(n);
          if (n === 3) throw new Error('piece 3 fails');
          return n;
        })
        .then((v) => {
          // Answered after the COMMIT: another connection sees the row.
          const other = openStore(store!.path);
          try {
            seenCommitted.push((connectionOf(other).prepare('SELECT COUNT(*) AS c FROM t WHERE n = ?').get(v) as { c: number }).c === 1);
          } finally {
            other.close();
          }
          return v;
        }),
    );
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(outer).toBe(1);
    expect((db.prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n)).toEqual([1, 2, 4, 5]);
    expect(seenCommitted).toEqual([true, true, true, true]);
    // The next turn is a new transaction.
    await group.run(() => insert.run(6));
    expect(outer).toBe(2);
  });
});
