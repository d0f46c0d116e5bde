/**
 * What a live quote stream may cost the station (config.stream): a cap on the streams one address holds
 * open, at most 50 codes a stream, a bounded Last-Event-ID replay, and backpressure — a client that stops
 * reading is dropped once what it has not taken passes the bound, instead of being buffered without end.
 * Over real sockets; the stream has no database, so SQLite only.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/market/clock';
import { T0, startStation, type TestStation } from './helpers/station';

/** Fifty A-share codes of the catalogue: every one trades around the clock in always-open mode. */
const CODES = [
  '600000,600004,600009,600010,600011,600015,600016,600018,600019,600023,600025,600026,600027,600028',
  '600029,600030,600031,600036,600039,600048,600050,600057,600061,600062,600066,600079,600085,600089',
  '600096,600104,600109,600111,600115,600118,600132,600141,600150,600153,600160,600161,600170,600176',
  '600183,600188,600196,600219,600221,600228,600233,600236',
].join(',');

/** An open stream read by fetch, and how to end it. */
async function open(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  return { res, close: () => controller.abort() };
}

/** Opens a stream once the address is under its cap again (a closed stream is let go a moment later). */
async function openWhenAllowed(url: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const stream = await open(url, headers);
    if (stream.res.status !== 429 || Date.now() > deadline) return stream;
    stream.close();
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The `id:` lines read until `enough` of them came (or 5 s pass). */
async function readIds(res: Response, enough: (ids: number[]) => boolean): Promise<number[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  const ids = () =>
    raw
      .split('\n')
      .filter((l) => l.startsWith('id: '))
      .map((l) => Number(l.slice(4)));
  const deadline = Date.now() + 5000;
  while (!enough(ids()) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    raw += decoder.decode(value, { stream: true });
  }
  return ids();
}

/** A raw connection that asks for the stream and never reads what comes back. */
function stalledStream(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('live quote stream limits (sqlite)', () => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({
      db: 'sqlite',
      env: { STREAMS_PER_IP: '2', STREAM_REPLAY_EVENTS: '100', STREAM_BUFFER_KB: '16' },
    });
  });
  afterAll(async () => station?.close());

  it('refuses a third stream from one address with its message, and takes it once one closes', async () => {
    station.clock.set(T0);
    const url = `${station.url}/api/stream/quotes?codes=600519`;
    const first = await open(url);
    const second = await open(url);
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    const third = await fetch(url, { headers: { 'accept-language': 'en' } });
    expect(third.status).toBe(429);
    const body = (await third.json()) as { code: string; msg: string };
    expect(body.msg).toBe(
      'Too many live price connections from your network; close other windows of the app and try again',
    );
    first.close();
    let again: Awaited<ReturnType<typeof open>> | null = null;
    await waitFor(async () => {
      again?.close();
      again = await open(url);
      return again.res.status === 200;
    });
    again!.close();
    second.close();
  });

  it('replays at most STREAM_REPLAY_EVENTS events after Last-Event-ID, the latest seconds', async () => {
    station.clock.set(T0);
    const now = T0 / 1000;
    const codes = CODES.split(',').slice(0, 10).join(',');
    // 120 seconds missed of 10 codes would be 1,200 events; the bound keeps the last 100: 10 seconds.
    const stream = await openWhenAllowed(`${station.url}/api/stream/quotes?codes=${codes}`, {
      'last-event-id': String(now - 120),
    });
    // Everything up to the current second's ten events (and anything more that came with them).
    const ids = await readIds(stream.res, (seen) => seen.filter((id) => id === now).length >= 10);
    stream.close();
    expect(ids).toHaveLength(100);
    expect(Math.min(...ids)).toBe(now - 9);
    expect(Math.max(...ids)).toBe(now);
  });

  it('streams up to 50 codes and refuses a 51st with VALIDATION', async () => {
    station.clock.set(T0);
    const now = T0 / 1000;
    const fifty = CODES.split(',');
    expect(new Set(fifty).size).toBe(50);
    const stream = await openWhenAllowed(`${station.url}/api/stream/quotes?codes=${fifty.join(',')}`);
    expect(stream.res.status).toBe(200);
    // The clock is pinned: one event of the current second for each of the fifty codes, no more.
    const ids = await readIds(stream.res, (seen) => seen.length >= 50);
    stream.close();
    expect(ids).toEqual(Array.from({ length: 50 }, () => now));

    // A known code more: refused for the count alone, with the field named.
    const res = await fetch(`${station.url}/api/stream/quotes?codes=${[...fifty, '600519'].join(',')}`, {
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields?: Record<string, string> };
    expect(body.code).toBe('VALIDATION');
    expect(body.fields).toHaveProperty('codes');
  });

  it('stops while a client holds a stream open: the stream ends and the station closes', async () => {
    const own = await startStation({ db: 'sqlite' });
    const stream = await open(`${own.url}/api/stream/quotes?codes=600519`);
    expect(stream.res.status).toBe(200);
    const reader = stream.res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // A graceful stop (SIGTERM, a restart) ends the streams first; otherwise close() waits for the client.
    await own.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });

  it('drops a client that stops reading once its unread bytes pass the bound', async () => {
    // Up to 3,000 events (about 750 KB) a tick, so the kernel's socket buffers fill in seconds.
    const busy = await startStation({
      db: 'sqlite',
      env: { STREAMS_PER_IP: '2', STREAM_REPLAY_EVENTS: '3000', STREAM_BUFFER_KB: '16' },
    });
    const port = Number(new URL(busy.url).port);
    const stalled = await stalledStream(port, `/api/stream/quotes?codes=${CODES}`);
    const other = await openWhenAllowed(`${busy.url}/api/stream/quotes?codes=600519`);
    const pump = setInterval(() => busy.clock.advance(60_000), 100);
    try {
      // Two streams from this address: the cap is reached while the stalled one is held.
      expect((await fetch(`${busy.url}/api/stream/quotes?codes=600519`)).status).toBe(429);
      // Once what the stalled client has not read passes 16 KB it is dropped, and the address is under
      // its cap again.
      await waitFor(async () => {
        const probe = await fetch(`${busy.url}/api/stream/quotes?codes=600519`);
        await probe.body?.cancel();
        return probe.status === 200;
      }, 60_000);
    } finally {
      clearInterval(pump);
      other.close();
      stalled.destroy();
      await busy.close();
    }
  }, 90_000);
});
