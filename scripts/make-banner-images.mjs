#!/usr/bin/env node
/**
 * Makes the AVIF and WebP copies of the home banners (public/icons/banner-*.png) beside them: the app
 * draws a <picture> that offers AVIF, then WebP, with the PNG as the fallback (HomeScreen.tsx).
 * Needs Debian's encoders: `apt-get install -y webp libavif-bin` (cwebp, avifenc). Run
 * `node scripts/make-banner-images.mjs`; it prints each file's size and the PNG's intrinsic size, the
 * width and height to put in the banner's seed (server/content/site-settings.ts).
 *
 * The settings are the smallest that still look like the PNG (the banners are smooth gradients, where
 * too coarse a quantizer shows blocks): checked by decoding back (avifdec, dwebp) and comparing.
 * AVIF: quantizer 30 of 63, 4:2:0, slowest speed (best compression). WebP: quality 60, method 6, sharp
 * RGB→YUV conversion (below 60 the gradient shows diagonal bands).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
function pngSize(file) {
  const bytes = readFileSync(file);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const banners = readdirSync(DIR).filter((name) => /^banner-.+\.png$/.test(name));
for (const name of banners) {
  const png = join(DIR, name);
  const avif = png.replace(/\.png$/, '.avif');
  const webp = png.replace(/\.png$/, '.webp');
  execFileSync('avifenc', ['--speed', '0', '--yuv', '420', '--min', '30', '--max', '30', png, avif], {
    stdio: 'ignore',
  });
  execFileSync('cwebp', ['-quiet', '-q', '60', '-m', '6', '-sharp_yuv', png, '-o', webp]);
  const { width, height } = pngSize(png);
  const sizes = [png, avif, webp].map((f) => `${f.slice(f.lastIndexOf('.') + 1)} ${statSync(f).size} B`);
  console.log(`${name}: ${width}×${height}; ${sizes.join(', ')}`);
}
