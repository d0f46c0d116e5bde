/**
 * The home banner over HTTP: getBannerByPlat.do gives the picture's AVIF and WebP sources beside the PNG,
 * and its intrinsic size; the station serves each source with its image type; a banner stored without the
 * new fields stays valid, and the operator cannot set a source or a size the app must not use.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Banner } from '../../src/shared/api/types';
import { setSiteSetting, SITE_SETTING_DEFAULTS } from '../../server/content/site-settings';
import type { FixedClock } from '../../server/market/clock';
import { api, data, dbTargets, startStation, type TestStation } from './helpers/station';

/** The app's static files as the build copies them (public/ goes to dist/ unchanged). */
const PUBLIC_DIR = path.resolve(__dirname, '../../public');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each(dbTargets)('home banner pictures (%s)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db, env: { STATIC_DIR: PUBLIC_DIR } });
  });
  afterAll(async () => station?.close());

  const banners = async (plat = 'h5') =>
    data(await api(station.url).get<Banner[]>('/api/site/getBannerByPlat.do', { plat }));

  it('answers the seeded banner with its AVIF and WebP sources and the PNG’s intrinsic size', async () => {
    const [banner] = await banners();
    expect(banner).toMatchObject({
      imageUrl: '/icons/banner-1.png',
      imageAvifUrl: '/icons/banner-1.avif',
      imageWebpUrl: '/icons/banner-1.webp',
    });
    expect({ width: banner!.imageWidth, height: banner!.imageHeight }).toEqual(
      pngSize(path.join(PUBLIC_DIR, banner!.imageUrl)),
    );
  });

  it('serves each source with its image type, smaller than the PNG', async () => {
    const [banner] = await banners();
    const png = await fetch(station.url + banner!.imageUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    const pngBytes = (await png.arrayBuffer()).byteLength;
    for (const [src, type] of [
      [banner!.imageAvifUrl!, 'image/avif'],
      [banner!.imageWebpUrl!, 'image/webp'],
    ] as const) {
      const res = await fetch(station.url + src);
      expect(res.status, src).toBe(200);
      expect(res.headers.get('content-type'), src).toBe(type);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // The files are what they claim: an ISO-BMFF 'ftypavif' box, a RIFF 'WEBP' file.
      const magic = type === 'image/avif' ? bytes.slice(4, 12) : bytes.slice(8, 12);
      expect(new TextDecoder().decode(magic), src).toBe(type === 'image/avif' ? 'ftypavif' : 'WEBP');
      expect(bytes.byteLength, src).toBeLessThan(pngBytes / 10);
    }
  });

  it('keeps a banner stored without the picture fields, and answers it without them', async () => {
    const plain = {
      id: 7,
      plat: 'app',
      title: 'Plain',
      imageUrl: '/icons/banner-1.png',
      linkUrl: '',
      sort: 1,
    };
    await setSiteSetting(station.app.station, 'banners', [plain], 'tester', 'an older banner');
    try {
      expect(await banners('app')).toEqual([plain]);
    } finally {
      await setSiteSetting(station.app.station, 'banners', SITE_SETTING_DEFAULTS.banners, 'tester', 'reset');
    }
    expect((await banners())[0]).toMatchObject({ imageWidth: 750, imageHeight: 280 });
  });

  it('refuses sources that are not https or a path on this site, and sizes that are not whole pixels', async () => {
    const seeded = SITE_SETTING_DEFAULTS.banners[0];
    for (const bad of [
      { imageAvifUrl: 'javascript:alert(1)' },
      { imageAvifUrl: '//evil.example/a.avif' },
      { imageWebpUrl: '/\\evil.example/a.webp' },
      { imageWebpUrl: 'http://cdn.example/a.webp' },
      { imageAvifUrl: '/icons/a.avif 2x' },
      { imageWidth: 750.5 },
      { imageHeight: 0 },
      { imageWidth: '750' },
    ]) {
      await expect(
        setSiteSetting(station.app.station, 'banners', [{ ...seeded, ...bad }], 'tester', 'x'),
        JSON.stringify(bad),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
    }
    const cdn = { ...seeded, imageAvifUrl: 'https://cdn.example/b.avif', imageWebpUrl: '' };
    await setSiteSetting(station.app.station, 'banners', [cdn], 'tester', 'from the CDN');
    try {
      expect((await banners())[0]).toMatchObject({
        imageAvifUrl: 'https://cdn.example/b.avif',
        imageWebpUrl: '',
      });
    } finally {
      await setSiteSetting(station.app.station, 'banners', SITE_SETTING_DEFAULTS.banners, 'tester', 'reset');
    }
  });
});
