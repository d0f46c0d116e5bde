/**
 * End-to-end harness: a real test station (the production build in dist/, SQLite in a fresh folder, real
 * HTTP on a free port) and a real Chromium at a phone's size, driven by playwright-core.
 */
import { cpSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Clock } from '../../server/market/clock';
import { idCardCheckChar } from '../../src/shared/validation';

export interface E2eStation {
  url: string;
  port: number;
  /** The station itself, for what a test does on the operator's side (engine steps, operator commands). */
  app: FastifyInstance;
  dataDir: string;
  /** 'METHOD /path' of every request the station received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface E2eStationOptions {
  /** A fixed port (to start a station again where it was); a free one by default. */
  port?: number;
  /** The built app to serve; dist/ by default. */
  staticDir?: string;
  /** The data folder to use (kept on close); a fresh one, removed on close, by default. */
  dataDir?: string;
  /** A clock the test moves (e.g. a FixedClock); the machine's by default. */
  clock?: Clock;
}

const distDir = resolve(import.meta.dirname, '../../dist');

export async function startE2eStation(
  env: Record<string, string> = {},
  options: E2eStationOptions = {},
): Promise<E2eStation> {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error('dist/ is missing: run `npm run build` before the end-to-end tests (npm test does).');
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'paperdesk-e2e-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR: options.staticDir ?? distDir,
    CLOCK_MODE: 'always-open',
    ORDERS_NEED_KYC: 'false',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const app: FastifyInstance = await buildServer(config, options.clock ? { clock: options.clock } : {});
  const requests: string[] = [];
  app.addHook('onRequest', async (request) => {
    requests.push(`${request.method} ${request.url.split('?')[0] ?? ''}`);
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  // As main.ts does: the periodic steps run (the engine's only when the clock is not pinned).
  app.jobs.start();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the station did not get a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    app,
    dataDir,
    requests,
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A TCP port nothing listens on now (for a station started later, or a dead address). */
export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** A copy of the built app in a fresh folder, for a test that changes what the station serves. */
export function copyDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paperdesk-e2e-dist-'));
  cpSync(distDir, dir, { recursive: true });
  return dir;
}

export async function launchPhoneBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh profile at the reference phone size (390×844), touch enabled. */
export async function newPhoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
}

/**
 * Waits until the service worker controls the page and has every screen available offline: it precaches
 * only the first screens and fetches the rest once it controls the page (src/sw/shell.ts).
 */
/** In the page: whether a service worker controls it. */
export const controlledByWorker = (): boolean =>
  (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null;

export async function offlineReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null,
    null,
    {
      timeout: 30_000,
    },
  );
  const ready = await page.evaluate(
    () =>
      new Promise<boolean>((resolveReady) => {
        const { navigator, MessageChannel } = globalThis as unknown as PageGlobals;
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolveReady(event.data.ready);
        navigator.serviceWorker.controller?.postMessage({ type: 'OFFLINE_READY' }, [channel.port2]);
      }),
  );
  if (!ready) throw new Error('the service worker could not fetch every screen');
}

/** What offlineReady uses of the page: this file is also built without the DOM's types (the bench imports it). */
interface PageGlobals {
  navigator: {
    serviceWorker: { controller: { postMessage(message: unknown, transfer: unknown[]): void } | null };
  };
  MessageChannel: new () => {
    port1: { onmessage: ((event: { data: { ready: boolean } }) => void) | null };
    port2: unknown;
  };
}

/** Fails the test on any uncaught page error, so a broken screen cannot pass silently. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** A session as the station's login answers it; the app keeps it in local storage. */
export interface E2eSession {
  token: string;
  user: { id: number };
}

/**
 * A test's own calls to the station, for setting up what the browser then shows: GET with a query, POST with
 * a form, the answer's `data`, or an error naming the call when the station refused.
 */
export function stationClient(url: string) {
  let serial = 0;
  const call = async <T>(
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    fields?: Record<string, string | number>,
  ): Promise<T> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const params = new URLSearchParams(
      Object.entries(fields ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const init: RequestInit = { method, headers };
    let target = `${url}${path}`;
    if (method === 'GET') {
      if (fields) target += `?${params}`;
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = params.toString();
    }
    const envelope = (await (await fetch(target, init)).json()) as { status: number; data: T; msg?: string };
    if (envelope.status !== 0) throw new Error(`${path}: ${envelope.msg ?? envelope.status}`);
    return envelope.data;
  };
  /** A real small PNG as an upload; the station checks the type by its first bytes. */
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(64, 7),
  ]);
  const uploadPhoto = async (token: string): Promise<number> => {
    const res = await fetch(`${url}/user/kyc/upload.do`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: png,
    });
    return ((await res.json()) as { data: { id: number } }).data.id;
  };
  return {
    call,
    /**
     * Real-name verification sent as the KYC screen sends it: the name in Chinese characters (spec §5), a valid
     * ID number and two photos. The station's reviewer decides it later.
     */
    async submitKyc(token: string, realName: string): Promise<void> {
      const first17 = '11010519900307123';
      await call('POST', '/user/auth.do', token, {
        realName,
        idNumber: first17 + idCardCheckChar(first17),
        frontImage: await uploadPhoto(token),
        backImage: await uploadPhoto(token),
      });
    },
    /** A new user, registered with the demo SMS code; phones are `prefix` and a serial, so never by chance. */
    async registerUser(prefix: string): Promise<E2eSession> {
      const phone = `${prefix}${String(++serial).padStart(4, '0')}`;
      const sms = await call<{ demoCode: string }>('POST', '/api/sms/sendRegSms.do', null, { phone });
      return call<E2eSession>('POST', '/api/user/reg.do', null, {
        phone,
        password: 'pass1234',
        code: sms.demoCode,
      });
    },
  };
}

/** A phone-sized page logged in as `session`, in English, failing on any page error. */
export async function openAs(
  browser: Browser,
  session: E2eSession,
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newPhoneContext(browser);
  // Page code as text: this file is compiled without the DOM's types.
  await context.addInitScript({
    content:
      `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(session))});` +
      `localStorage.setItem('paperdesk.lang', '"en"');`,
  });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  return { page, errors, close: () => context.close() };
}
