/**
 * A repository's interface with every method answering a Promise: what a PostgreSQL repository
 * implements for its SQLite twin's interface (the SQLite ones answer at once; the seam is
 * docs/design/postgres.md, section 3).
 */
export type AsyncRepo<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : R[K];
};
