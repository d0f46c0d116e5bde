import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataLayer, NETWORK_SETTLE_MS } from '../../src/sw/data-layer';
import { noAnswer, networkOnly } from '../../src/sw/strategies';
import { UNREACHABLE_HEADER } from '../../src/shared/sw-protocol';

// workbox's modules read `self` when they load; in a service worker it is the global scope.
vi.hoisted(() => {
  (globalThis as { self?: unknown }).self ??= globalThis;
});

const ORIGIN = 'http://app.test';

/** A data layer whose network never answers, and whose browser is online or not as the test says. */
function setUp() {
  const browser = { online: true };
  const layer = new DataLayer({
    origin: ORIGIN,
    configSources: [`${ORIGIN}/config/api-1.json`],
    appVersion: '0.1.0',
    fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    onBaseUrl: () => undefined,
    onServerVersion: () => undefined,
    isBrowserOffline: () => !browser.online,
  });
  return { browser, layer };
}

const says = (response: Response) =>
  response.type === 'error'
    ? 'no answer'
    : response.headers.has(UNREACHABLE_HEADER)
      ? 'unreachable'
      : 'other';

afterEach(() => {
  vi.useRealTimers();
});

describe('service worker: when a call without an answer means "cannot connect"', () => {
  it('online from the start, a station that never answers is unreachable', async () => {
    const { layer } = setUp();
    const read = new Request(`${ORIGIN}/api/user/getUserInfo.do`);
    expect(says(await networkOnly(layer, read, false))).toBe('unreachable');
    expect(says(noAnswer(layer, null))).toBe('unreachable');
  });

  it('just back online, no answer is the network still coming up; after a few seconds it is the station', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { browser, layer } = setUp();
    browser.online = false;
    layer.setPageOnline(false);
    expect(layer.isOffline()).toBe(true);
    expect(says(noAnswer(layer, null))).toBe('no answer');

    // The page says it is online (the browser's "online" comes before its connections work).
    browser.online = true;
    layer.setPageOnline(true);
    const read = new Request(`${ORIGIN}/api/user/getUserInfo.do`);
    expect(says(await networkOnly(layer, read, false))).toBe('no answer');
    expect(says(noAnswer(layer, null))).toBe('no answer');

    vi.setSystemTime(Date.now() + NETWORK_SETTLE_MS);
    expect(says(await networkOnly(layer, read, false))).toBe('unreachable');
  });

  it('notices the browser coming back online by itself, without a word from a page', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { browser, layer } = setUp();
    browser.online = false;
    expect(says(noAnswer(layer, null))).toBe('no answer');
    browser.online = true;
    expect(says(noAnswer(layer, null))).toBe('no answer');
    vi.setSystemTime(Date.now() + NETWORK_SETTLE_MS);
    expect(says(noAnswer(layer, null))).toBe('unreachable');
  });
});
