/**
 * End-to-end harness: a real test station (the production build in dist/, SQLite in a fresh folder, real
 * HTTP on a free port) and a real Chromium at a phone's size, driven by playwright-core.
 */
import { cpSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';

export interface E2eStation {
  url: string;
  port: number;
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
  const app: FastifyInstance = await buildServer(config);
  const requests: string[] = [];
  app.addHook('onRequest', async (request) => {
    requests.push(`${request.method} ${request.url.split('?')[0] ?? ''}`);
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the station did not get a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    requests,
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

/** Fails the test on any uncaught page error, so a broken screen cannot pass silently. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
