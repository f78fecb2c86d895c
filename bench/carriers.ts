import { liveCarrier } from '../emulator/index.js';

/** `count` DOT numbers from `from` upward that the live emulator knows (about 3 % have no carrier). */
export function liveDots(count: number, from: number): string[] {
  const out: string[] = [];
  for (let dot = from; out.length < count; dot++) {
    if (dot > 99_999_999) throw new RangeError('ran out of 8-digit DOT numbers');
    if (liveCarrier(String(dot))) out.push(String(dot));
  }
  return out;
}
