import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { T0, api, dbTargets, startStation, type TestStation } from './helpers/station';

interface SseEvent {
  id: string;
  event: string;
  data: Quote;
}

/** Opens the stream and collects events until `enough` says so (or a timeout), then closes it. */
async function collect(
  url: string,
  enough: (events: SseEvent[]) => boolean,
  headers: Record<string, string> = {},
  onOpen?: () => void,
): Promise<{ events: SseEvent[]; raw: string; status: number; type: string | null }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 8000);
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  let raw = '';
  try {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    onOpen?.();
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
      const blocks = raw.split('\n\n');
      events.length = 0;
      for (const block of blocks) {
        const lines: Record<string, string> = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => /^(id|event|data): /.test(l))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (lines.event && lines.id && lines.data) {
          events.push({ id: lines.id, event: lines.event, data: JSON.parse(lines.data) as Quote });
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { events, raw, status: res.status, type: res.headers.get('content-type') };
}

describe.each(dbTargets)('live quote stream (%s)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db });
  });
  afterAll(async () => station?.close());

  it('sends the current quote of each code, then a new one each second the clock moves', async () => {
    const second = T0 / 1000;
    station.clock.set(T0);
    const { events, status, type, raw } = await collect(
      `${station.url}/api/stream/quotes?codes=600519,aapl`,
      (e) => e.some((x) => x.id === String(second + 1) && x.data.code === 'AAPL'),
      {},
      () => setTimeout(() => station.clock.advance(1000), 50),
    );
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/event-stream/);
    expect(raw.startsWith('retry: ')).toBe(true);
    expect(events.slice(0, 2).map((e) => [e.id, e.event, e.data.code])).toEqual([
      [String(second), 'quote', '600519'],
      [String(second), 'quote', 'AAPL'],
    ]);
    const { market } = station.app;
    for (const e of events) {
      expect(e.data).toEqual(market.quote(market.get(e.data.code), Number(e.id) * 1000));
    }
    station.clock.set(T0);
  });

  it('replays the ticks missed since Last-Event-ID, exactly', async () => {
    station.clock.set(T0);
    const second = T0 / 1000;
    const { events } = await collect(
      `${station.url}/api/stream/quotes?codes=00700,SH000001`,
      (e) => e.length >= 6,
      { 'last-event-id': String(second - 3) },
    );
    expect(events.slice(0, 6).map((e) => `${e.id} ${e.data.code}`)).toEqual([
      `${second - 2} 00700`,
      `${second - 2} SH000001`,
      `${second - 1} 00700`,
      `${second - 1} SH000001`,
      `${second} 00700`,
      `${second} SH000001`,
    ]);
    const { market } = station.app;
    expect(events[0]!.data).toEqual(market.quote(market.get('00700'), (second - 2) * 1000));
    expect(events[1]!.data.market).toBe('index');
  });

  it('refuses a missing, unknown or too long list of codes', async () => {
    const client = api(station.url);
    expect((await client.get('/api/stream/quotes', {})).http).toBe(400);
    expect((await client.get('/api/stream/quotes', { codes: '600519,NOPE' })).http).toBe(404);
    const tooMany = Array.from({ length: 51 }, (_, i) => `C${i}`).join(',');
    expect((await client.get('/api/stream/quotes', { codes: tooMany })).http).toBe(400);
    expect((await client.get('/api/stream/quotes', { codes: '600519;AAPL' })).http).toBe(400);
  });
});

describe.each(dbTargets)('live quote stream outside trading hours (%s)', (db) => {
  it('sends ticks only for the codes whose market is in session', async () => {
    // Friday 14 March 2025, 11:00 in New York and 23:00 in Shanghai.
    const clock = new FixedClock(Date.UTC(2025, 2, 14, 15, 0));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const { events } = await collect(
        `${station.url}/api/stream/quotes?codes=600519,AAPL`,
        (e) => e.filter((x) => x.data.code === 'AAPL').length >= 2,
        {},
        () => setTimeout(() => clock.advance(1000), 50),
      );
      expect(events.map((e) => e.data.code)).toEqual(['AAPL', 'AAPL']);
    } finally {
      await station.close();
    }
  });
});

describe.each(dbTargets)('live quote stream security headers (%s)', (db) => {
  it('sends the same security and CORS headers as the other API calls', async () => {
    const station = await startStation({ db, env: { CORS_ORIGINS: 'https://app.example.com' } });
    try {
      const origin = { origin: 'https://app.example.com' };
      const plain = await fetch(`${station.url}/api/stock/getSingleStock.do?code=600519`, {
        headers: origin,
      });
      await plain.arrayBuffer();
      const controller = new AbortController();
      const stream = await fetch(`${station.url}/api/stream/quotes?codes=600519`, {
        headers: origin,
        signal: controller.signal,
      });
      controller.abort();
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // Every header but the ones describing the body and the connection is the same, byte for byte.
      const own = /^(content-type|content-length|date|connection|keep-alive|transfer-encoding)$/;
      const shared = [...plain.headers.keys()].filter((name) => !own.test(name));
      expect(shared).toEqual(
        expect.arrayContaining([
          'content-security-policy',
          'x-content-type-options',
          'x-frame-options',
          'referrer-policy',
          'cross-origin-opener-policy',
          'access-control-allow-origin',
          'access-control-allow-credentials',
          'vary',
        ]),
      );
      for (const name of shared)
        expect([name, stream.headers.get(name)]).toEqual([name, plain.headers.get(name)]);
      expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');

      // An origin not allowed gets no CORS grant on the stream either.
      const other = new AbortController();
      const evil = await fetch(`${station.url}/api/stream/quotes?codes=600519`, {
        headers: { origin: 'https://evil.example' },
        signal: other.signal,
      });
      other.abort();
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      expect(evil.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'));
    } finally {
      await station.close();
    }
  });
});
