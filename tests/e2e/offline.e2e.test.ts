/**
 * The service-worker data layer in Chromium at 390×844 against the production build:
 * (1) screens browsed online read again offline from IndexedDB, each saying "offline · as of HH:mm", and an
 *     order offline says nothing was sent while the station receives nothing;
 * (2) base-URL discovery fails over (a dead cached URL, a config file down, the next one naming the live
 *     station), shows "cannot connect" with everything down, and works again after a retry;
 * (3) a new build waits, the app offers it, and after the reload the new build runs.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../../locales/en';
import {
  copyDist,
  freePort,
  launchPhoneBrowser,
  newPhoneContext,
  offlineReady,
  startE2eStation,
  watchPageErrors,
} from './harness';

const AS_OF = /^Offline · as of \d\d:\d\d$/;
const STOCK = 'AAPL';

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

interface Session {
  token: string;
  user: { id: number };
}

async function post<T>(url: string, path: string, body: Record<string, string>): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const envelope = (await response.json()) as { status: number; data: T; msg?: string };
  if (envelope.status !== 0) throw new Error(`${path}: ${envelope.msg ?? envelope.status}`);
  return envelope.data;
}

async function registerUser(url: string): Promise<Session> {
  const phone = `1390013${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
  const sms = await post<{ demoCode: string }>(url, '/api/sms/sendRegSms.do', { phone });
  return post<Session>(url, '/api/user/reg.do', { phone, password: 'pass1234', code: sms.demoCode });
}

async function openContext(
  session?: Session,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newPhoneContext(browser);
  await context.addInitScript((s) => {
    if (s) localStorage.setItem('paperdesk.session', JSON.stringify(s));
    localStorage.setItem('paperdesk.lang', JSON.stringify('en'));
  }, session ?? null);
  cleanups.push(() => context.close());
  const page = await context.newPage();
  return { context, page, errors: watchPageErrors(page) };
}

/** Waits until the service worker controls the page (it claims the page once it is active). */
async function controlled(page: Page): Promise<void> {
  await offlineReady(page);
}

/** The base URL the service worker keeps in IndexedDB, or null. */
async function cachedBaseUrl(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolveRead) => {
        const open = indexedDB.open('paperdesk-data');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('config')) {
            db.close();
            resolveRead(null);
            return;
          }
          const read = db.transaction('config').objectStore('config').get('baseUrl');
          read.onsuccess = () => {
            db.close();
            resolveRead((read.result as { data?: string } | undefined)?.data ?? null);
          };
          read.onerror = () => resolveRead(null);
        };
        open.onerror = () => resolveRead(null);
      }),
  );
}

async function setCachedBaseUrl(page: Page, baseUrl: string): Promise<void> {
  await page.evaluate(
    (value) =>
      new Promise<void>((done, fail) => {
        const open = indexedDB.open('paperdesk-data');
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('config', 'readwrite');
          tx.objectStore('config').put({ key: 'baseUrl', data: value, cachedAt: 0, lastUsed: 0, size: 0 });
          tx.oncomplete = () => {
            db.close();
            done();
          };
          tx.onerror = () => fail(tx.error);
        };
        open.onerror = () => fail(open.error);
      }),
    baseUrl,
  );
}

