import { describe, expect, it } from 'vitest';
import {
  discoverBaseUrl,
  normaliseBaseUrl,
  PING_PATH,
  PING_RETRY_DELAYS_MS,
  readAds,
  type DiscoveryDeps,
} from '../../src/sw/discovery';

/** A fake network: URL → what it answers (a JSON body, an HTTP status, or a failure). */
type Answer = { json: unknown; status?: number } | 'fail' | 'hang';

function fakeNetwork(answers: Record<string, Answer>) {
  const requested: string[] = [];
  const fetch = (input: string | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input.url;
    requested.push(url);
    const answer = answers[url];
    if (answer === 'hang') {
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    if (answer === undefined || answer === 'fail') return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(
      new Response(JSON.stringify(answer.json), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  };
  return { fetch, requested };
}

const live = { json: { status: 0, msg: '', data: { serverTime: 1, version: '0.1.0' } } };
const ping = (base: string) => `${base}${PING_PATH}`;

function deps(
  answers: Record<string, Answer>,
  cached: string | undefined,
  configSources = ['https://cdn-a.test/pd.json', 'https://cdn-b.test/pd.json'],
) {
  const network = fakeNetwork(answers);
  const store = { cached, writes: [] as string[], drops: 0 };
  const d: DiscoveryDeps = {
    fetch: network.fetch,
    configSources,
    readCached: () => Promise.resolve(store.cached),
    writeCached: (url) => {
      store.cached = url;
      store.writes.push(url);
      return Promise.resolve();
    },
    dropCached: () => {
      store.cached = undefined;
      store.drops += 1;
      return Promise.resolve();
    },
    timeoutMs: 50,
    // The pauses between tries are the link's business, not the test's: none here.
    sleep: () => Promise.resolve(),
  };
  return { deps: d, store, requested: network.requested };
}

describe('base-URL discovery (spec §7, §8)', () => {
  it('keeps a cached base URL that answers the ping with status 0, reading no config file', async () => {
    const { deps: d, store, requested } = deps({ [ping('https://api.test')]: live }, 'https://api.test');
    await expect(discoverBaseUrl(d)).resolves.toEqual({
      baseUrl: 'https://api.test',
      serverVersion: '0.1.0',
      source: 'cache',
    });
    expect(requested).toEqual([ping('https://api.test')]);
    expect(store.drops).toBe(0);
  });

  it('drops a cached URL whose ping fails, then takes the first config file naming a live URL and caches it', async () => {
    const {
      deps: d,
      store,
      requested,
    } = deps(
      {
        [ping('http://127.0.0.1:1')]: 'fail',
        'https://cdn-a.test/pd.json': { json: { ads: 'https://live.test' } },
        [ping('https://live.test')]: live,
      },
      'http://127.0.0.1:1',
    );
    const found = await discoverBaseUrl(d);
    expect(found?.baseUrl).toBe('https://live.test');
    expect(found?.source).toBe('config');
    expect(store.drops).toBe(1);
    expect(store.writes).toEqual(['https://live.test']);
    expect(requested).not.toContain('https://cdn-b.test/pd.json');
  });

  it('does not accept a ping answer whose status is not 0', async () => {
    const { deps: d, store } = deps(
      { [ping('https://api.test')]: { json: { status: 1, msg: 'maintenance' } } },
      'https://api.test',
    );
    await expect(discoverBaseUrl(d)).resolves.toBeNull();
    expect(store.drops).toBe(1);
  });

  it('skips a config file that fails, answers an HTTP error or lacks `ads`, and tries the next', async () => {
    for (const first of [
      'fail',
      { json: { ads: 'https://x.test' }, status: 500 },
      { json: { other: 1 } },
      'hang',
    ] as Answer[]) {
      const { deps: d, requested } = deps(
        {
          'https://cdn-a.test/pd.json': first,
          'https://cdn-b.test/pd.json': { json: { ads: 'https://live.test/' } },
          [ping('https://live.test')]: live,
        },
        undefined,
      );
      await expect(discoverBaseUrl(d)).resolves.toMatchObject({ baseUrl: 'https://live.test' });
      expect(requested).toContain('https://cdn-b.test/pd.json');
    }
  });

  it('reads `ads` as a list and takes the first URL that answers, in order', async () => {
    const {
      deps: d,
      store,
      requested,
    } = deps(
      {
        'https://cdn-a.test/pd.json': {
          json: { ads: ['http://127.0.0.1:1', 'https://second.test', 'https://third.test'] },
        },
        [ping('https://second.test')]: live,
        [ping('https://third.test')]: live,
      },
      undefined,
    );
    await expect(discoverBaseUrl(d)).resolves.toMatchObject({ baseUrl: 'https://second.test' });
    expect(store.writes).toEqual(['https://second.test']);
    expect(requested).not.toContain(ping('https://third.test'));
  });

  it('goes on to the next file when every URL of a file fails its ping', async () => {
    const { deps: d } = deps(
      {
        'https://cdn-a.test/pd.json': { json: { ads: 'https://dead.test' } },
        [ping('https://dead.test')]: 'hang',
        'https://cdn-b.test/pd.json': { json: { ads: 'https://live.test' } },
        [ping('https://live.test')]: live,
      },
      undefined,
    );
    await expect(discoverBaseUrl(d)).resolves.toMatchObject({ baseUrl: 'https://live.test' });
  });

  it('answers null with nothing cached when no source names a live URL', async () => {
    const { deps: d, store } = deps(
      {
        [ping('https://old.test')]: 'fail',
        'https://cdn-a.test/pd.json': 'fail',
        'https://cdn-b.test/pd.json': { json: { ads: 'https://dead.test' } },
      },
      'https://old.test',
    );
    await expect(discoverBaseUrl(d)).resolves.toBeNull();
    expect(store.cached).toBeUndefined();
    expect(store.writes).toEqual([]);
  });

  it('resolves a relative `ads` against its config file (the default names the app’s own origin)', async () => {
    const { deps: d } = deps(
      {
        'http://app.test/config/api-1.json': { json: { ads: '/' } },
        [ping('http://app.test')]: live,
      },
      undefined,
      ['http://app.test/config/api-1.json'],
    );
    await expect(discoverBaseUrl(d)).resolves.toMatchObject({ baseUrl: 'http://app.test' });
  });
});

describe('discovery on a lossy link (one lost packet is not an outage)', () => {
  /** A ping that fails its first `lost` times, then answers. */
  function lossyPing(lost: number) {
    let calls = 0;
    return (answers: Record<string, Answer>, url: string) => {
      const base = fakeNetwork(answers);
      const fetch = (input: string | Request, init?: RequestInit) => {
        const target = typeof input === 'string' ? input : input.url;
        if (target === url && calls++ < lost) {
          base.requested.push(target);
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return base.fetch(input, init);
      };
      return { fetch, requested: base.requested };
    };
  }

  it('tries a cached URL whose ping was lost again after a pause, and keeps it', async () => {
    const { deps: d, store, requested } = deps({}, 'https://api.test');
    const network = lossyPing(2)({ [ping('https://api.test')]: live }, ping('https://api.test'));
    const pauses: number[] = [];
    const found = await discoverBaseUrl({
      ...d,
      fetch: network.fetch,
      sleep: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
    });
    expect(found).toMatchObject({ baseUrl: 'https://api.test', source: 'cache' });
    expect(network.requested).toEqual([
      ping('https://api.test'),
      ping('https://api.test'),
      ping('https://api.test'),
    ]);
    expect(pauses).toEqual([...PING_RETRY_DELAYS_MS]);
    expect(store.drops).toBe(0);
    expect(requested).toEqual([]);
  });

  it('a config file naming a URL already tried confirms it: it is pinged once more (both default files name one origin)', async () => {
    const origin = 'http://app.test';
    const sources = ['http://app.test/config/api-1.json', 'http://app.test/config/api-2.json'];
    const answers: Record<string, Answer> = {
      [sources[0]!]: { json: { ads: '/' } },
      [sources[1]!]: { json: { ads: '/' } },
      [ping(origin)]: live,
    };
    // Every try of the first round is lost: the second file's confirmation finds the station.
    const { deps: d, store } = deps(answers, undefined, sources);
    const network = lossyPing(1 + PING_RETRY_DELAYS_MS.length)(answers, ping(origin));
    const found = await discoverBaseUrl({ ...d, fetch: network.fetch });
    expect(found).toMatchObject({ baseUrl: origin, source: 'config' });
    expect(store.writes).toEqual([origin]);
  });

  it('keeps a cached URL that no ping reaches but a config file still names; drops one no file names', async () => {
    const confirmedCase = deps(
      {
        [ping('https://api.test')]: 'fail',
        'https://cdn-a.test/pd.json': { json: { ads: 'https://api.test' } },
      },
      'https://api.test',
    );
    await expect(discoverBaseUrl(confirmedCase.deps)).resolves.toBeNull();
    expect(confirmedCase.store.cached).toBe('https://api.test');
    expect(confirmedCase.store.drops).toBe(0);
    // Its ping was tried once for the cache and once more for the confirmation, each with its retries.
    expect(confirmedCase.requested.filter((url) => url === ping('https://api.test'))).toHaveLength(
      2 * (1 + PING_RETRY_DELAYS_MS.length),
    );

    const unnamed = deps(
      {
        [ping('https://api.test')]: 'fail',
        'https://cdn-a.test/pd.json': { json: { ads: 'https://x.test' } },
      },
      'https://api.test',
    );
    await expect(discoverBaseUrl(unnamed.deps)).resolves.toBeNull();
    expect(unnamed.store.cached).toBeUndefined();
  });
});

describe('reading config files', () => {
  it('takes one URL or a list, drops what is not an http(s) URL, and trims trailing slashes', () => {
    const from = 'https://cdn.test/pd.json';
    expect(readAds({ ads: 'https://api.test/' }, from)).toEqual(['https://api.test']);
    expect(readAds({ ads: ['https://a.test', 42, '', 'ftp://x.test', 'https://b.test/v1/'] }, from)).toEqual([
      'https://a.test',
      'https://b.test/v1',
    ]);
    expect(readAds({ ads: null }, from)).toEqual([]);
    expect(readAds('ads', from)).toEqual([]);
    expect(normaliseBaseUrl('not a url')).toBeNull();
  });
});
