import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchPhoneBrowser, startE2eStation, type E2eStation, type E2eStationOptions } from './harness';

/** A test file's station and phone browser, there while its tests run. */
export interface FileStation {
  readonly station: E2eStation;
  readonly browser: Browser;
}

/**
 * One station (startE2eStation's, with `env` and `options`) and one phone browser for a test file: started
 * before its first test, closed after its last. `started` runs once the station is up (e.g. to keep its URL).
 */
export function stationForFile(
  env: Record<string, string> = {},
  options: E2eStationOptions = {},
  started: (station: E2eStation) => void = () => undefined,
): FileStation {
  let station: E2eStation | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    station = await startE2eStation(env, options);
    started(station);
    browser = await launchPhoneBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await station?.close();
  });
  return {
    get station() {
      if (!station) throw new Error('the station starts before the first test of the file');
      return station;
    },
    get browser() {
      if (!browser) throw new Error('the browser starts before the first test of the file');
      return browser;
    },
  };
}
