import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataLayer, NETWORK_SETTLE_MS } from '../../src/sw/data-layer';
import type { BaseUrlChanged } from '../../src/shared/sw-protocol';
import { maxAgeMs, noAnswer, networkOnly, storedAnswer } from '../../src/sw/strategies';
import { CACHED_AT_HEADER, TOO_OLD_HEADER, UNREACHABLE_HEADER } from '../../src/shared/sw-protocol';

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
    // These tests are about the network coming back, not about the time allowed before "cannot connect".
    unreachableAfterMs: 0,
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

/** A network where the station at ORIGIN answers pings and calls while `up`, and a config file names it. */
function lossyStation() {
  const net = { up: true, requested: [] as string[] };
  const fetch = (input: string | Request): Promise<Response> => {
    const url = typeof input === 'string' ? input : input.url;
    net.requested.push(url);
    if (!net.up) return Promise.reject(new TypeError('Failed to fetch'));
    const body = url.endsWith('.json') ? { ads: '/' } : { status: 0, msg: '', data: { version: '0.1.0' } };
    return Promise.resolve(
      new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }),
    );
  };
  const announced: BaseUrlChanged[] = [];
  const make = (unreachableAfterMs: number) =>
    new DataLayer({
      origin: ORIGIN,
      configSources: [`${ORIGIN}/config/api-1.json`, `${ORIGIN}/config/api-2.json`],
      appVersion: '0.1.0',
      fetch,
      onBaseUrl: (message) => announced.push(message),
      onServerVersion: () => undefined,
      isBrowserOffline: () => false,
      unreachableAfterMs,
      rediscoveryDelaysMs: [20],
      pingRetryDelaysMs: [],
    });
  return { net, announced, make };
}

describe('service worker: a lossy link is not an outage', () => {
  it('says "cannot connect" only once nothing has answered for the stated time, naming what it waits for', async () => {
    const { net, announced, make } = lossyStation();
    net.up = false;
    const layer = make(200);
    const started = Date.now();
    const read = new Request(`${ORIGIN}/api/user/getUserInfo.do`);
    // The call waits while the discovery goes on in rounds, and is told "unreachable" only at the end.
    expect(says(await networkOnly(layer, read, false))).toBe('unreachable');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    // More than one round: the config files were read again.
    expect(net.requested.filter((url) => url.endsWith('api-1.json')).length).toBeGreaterThan(1);
    expect(announced.at(-1)).toEqual({
      type: 'BASE_URL',
      baseUrl: null,
      unreachable: true,
      waitingFor: [`${ORIGIN}/config/api-1.json`, `${ORIGIN}/config/api-2.json`],
    });
  });

  it('a station that answers again within the time is found, and nothing said "cannot connect"', async () => {
    const { net, announced, make } = lossyStation();
    net.up = false;
    const layer = make(5000);
    setTimeout(() => (net.up = true), 60);
    await expect(layer.resolveBaseUrl()).resolves.toBe(ORIGIN);
    expect(announced.every((message) => !message.unreachable)).toBe(true);
  });

  it('a known-good base URL keeps serving after a call without an answer, checked in the background', async () => {
    const { net, make } = lossyStation();
    const layer = make(5000);
    await expect(layer.startBaseUrl()).resolves.toBe(ORIGIN);
    net.up = false;
    const call = new Request(`${ORIGIN}/user/position/list.do`);
    await expect(layer.fetchFromBase(call, ORIGIN)).rejects.toThrow();
    // The next call goes to the same base at once, without waiting for the discovery running behind it.
    net.up = true;
    await expect(layer.resolveBaseUrl()).resolves.toBe(ORIGIN);
    expect(says(await networkOnly(layer, call, false))).toBe('other');
    expect(layer.mayCallUnreachable()).toBe(false);
  });

  it('a base URL that answered recently is used at the next start without a ping', async () => {
    // A device that never ran the app: nothing stored.
    (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
    const first = lossyStation();
    await expect(first.make(5000).startBaseUrl()).resolves.toBe(ORIGIN);
    expect(first.net.requested).toContain(`${ORIGIN}/api/index/ping.do`);

    // A new service worker (the browser stopped the last one): the stored base URL and its time are read.
    const second = lossyStation();
    await expect(second.make(5000).startBaseUrl()).resolves.toBe(ORIGIN);
    expect(second.net.requested).toEqual([]);
  });
});

describe('stored answers too old to pass for current', () => {
  const DAY = 86_400_000;
  const read = async (response: Response) => ({
    status: response.status,
    cachedAt: response.headers.get(CACHED_AT_HEADER),
    tooOld: response.headers.get(TOO_OLD_HEADER),
  });

  it('shows quotes, lists and bars up to 7 days old, marked with their time; older ones say when they are from', async () => {
    for (const store of ['quotes', 'lists', 'bars'] as const) {
      const sixDays = Date.now() - 6 * DAY;
      expect(await read(storedAnswer({ rows: [] }, sixDays, store))).toEqual({
        status: 200,
        cachedAt: new Date(sixDays).toISOString(),
        tooOld: null,
      });
      const eightDays = Date.now() - 8 * DAY;
      expect(await read(storedAnswer({ rows: [] }, eightDays, store))).toEqual({
        status: 503,
        cachedAt: null,
        tooOld: new Date(eightDays).toISOString(),
      });
    }
  });

  it('keeps news and articles for 30 days', async () => {
    for (const store of ['news', 'articles'] as const) {
      expect((await read(storedAnswer({}, Date.now() - 20 * DAY, store))).status).toBe(200);
      expect((await read(storedAnswer({}, Date.now() - 31 * DAY, store))).tooOld).not.toBeNull();
    }
    expect(maxAgeMs('config')).toBe(Number.POSITIVE_INFINITY);
  });
});
