// Draws the tray and app icons as PNGs (no image library: a PNG is zlib + CRC).
// Run: node electron/assets/make-icons.mjs  — the PNGs are committed; rerun only to change them.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Coverage of a disc (centre cx, cy, radius r) over pixel (x, y), 4×4 supersampled. */
function cover(x, y, cx, cy, r) {
  let hit = 0;
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) {
      const dx = x + (i + 0.5) / 4 - cx;
      const dy = y + (j + 0.5) / 4 - cy;
      if (dx * dx + dy * dy <= r * r) hit++;
    }
  return hit / 16;
}

const COLOURS = { ok: [34, 197, 94], attention: [245, 158, 11], trouble: [220, 38, 38] };

/** A coloured dot with a dark rim, readable on light and dark panels. */
function trayDot(size, [r, g, b]) {
  const c = size / 2;
  return png(size, (x, y) => {
    const outer = cover(x, y, c, c, size * 0.44);
    const inner = cover(x, y, c, c, size * 0.44 - Math.max(1, size / 16));
    const mix = (v) => Math.round(v * inner + 30 * (1 - inner));
    return [mix(r), mix(g), mix(b), Math.round(255 * outer)];
  });
}

for (const [state, colour] of Object.entries(COLOURS)) {
  writeFileSync(join(here, `tray-${state}.png`), trayDot(16, colour));
  writeFileSync(join(here, `tray-${state}@2x.png`), trayDot(32, colour));
}

// App icon: dark rounded tile with a green dot (installers and window).
const S = 512;
writeFileSync(
  join(here, 'app-icon.png'),
  png(S, (x, y) => {
    const rad = 96;
    const qx = Math.max(rad - x, x - (S - 1 - rad), 0);
    const qy = Math.max(rad - y, y - (S - 1 - rad), 0);
    const tile = qx * qx + qy * qy <= rad * rad ? 1 : 0;
    const dot = cover(x, y, S / 2, S / 2, S * 0.26);
    const [r, g, b] = COLOURS.ok;
    const mix = (fg, bg) => Math.round(fg * dot + bg * (1 - dot));
    return [mix(r, 29), mix(g, 36), mix(b, 48), tile ? 255 : 0];
  }),
);
console.log('icons written to', here);
