import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, data, startStation, type TestStation } from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

const INDEX = '<!doctype html><title>PaperDesk</title><div id="root"></div>';
/** A prerendered tab page (vite.config.ts prerenderShells) and the head script's hash the build names. */
const HOME_PAGE =
  '<!doctype html><title>首页 · PaperDesk</title><div id="root"><div data-prerendered></div></div>';
const SCRIPT_HASH = `'sha256-${'A'.repeat(43)}='`;
const APP_JS = `console.log(${JSON.stringify('app '.repeat(500))})`;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that leaves the body as sent (fetch would decode it), with the given Accept-Encoding. */
function rawGet(base: string, p: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${p}`,
      { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Writes a file with the brotli and gzip copies the build makes (vite.config.ts, precompress). */
function writeWithCopies(file: string, text: string): void {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${file}.gz`, gzipSync(Buffer.from(text)));
}

describe('serving the built app', () => {
  let dist: string;
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'paperdesk-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeWithCopies(path.join(dist, 'index.html'), INDEX);
    mkdirSync(path.join(dist, 'shell'));
    writeWithCopies(path.join(dist, 'shell', 'home.html'), HOME_PAGE);
    writeFileSync(
      path.join(dist, 'paperdesk-build.json'),
      // One good hash, and values that must not widen the policy.
      JSON.stringify({ scriptHashes: [SCRIPT_HASH, "'unsafe-inline'", "'sha256-x' https://evil.example"] }),
    );
    writeWithCopies(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeWithCopies(path.join(dist, 'manifest.webmanifest'), '{"name":"PaperDesk"}');
    writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("app")');
    writeWithCopies(path.join(dist, 'assets', 'app-9b1c0d.js'), APP_JS);
    station = await startStation({ db: 'sqlite', env: { STATIC_DIR: dist } });
  });
  afterAll(async () => {
    await station?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string) => fetch(`${station.url}${p}`);

  it('serves index.html, sw.js and the manifest with no-cache', async () => {
    for (const p of ['/', '/index.html', '/sw.js', '/manifest.webmanifest']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
    }
    expect(await (await get('/')).text()).toBe(INDEX);
  });

  it('answers a tab route with its prerendered page, any other route with index.html', async () => {
    for (const p of ['/home', '/home?lang=en']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(await res.text(), p).toBe(HOME_PAGE);
    }
    // Compressed as the build wrote it.
    const raw = await rawGet(station.url, '/home', 'br');
    expect(raw.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(raw.body).toString()).toBe(HOME_PAGE);
    // Routes without a page of their own, and paths that would reach outside shell/, get index.html.
    for (const p of ['/login', '/Home', '/home/', '/listdetail?code=600519']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toBe(INDEX);
    }
    expect(await (await get('/..%2Fshell%2Fhome')).text()).not.toBe(HOME_PAGE);
  });

  it("preloads /home's first banner picture, in its smallest format, from the page's answer", async () => {
    const home = await get('/home');
    expect(home.headers.get('link')).toBe(
      '</icons/banner-1.avif>; rel=preload; as=image; type="image/avif"; fetchpriority=high',
    );
    // The banner it names is the one the home screen draws first.
    const banners = data<{ imageAvifUrl?: string }[]>(
      await api(station.url).get('/api/site/getBannerByPlat.do?plat=h5'),
    );
    expect(banners[0]?.imageAvifUrl).toBe('/icons/banner-1.avif');
    for (const p of ['/trading-list', '/listdetail?code=600519']) {
      expect((await get(p)).headers.get('link'), p).toBeNull();
    }
  });

  it("allows the build's head script by its hash and nothing else inline", async () => {
    const csp = (await get('/home')).headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc.trim()).toBe(`script-src 'self' ${SCRIPT_HASH}`);
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await get('/assets/index-3f2a9c.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("app")');
  });

  it('sends the brotli copy to a client that accepts brotli, gzip to one that accepts only gzip', async () => {
    const br = await rawGet(station.url, '/assets/app-9b1c0d.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(APP_JS.length);
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);

    const gz = await rawGet(station.url, '/assets/app-9b1c0d.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.body).toString()).toBe(APP_JS);

    const plain = await rawGet(station.url, '/assets/app-9b1c0d.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(APP_JS);
  });

  it('serves index.html, sw.js and the manifest precompressed and still no-cache', async () => {
    for (const p of ['/index.html', '/sw.js', '/manifest.webmanifest', '/home', '/MyList']) {
      const res = await rawGet(station.url, p, 'br');
      expect(res.status, p).toBe(200);
      expect(res.headers['content-encoding'], p).toBe('br');
      expect(res.headers['cache-control'], p).toBe('no-cache');
      expect(res.headers['vary'], p).toMatch(/accept-encoding/i);
    }
    const route = await rawGet(station.url, '/trading-list', 'gzip');
    expect(route.headers['content-encoding']).toBe('gzip');
    expect(route.headers['content-type']).toMatch(/text\/html/);
    expect(gunzipSync(route.body).toString()).toBe(INDEX);
  });

  it("answers the app's own routes with index.html", async () => {
    // `/user` and `/User` are app routes (the personal centre), not the `/user/…` API.
    for (const p of ['/warehouse', '/MyList', '/user', '/User', '/listdetail?code=600519']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(await res.text(), p).toBe(INDEX);
    }
  });

  it('keeps API paths and missing files out of the fallback', async () => {
    const unknownApi = await get('/api/nothing.do');
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toEqual({ status: 404, code: 'NOT_FOUND', msg: '找不到该内容' });
    expect((await get('/user/nothing.do')).status).toBe(404);
    expect((await get('/code/checkCode.do')).status).toBe(404);
    expect((await get('/assets/missing-123.js')).status).toBe(404);
    expect((await get('/favicon-missing.png')).status).toBe(404);
    data(await api(station.url).get('/api/index/ping.do'));
  });
});

describe('without a built app', () => {
  it('serves the API and answers app routes with NOT_FOUND', async () => {
    const station = await startStation({ db: 'sqlite', env: { STATIC_DIR: '/nonexistent/paperdesk-dist' } });
    try {
      data(await api(station.url).get('/api/index/ping.do'));
      const res = await fetch(`${station.url}/home`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
    } finally {
      await station.close();
    }
  });
});
