/**
 * A competition's ranking on the stream (`GET /api/stream/competition?id=`), over real HTTP on a pinned
 * clock: the latest ranking's event at once, a new one after the clock moves and the ranking job stores a
 * new snapshot (none for a ranking taken again at the same instant), the leaderboard read on the event
 * shows that snapshot, the frozen event at the end closes the stream; resume by Last-Event-ID; refusals
 * (unknown competition, bad id, too many streams from one address).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Competition, Leaderboard } from '../../src/shared/api/competitions';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
const START = T0 + HOUR;
const END = T0 + 2 * HOUR;

interface RankingEvent {
  id: string;
  data: { competitionId: number; takenAt: number; frozen: boolean };
}

/** An open competition stream: the `ranking` events so far, waiting for more, whether it ended. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: RankingEvent[] = [];
  let raw = '';
  let ended = false;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const reading = (async () => {
    try {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        raw += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = raw.indexOf('\n\n')) >= 0) {
          const block = raw.slice(0, cut);
          raw = raw.slice(cut + 2);
          const id = /^id: (.*)$/m.exec(block);
          const payload = /^data: (.*)$/m.exec(block);
          if (id && payload && /^event: ranking$/m.test(block)) {
            events.push({ id: id[1]!, data: JSON.parse(payload[1]!) as RankingEvent['data'] });
          }
        }
        wake();
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      wake();
    }
  })();
  return {
    res,
    events,
    ended: () => ended,
    /** Waits until `count` events came, or the stream ended (a test that hangs fails on vitest's timeout). */
    async until(count: number) {
      while (events.length < count && !ended) await new Promise<void>((r) => waiters.push(r));
      return events;
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describe.each(dbTargets)('competition ranking stream (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let competition: Competition;

  beforeAll(async () => {
    station = await startStation({ db, env: { STREAMS_PER_IP: '2' } });
    client = api(station.url);
    const creator = await register(client);
    competition = data(
      await creator.client.post<Competition>('/user/competition/create.do', {
        name: 'Stream cup',
        startAt: START,
        endAt: END,
        startingCash: 100_000,
        markets: 'a',
        maxLeverage: 2,
        allowShort: false,
        visibility: 'public',
        requestId: newRequestId(),
      }),
    );
    const player = await register(client);
    data(
      await player.client.post('/user/competition/join.do', {
        id: competition.id,
        requestId: newRequestId(),
      }),
    );
  });
  afterAll(async () => station?.close());

  const url = () => `${station.url}/api/stream/competition?id=${competition.id}`;
  const board = async () =>
    data(await client.get<Leaderboard>('/api/competition/leaderboard.do', { id: competition.id }));

  it('sends the latest ranking at once, a new one when the clock moves, and the frozen one last', async () => {
    station.clock.set(START);
    await station.app.competitionRanking.run();
    const stream = await openStream(url());
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const [first] = await stream.until(1);
      expect(first).toEqual({
        id: String(START),
        data: { competitionId: competition.id, takenAt: START, frozen: false },
      });
      // Taken again at the same instant: no news. The next event is the moved clock's.
      await station.app.competitionRanking.run();
      station.clock.set(START + 1000);
      await station.app.competitionRanking.run();
      const second = (await stream.until(2))[1]!;
      expect(second).toEqual({
        id: String(START + 1000),
        data: { competitionId: competition.id, takenAt: START + 1000, frozen: false },
      });
      // What a client reads on the event is that snapshot.
      expect(await board()).toMatchObject({ takenAt: START + 1000, frozen: false, total: 1 });

      station.clock.set(END + 5000);
      await station.app.competitionRanking.run();
      const events = await stream.until(3);
      expect(events.slice(2)).toEqual([
        { id: String(END), data: { competitionId: competition.id, takenAt: END, frozen: true } },
      ]);
      await stream.until(Number.POSITIVE_INFINITY);
      expect(stream.ended()).toBe(true);
      expect(stream.events).toHaveLength(3);
      expect(await board()).toMatchObject({ takenAt: END, frozen: true });
    } finally {
      await stream.close();
    }
  });

  it('resumes by Last-Event-ID: nothing again when the client has the latest, the frozen one otherwise', async () => {
    const caughtUp = await openStream(url(), { 'last-event-id': String(END) });
    // The competition is frozen: a client that has the final event hears nothing more, and the stream ends.
    await caughtUp.until(Number.POSITIVE_INFINITY);
    expect(caughtUp.events).toEqual([]);
    const behind = await openStream(url(), { 'last-event-id': String(START) });
    expect(await behind.until(Number.POSITIVE_INFINITY)).toEqual([
      { id: String(END), data: { competitionId: competition.id, takenAt: END, frozen: true } },
    ]);
  });

  it('refuses an unknown competition, a bad id and a third stream from one address with the API’s errors', async () => {
    const unknown = failure(
      await client.withLang('en').get('/api/stream/competition', { id: competition.id + 1000 }),
    );
    expect(unknown.code).toBe('NOT_FOUND');
    const bad = failure(await client.get('/api/stream/competition', { id: 'first' }));
    expect(bad).toMatchObject({ code: 'VALIDATION', fields: { id: expect.any(String) } });

    const other = data(
      await (
        await register(client)
      ).client.post<Competition>('/user/competition/create.do', {
        name: 'Later cup',
        startAt: END + HOUR,
        endAt: END + 2 * HOUR,
        startingCash: 1000,
        markets: 'a',
        maxLeverage: 1,
        allowShort: false,
        visibility: 'public',
        requestId: newRequestId(),
      }),
    );
    // Not started: no ranking yet, so the stream stays open with nothing to say.
    const streams = [
      await openStream(`${station.url}/api/stream/competition?id=${other.id}`),
      await openStream(`${station.url}/api/stream/competition?id=${other.id}`),
    ];
    try {
      expect(streams.map((s) => s.res.status)).toEqual([200, 200]);
      const third = await client.withLang('en').raw(`/api/stream/competition?id=${other.id}`);
      expect(third.status).toBe(429);
      expect(((await third.json()) as { code: string; msg: string }).code).toBe('RATE_LIMITED');
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });
});
