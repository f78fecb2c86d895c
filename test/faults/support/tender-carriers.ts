/**
 * The carriers of a fault scenario's tender stream: every `newEvery`-th tender a carrier not seen
 * before, the others one seen earlier (spread by a prime), so hits, coalesced lookups and new
 * lookups mix as in a broker's day.
 */
export function tenderCarrier(i: number, newEvery: number, base: number): string {
  const k = i % newEvery === 0 ? i / newEvery : (i * 7_919) % (Math.floor(i / newEvery) + 1);
  return String(base + k * 1_013);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
