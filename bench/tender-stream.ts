import { liveDots } from './carriers.js';
import { seededRandom } from './prng.js';
import { ZipfSampler } from './zipf.js';

export interface TenderStream {
  /** One DOT number per tender, in arrival order. */
  dots: string[];
  /** Carriers the stream draws from. */
  carriers: number;
  /** Carriers that actually appear. */
  distinct: number;
  s: number;
}

/**
 * A Zipf(s) stream of `size` tenders over `carriers` live carriers. Ranks are assigned to
 * carriers in a shuffled order so popularity does not follow the DOT number.
 */
export function zipfTenderStream(o: { size: number; carriers: number; s: number; seed: number; fromDot: number }): TenderStream {
  const random = seededRandom(o.seed);
  const pool = liveDots(o.carriers, o.fromDot);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const zipf = new ZipfSampler(pool.length, o.s, random);
  const dots = Array.from({ length: o.size }, () => pool[zipf.sample()]!);
  return { dots, carriers: pool.length, distinct: new Set(dots).size, s: o.s };
}
