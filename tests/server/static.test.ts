import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, data, startStation, type TestStation } from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

const INDEX = '<!doctype html><title>PaperDesk</title><div id="root"></div>';

describe('serving the built app', () => {
  let dist: string;
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'paperdesk-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"PaperDesk"}');
    writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("app")');
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

  it('serves hashed assets as immutable for a year', async () => {
    const res = await get('/assets/index-3f2a9c.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("app")');
  });

  it("answers the app's own routes with index.html", async () => {
    // `/user` and `/User` are app routes (the personal centre), not the `/user/…` API.
    for (const p of ['/home', '/warehouse', '/MyList', '/user', '/User', '/listdetail?code=600519']) {
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
