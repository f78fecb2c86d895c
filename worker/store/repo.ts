import type Database from 'better-sqlite3';
import { connectionOf } from './sqlite-store.js';
import type { Store } from './types.js';

/**
 * A repository of the store: a feature's SQL, behind plain typed methods, built once per store
 * on the store's own connection, so its writes join whatever unit of work is running
 * (`store.unitOfWork`; a repository adds no other way to run one). No connection type leaves
 * worker/store/: a feature holds the Store and asks `xxxOf(store)`.
 */
export function repositoryOf<R extends object>(build: (db: Database.Database) => R): (store: Store) => R {
  const made = new WeakMap<Store, R>();
  return (store) => {
    let r = made.get(store);
    if (!r) {
      r = build(connectionOf(store));
      made.set(store, r);
    }
    return r;
  };
}
