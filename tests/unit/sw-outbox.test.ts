import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { DataLayer } from '../../src/sw/data-layer';
import { Outbox } from '../../src/sw/outbox';

// workbox's modules read `self` when they load; in a service worker it is the global scope.
vi.hoisted(() => {
  (globalThis as { self?: unknown }).self ??= globalThis;
});

const ORIGIN = 'http://app.test';
const live = () =>
  new Response(JSON.stringify({ status: 0, msg: '', data: { serverTime: 1, version: '0.1.0' } }), {
    headers: { 'Content-Type': 'application/json' },
  });

/** A data layer whose network is a list of what was sent, up or down as the test says. */
function setUp() {
  const network = { up: false, sent: [] as string[] };
  const fetch = (input: string | Request): Promise<Response> => {
    const request = typeof input === 'string' ? new Request(input) : input;
    if (!network.up) return Promise.reject(new TypeError('Failed to fetch'));
    if (request.url.endsWith('/config/api-1.json')) {
      return Promise.resolve(new Response(JSON.stringify({ ads: '/' })));
    }
    if (request.url.endsWith('/api/index/ping.do')) return Promise.resolve(live());
    return request.text().then((body) => {
      network.sent.push(`${new URL(request.url).pathname} ${body}`);
      return live();
    });
  };
  const layer = new DataLayer({
    origin: ORIGIN,
    configSources: [`${ORIGIN}/config/api-1.json`],
    appVersion: '0.1.0',
    fetch,
    onBaseUrl: () => undefined,
    onServerVersion: () => undefined,
    isBrowserOffline: () => !network.up,
  });
  const outbox = new Outbox(layer, fetch, () => Promise.resolve());
  return { network, layer, outbox };
}

const edit = (path: string, code: string) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { Authorization: 'Bearer t1', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `code=${code}`,
  });

describe('service worker: the watchlist outbox', () => {
  it('keeps edits made offline and sends them in order, once, when the network is back', async () => {
    const { network, layer, outbox } = setUp();
    await (await layer.cache()).db.clear('outbox');
    await outbox.keep(edit('/user/addOption.do', 'AAPL'));
    await outbox.keep(edit('/user/delOption.do', 'TSLA'));
    await outbox.flush(); // still offline: nothing sent, nothing lost
    expect(network.sent).toEqual([]);
    expect(await (await layer.cache()).queued()).toHaveLength(2);

    network.up = true;
    await outbox.flush();
    expect(network.sent).toEqual(['/user/addOption.do code=AAPL', '/user/delOption.do code=TSLA']);
    expect(await (await layer.cache()).queued()).toEqual([]);
    await outbox.flush();
    expect(network.sent).toHaveLength(2);
  });

  it('discovers no base URL while offline, and does not drop the cached one for it', async () => {
    const { network, layer } = setUp();
    const cache = await layer.cache();
    await cache.setConfig('baseUrl', ORIGIN);
    await expect(layer.resolveBaseUrl()).resolves.toBeNull();
    expect(await cache.getConfig('baseUrl')).toBe(ORIGIN);
    network.up = true;
    layer.setPageOnline(true);
    await expect(layer.resolveBaseUrl()).resolves.toBe(ORIGIN);
  });
});