/** Stops the service worker (Chrome DevTools protocol): its next start knows only what IndexedDB holds. */
async function stopServiceWorkers(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

const quoteRows = (page: Page) => page.locator('[data-testid^="quote-list-"] li');

async function showsMarketList(page: Page): Promise<void> {
  await quoteRows(page).first().waitFor({ timeout: 30_000 });
}

async function asOfText(page: Page): Promise<string> {
  const note = page.getByTestId('as-of').first();
  await note.waitFor({ timeout: 15_000 });
  return (await note.innerText()).trim();
}

describe('offline: the data layer tells the truth', () => {
  it('reads the market list, a stock with its chart, the news and an article offline, "as of"; an order offline sends nothing', async () => {
    const station = await startE2eStation();
    cleanups.push(() => station.close());
    const session = await registerUser(station.url);
    const { context, page, errors } = await openContext(session);

    await page.goto(`${station.url}/trading-list?lang=en`);
    await controlled(page);
    // Online, through the service worker: nothing is "as of".
    await page.reload();
    await showsMarketList(page);
    const firstRowOnline = await quoteRows(page).first().innerText();
    expect(await page.getByTestId('as-of').count()).toBe(0);

    await page.goto(`${station.url}/listdetail?code=${STOCK}`);
    await page.getByTestId('detail-price').waitFor();
    await page
      .locator('[data-testid="kline-canvas"][data-ready="true"]:not([data-bars="0"])')
      .first()
      .waitFor({
        timeout: 60_000,
      });
    const priceOnline = await page.getByTestId('detail-price').innerText();

    await page.goto(`${station.url}/newPage`);
    await page.getByTestId('news-row').first().waitFor();
    const newsTitle = (await page.getByTestId('news-row').first().innerText()).split('\n')[0]!.trim();
    await page.getByTestId('news-row').first().click();
    await page.getByTestId('news-detail').waitFor();
    const articleUrl = page.url();
    const articleHeading = await page.locator('[data-testid="news-detail"] h2').innerText();

    // /home and the college's shelves, built from several calls each.
    await page.goto(`${station.url}/home`);
    for (const part of ['banners', 'notice-ticker', 'index-cards', 'hot-stocks', 'home-news']) {
      await page.getByTestId(part).waitFor();
    }
    expect(await page.getByTestId('as-of').count()).toBe(0);
    await page.goto(`${station.url}/college`);
    await page.getByTestId('article-row').first().waitFor();
    const firstArticle = await page.getByTestId('article-row').first().innerText();

    // The buy screen, open while online; then the network goes.
    await page.goto(`${station.url}/buy?code=${STOCK}`);
    await page.locator('input[name="lots"]').waitFor();
    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByTestId('offline-banner').innerText()).toBe(en.connection.offlineBanner);
    await page.locator('input[name="lots"]').fill('1');
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('order-submit').click();
    const refusal = page.getByTestId('buy-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(en.errors.OFFLINE_NOT_SENT);
    expect(station.requests.filter((r) => r.startsWith('POST /user/'))).toEqual([]);

    // Reloaded offline: the shell starts and each screen shows its stored data, saying how old it is.
    await page.goto(`${station.url}/trading-list`);
    await showsMarketList(page);
    expect(await asOfText(page)).toMatch(AS_OF);
    expect(await quoteRows(page).first().innerText()).toBe(firstRowOnline);

    await page.goto(`${station.url}/listdetail?code=${STOCK}`);
    await page.getByTestId('detail-price').waitFor();
    expect(await asOfText(page)).toMatch(AS_OF);
    expect(await page.getByTestId('detail-price').innerText()).toBe(priceOnline);
    await page
      .locator('[data-testid="kline-canvas"][data-ready="true"]:not([data-bars="0"])')
      .first()
      .waitFor({
        timeout: 60_000,
      });

    await page.goto(`${station.url}/newPage`);
    await page.getByTestId('news-row').first().waitFor();
    expect(await asOfText(page)).toMatch(AS_OF);
    expect(await page.getByTestId('news-row').first().innerText()).toContain(newsTitle);

    await page.goto(articleUrl);
    await page.getByTestId('news-detail').waitFor();
    expect(await asOfText(page)).toMatch(AS_OF);
    expect(await page.locator('[data-testid="news-detail"] h2').innerText()).toBe(articleHeading);
    expect(await page.getByTestId('offline-banner').isVisible()).toBe(true);

    await page.goto(`${station.url}/home`);
    await page.getByTestId('home-news').waitFor();
    expect(await asOfText(page)).toMatch(AS_OF);
    await page.goto(`${station.url}/college`);
    await page.getByTestId('article-row').first().waitFor();
    expect(await asOfText(page)).toMatch(AS_OF);
    expect(await page.getByTestId('article-row').first().innerText()).toBe(firstArticle);

    // Nothing that moves money ever reached the station.
    expect(station.requests.filter((r) => /^POST \/user\/(buy|sell|addOrder)/.test(r))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('base-URL discovery fails over (spec §7, §8)', () => {
  it('drops a dead cached URL, skips a config file that is down, takes the next; all down: cannot connect, a retry keeps it; back: found by itself', async () => {
    const staticDir = copyDist();
    const dataDir = mkdtempSync(join(tmpdir(), 'paperdesk-e2e-failover-'));
    cleanups.push(() => {
      rmSync(staticDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });
    let station = await startE2eStation({}, { staticDir, dataDir });
    const port = station.port;
    let stationUp = true;
    cleanups.push(async () => {
      if (stationUp) await station.close();
    });
    const { context, page, errors } = await openContext();

    // First start: the default config files name the app's own origin.
    await page.goto(`${station.url}/trading-list`);
    await controlled(page);
    await page.reload();
    await showsMarketList(page);
    await expect.poll(() => cachedBaseUrl(page)).toBe(station.url);

    // The cached URL now points at a dead port; config file 1 is down; file 2 names the live station.
    const dead = `http://127.0.0.1:${await freePort()}`;
    await setCachedBaseUrl(page, dead);
    rmSync(join(staticDir, 'config', 'api-1.json'));
    for (const copy of readdirSync(join(staticDir, 'config')).filter((f) => f.startsWith('api-1.json.'))) {
      rmSync(join(staticDir, 'config', copy));
    }
    for (const name of ['api-2.json', 'api-2.json.br', 'api-2.json.gz']) {
      rmSync(join(staticDir, 'config', name), { force: true });
    }
    writeFileSync(join(staticDir, 'config', 'api-2.json'), JSON.stringify({ ads: [dead, station.url] }));
    await stopServiceWorkers(context, page);
    const before = station.requests.length;
    await page.reload();
    await showsMarketList(page);
    // The stored URL answered moments ago, so the new worker starts on it without a ping; its first call
    // gets no answer and the discovery behind it finds the live station (the dead URL's pings are retried).
    await expect.poll(() => cachedBaseUrl(page), { timeout: 15_000 }).toBe(station.url);
    const asked = station.requests.slice(before);
    expect(asked).toContain('GET /config/api-1.json');
    expect(asked).toContain('GET /config/api-2.json');
    expect(await page.getByTestId('cannot-connect').count()).toBe(0);

    // Everything down (the station serves the config files too): the page is replaced by "cannot connect".
    await station.close();
    stationUp = false;
    await page.reload();
    const cannotConnect = page.getByTestId('cannot-connect');
    // Only once nothing has answered for PAPERDESK_UNREACHABLE_AFTER_S (20 s by default).
    await cannotConnect.waitFor({ timeout: 45_000 });
    expect(await cannotConnect.innerText()).toContain(en.connection.cannotConnect);

    // A tap on retry while everything is still down: discovery runs again and the message stays.
    await page.getByTestId('cannot-connect-retry').click();
    await page.locator('[data-testid="cannot-connect-retry"]:not([disabled])').waitFor();
    expect(await cannotConnect.count()).toBe(1);

    // The station is back where it was: the page, trying again by itself, finds it through config file 2
    // and the app works, with no tap.
    station = await startE2eStation({}, { staticDir, dataDir, port });
    stationUp = true;
    await showsMarketList(page);
    expect(await page.getByTestId('cannot-connect').count()).toBe(0);
    await expect.poll(() => cachedBaseUrl(page)).toBe(station.url);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('updates', () => {
  it('serves a new build: the new worker waits, the app offers it, and after the reload the new build runs', async () => {
    const staticDir = copyDist();
    const nextBuild = mkdtempSync(join(tmpdir(), 'paperdesk-e2e-next-'));
    cleanups.push(() => {
      rmSync(staticDir, { recursive: true, force: true });
      rmSync(nextBuild, { recursive: true, force: true });
    });
    const station = await startE2eStation({}, { staticDir });
    cleanups.push(() => station.close());
    const { context, page, errors } = await openContext();

    await page.goto(`${station.url}/home`);
    await controlled(page);
    const firstBuild = await page.evaluate(() => document.documentElement.dataset.build);
    expect(firstBuild).toBeTruthy();

    // A new build is deployed where the station serves from.
    const built = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', nextBuild, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: resolve(import.meta.dirname, '../..'),
        env: { ...process.env, PAPERDESK_BUILD_ID: `e2e-next-${Date.now()}` },
        encoding: 'utf8',
      },
    );
    expect(built.status, built.stderr).toBe(0);
    for (const entry of readdirSync(staticDir))
      rmSync(join(staticDir, entry), { recursive: true, force: true });
    cpSync(nextBuild, staticDir, { recursive: true });

    // The next visit finds it; it waits, the running shell stays the old build and offers the new one.
    await page.reload();
    const prompt = page.getByTestId('update-prompt');
    await prompt.waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe(firstBuild);
    expect(await prompt.innerText()).toContain(en.update.available);

    await prompt.getByRole('button', { name: en.update.reload }).click();
    // The new page sets its build once it has started (an undefined one is a page still loading).
    await page.waitForFunction(
      (old) => {
        const build = document.documentElement.dataset.build;
        return build !== undefined && build !== old;
      },
      firstBuild,
      { timeout: 30_000 },
    );
    const running = await page.evaluate(() => document.documentElement.dataset.build);
    expect(running).toMatch(/^e2e-next-/);
    // The worker in control is the new build's too.
    const workerBuild = await page.evaluate(
      () =>
        new Promise<string>((done) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (event: MessageEvent<{ build: string }>) => done(event.data.build);
          navigator.serviceWorker.controller?.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
        }),
    );
    expect(workerBuild).toBe(running);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('precaches only the first screen before it takes control, then fetches the rest: a screen never opened online opens offline', async () => {
    const station = await startE2eStation();
    cleanups.push(() => station.close());
    const { context, page, errors } = await openContext();
    await page.goto(`${station.url}/home`);
    await controlled(page);

    const caches = await page.evaluate(async () => {
      const names = await globalThis.caches.keys();
      const urls = async (match: string) => {
        const name = names.find((n) => n.includes(match));
        if (!name) return [];
        const cache = await globalThis.caches.open(name);
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
      };
      return { precache: await urls('precache'), later: await urls('paperdesk-later') };
    });
    // Before control: the shell, /home and the default language; not the chart worker, not other screens.
    expect(caches.precache).toContain('/index.html');
    expect(caches.precache.some((path) => /\/assets\/HomeScreen-/.test(path))).toBe(true);
    expect(caches.precache.some((path) => /kline\.worker|LoginScreen|\/en-/.test(path))).toBe(false);
    // After control, every other built file.
    expect(caches.later.some((path) => /kline\.worker/.test(path))).toBe(true);
    expect(caches.later.some((path) => /LoginScreen/.test(path))).toBe(true);

    await context.setOffline(true);
    await page.goto(`${station.url}/login`);
    await page.getByTestId('link-register').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });
});
