/**
 * Config files and the API on another host (spec §7 discovery): the app is served by one station and built
 * with PAPERDESK_CONFIG_SOURCES naming a config file on a second station, on another port; the service
 * worker reads that file and sends the app's calls to the second station. Both stations' security policies
 * must let it (connect-src from the build's config sources and CORS_ORIGINS; CORS on the config files).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  launchPhoneBrowser,
  newPhoneContext,
  offlineReady,
  startE2eStation,
  watchPageErrors,
} from './harness';

const ROOT = resolve(import.meta.dirname, '../..');

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

/** Builds the app into a fresh folder with these build settings, as `npm run build` does. */
async function buildApp(env: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'paperdesk-remote-build-'));
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((done, fail) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`vite build failed: ${stderr}`))));
  });
  return outDir;
}

describe('config files and the API on another host', () => {
  it('the service worker reads the config on the other port and the app talks to that station', async () => {
    const apiPort = await freePort();
    const apiOrigin = `http://127.0.0.1:${apiPort}`;
    const appDist = await buildApp({
      PAPERDESK_CONFIG_SOURCES: `${apiOrigin}/config/api-1.json`,
      PAPERDESK_BUILD_ID: 'e2e-remote-config',
    });
    cleanups.push(() => rmSync(appDist, { recursive: true, force: true }));
    // The station that serves the app knows the API station as a peer; the API station lets the app's
    // origin call it. The API station's own config file names itself ({"ads": "/"}, relative to the file).
    const appStation = await startE2eStation({ CORS_ORIGINS: apiOrigin }, { staticDir: appDist });
    cleanups.push(() => appStation.close());
    const apiStation = await startE2eStation({ CORS_ORIGINS: appStation.url }, { port: apiPort });
    cleanups.push(() => apiStation.close());

    const context = await newPhoneContext(browser);
    cleanups.push(() => context.close());
    await context.addInitScript(() => localStorage.setItem('paperdesk.lang', JSON.stringify('en')));
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    context.on('serviceworker', (worker) =>
      worker.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      }),
    );

    await page.goto(`${appStation.url}/trading-list`);
    await offlineReady(page);
    const served = appStation.requests.length;
    await page.reload();
    await page.locator('[data-testid^="quote-list-"] li').first().waitFor({ timeout: 30_000 });

    // The worker found the API on the other port through its config file, and the list came from there.
    expect(apiStation.requests).toContain('GET /config/api-1.json');
    expect(apiStation.requests).toContain('GET /api/index/ping.do');
    expect(apiStation.requests.some((r) => r.startsWith('GET /api/stock/'))).toBe(true);
    expect(appStation.requests.slice(served).filter((r) => / \/(api|user)\//.test(r))).toEqual([]);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
  });
});
