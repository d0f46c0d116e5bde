#!/usr/bin/env node
/**
 * Draws PaperDesk's app icons as PNG files with Node's built-in modules only (zlib for the PNG
 * compression): a rounded red tile with three candlesticks. Run `node scripts/make-icons.mjs`; the
 * files go to public/icons/. The maskable icon keeps its drawing inside the central safe zone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

const RED = [201, 36, 27];
const WHITE = [255, 255, 255];
const GOLD = [255, 214, 120];

/** CRC-32 as the PNG chunks need it. */
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA pixels → PNG file bytes. */
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Coverage of a pixel by a shape, from 4×4 samples, for smooth edges. `inside(x, y)` takes
 * coordinates in the unit square.
 */
function coverage(px, py, size, inside) {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      if (inside((px + (sx + 0.5) / 4) / size, (py + (sy + 0.5) / 4) / size)) hits++;
    }
  }
  return hits / 16;
}

function roundedRect(x0, y0, x1, y1, r) {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}

/** Three candlesticks rising left to right, in a box of the unit square scaled by `scale` about the centre. */
function candles(scale) {
  const s = (v) => 0.5 + (v - 0.5) * scale;
  const shapes = [];
  const specs = [
    // [centre x, wick top, body top, body bottom, wick bottom, colour]
    [0.3, 0.5, 0.56, 0.74, 0.8, GOLD],
    [0.5, 0.34, 0.42, 0.64, 0.72, WHITE],
    [0.7, 0.2, 0.26, 0.5, 0.58, WHITE],
  ];
  for (const [cx, wickTop, bodyTop, bodyBottom, wickBottom, colour] of specs) {
    shapes.push({
      inside: roundedRect(s(cx - 0.016), s(wickTop), s(cx + 0.016), s(wickBottom), 0.01 * scale),
      colour,
    });
    shapes.push({
      inside: roundedRect(s(cx - 0.065), s(bodyTop), s(cx + 0.065), s(bodyBottom), 0.02 * scale),
      colour,
    });
  }
  return shapes;
}

function draw(size, { maskable }) {
  const rgba = Buffer.alloc(size * size * 4);
  // A maskable icon is a full-bleed square (the platform applies its own mask) with the drawing inside
  // the central 80% safe zone; the plain icon is a rounded tile on transparency.
  const tile = maskable ? () => true : roundedRect(0.04, 0.04, 0.96, 0.96, 0.2);
  const marks = candles(maskable ? 0.72 : 0.9);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const base = coverage(px, py, size, tile);
      let colour = RED;
      let mark = 0;
      for (const shape of marks) {
        const c = coverage(px, py, size, shape.inside);
        if (c > mark) {
          mark = c;
          colour = shape.colour;
        }
      }
      const mix = (i) => Math.round(RED[i] * (1 - mark) + colour[i] * mark);
      const o = (py * size + px) * 4;
      rgba[o] = mix(0);
      rgba[o + 1] = mix(1);
      rgba[o + 2] = mix(2);
      rgba[o + 3] = Math.round(255 * base);
    }
  }
  return encodePng(size, rgba);
}

mkdirSync(OUT, { recursive: true });
const files = [
  ['icon-192.png', 192, { maskable: false }],
  ['icon-512.png', 512, { maskable: false }],
  ['icon-maskable-512.png', 512, { maskable: true }],
  // iOS draws its own rounded corners and shows transparency as black, so the touch icon is full-bleed.
  ['apple-touch-icon.png', 180, { maskable: true }],
];
for (const [name, size, options] of files) {
  const png = draw(size, options);
  writeFileSync(join(OUT, name), png);
  console.log(`public/icons/${name}: ${size}×${size}, ${png.length} bytes`);
}
