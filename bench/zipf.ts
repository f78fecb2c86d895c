/**
 * Zipf sampling: rank k (1-based) of n is drawn with probability k^-s / H(n, s). A few carriers
 * get most tenders, a long tail gets one or two, as in a real brokerage's book.
 */
export class ZipfSampler {
  readonly #cdf: Float64Array;

  constructor(
    readonly n: number,
    readonly s: number,
    private readonly random: () => number,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`zipf n must be a whole number ≥ 1, got ${n}`);
    if (!(s > 0)) throw new RangeError(`zipf s must be > 0, got ${s}`);
    this.#cdf = new Float64Array(n);
    let sum = 0;
    for (let k = 1; k <= n; k++) {
      sum += k ** -s;
      this.#cdf[k - 1] = sum;
    }
    for (let i = 0; i < n; i++) this.#cdf[i]! /= sum;
  }

  /** A rank from 0 (the most frequent) to n − 1. */
  sample(): number {
    const u = this.random();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
