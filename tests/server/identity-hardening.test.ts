import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

describe.each(dbTargets)('security headers, CORS and limits (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({
      db,
      env: { CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' },
    });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('sends a content security policy that allows only the station’s own scripts and workers', async () => {
    const res = await client.raw('/api/index/ping.do');
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'worker-src': "'self' blob:",
      'object-src': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(csp).not.toContain('unsafe-eval');
    expect(directives['script-src']).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('puts the same headers on error envelopes', async () => {
    const res = await client.raw('/user/getUserInfo.do');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('answers CORS only for the allowed origins', async () => {
    const allowed = await client.raw('/api/index/ping.do', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await client.raw('/api/index/ping.do', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await client.raw('/api/user/login.do', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const evilPreflight = await client.raw('/api/user/login.do', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds no CORS headers outside the API', async () => {
    const page = await client.raw('/home', { headers: { origin: 'https://app.example.com' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect(page.headers.get('vary') ?? '').not.toMatch(/origin/i);
  });

  it('limits request bodies and answers with a translated envelope', async () => {
    const res = await client.post('/api/user/login.do', {
      phone: '13800000000',
      password: 'x'.repeat(70_000),
    });
    expect(res.http).toBe(413);
    expect(failure(res)).toMatchObject({ code: 'VALIDATION', msg: '提交的内容过大' });
  });

  it('publishes every identity call in the OpenAPI document', async () => {
    const doc = (await (await client.raw('/docs/json')).json()) as { paths: Record<string, unknown> };
    for (const path of [
      '/api/sms/sendForgetSms.do',
      '/api/user/updatePwd.do',
      '/user/updatePwd.do',
      '/user/insertWithPwd.do',
      '/code/checkCode.do',
      '/user/auth.do',
      '/user/kyc/upload.do',
      '/user/kyc/image.do',
      '/user/bank/add.do',
      '/user/bank/update.do',
      '/user/bank/getBankInfo.do',
      '/user/getPermissions.do',
      '/api/admin/getSetting.do',
      '/api/admin/getIndexSetting.do',
      '/api/admin/getFuturesSetting.do',
      '/api/site/getInfo.do',
      '/api/site/getPayInfo.do',
      '/api/site/getPayInfoById.do',
      '/api/site/getBannerByPlat.do',
      '/api/oss/token.do',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});

describe('numbers that overflow to Infinity (found by the fuzz test)', () => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db: 'sqlite' });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('refuses "9…9" and 1e400 in integer fields with VALIDATION, not a 500', async () => {
    const phone = '13812345678';
    const sms = await client.post<{ demoCode?: string }>('/api/sms/sendRegSms.do', { phone });
    const reg = await client.post<{ token: string }>('/api/user/reg.do', {
      phone,
      password: 'abc123',
      code: data(sms).demoCode ?? '',
    });
    const me = client.withToken(data(reg).token);
    for (const pageSize of ['9'.repeat(400), '1e400']) {
      const res = await me.get('/user/position/list.do', { state: 'open', pageSize });
      expect(res.http).toBe(400);
      expect(failure(res)).toMatchObject({ code: 'VALIDATION', fields: { pageSize: '格式不正确' } });
    }
    const json = await me.raw('/user/kyc/image.do?id=1e400');
    expect(json.status).toBe(400);
  });
});

describe('a build whose config files and API are on another host', () => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-build-'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>PaperDesk</title>');
    mkdirSync(path.join(staticDir, 'config'));
    writeFileSync(path.join(staticDir, 'config', 'api-1.json'), '{ "ads": "/" }');
    // As vite.config.ts writes it for PAPERDESK_CONFIG_SOURCES=https://cfg.example.net/a.json,/config/api-1.json
    writeFileSync(
      path.join(staticDir, 'paperdesk-build.json'),
      JSON.stringify({ configSources: ['https://cfg.example.net/paperdesk/a.json'] }),
    );
    station = await startStation({
      db: 'sqlite',
      env: { STATIC_DIR: staticDir, CORS_ORIGINS: 'https://api.example.org' },
    });
    client = api(station.url);
  });
  afterAll(async () => {
    await station?.close();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it('lets the page and the service worker fetch the config sources and the API hosts, nothing else', async () => {
    for (const url of ['/home', '/sw.js', '/api/index/ping.do']) {
      const res = await client.raw(url);
      // Read to the end: an answer left unread holds its connection open past the station's close.
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';
      expect(connect.trim().split(/\s+/).slice(1).sort()).toEqual([
        "'self'",
        'https://api.example.org',
        'https://cfg.example.net',
      ]);
    }
  });

  it('serves its config files to the hosts of CORS_ORIGINS, as it serves the API', async () => {
    const allowed = await client.raw('/config/api-1.json', {
      headers: { origin: 'https://api.example.org' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://api.example.org');
    const other = await client.raw('/config/api-1.json', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // The app's own files stay without CORS headers.
    const page = await client.raw('/home', { headers: { origin: 'https://api.example.org' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    // Read to the end, as above.
    await Promise.all([allowed, other, page].map((res) => res.arrayBuffer()));
  });
});
