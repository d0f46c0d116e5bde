/**
 * MARKET_SOURCE=replay over HTTP: imported history played through the same engine at REPLAY_SPEED=600 (ten
 * market minutes a wall second). The wall clock under the replay is pinned and moved by the test, so every
 * replayed minute is known: a limit order fills at the replayed price, a stop closes at it, the K-line is
 * the imported bars, an instrument without history keeps the simulation, and the operator's pause holds the
 * replayed time for every process until resumed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DayBars, MinuteBars, Order, Page, Position, StockDetail } from '../../src/shared/api/types';
import type { ReplayInfo } from '../../src/shared/api/types';
import { buildServer } from '../../server/app';
import { runOperatorCommand } from '../../server/cli/commands';
import { FixedClock } from '../../server/market/clock';
import { dayOfDate, importHistory, localMinuteToUtc, MINUTE_MS } from '../../server/market';
import {
  aaplDayBars,
  REPLAY_FROM,
  REPLAY_OPEN,
  replayHistoryCsv,
  ZZZZ_BARS,
  ZZZZ_NAME,
} from '../fixtures/replay-history';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const OPEN = REPLAY_OPEN;
/** A wall second moves the replay ten market minutes. */
const SPEED = 600;
const ZZZZ_DAY = ZZZZ_BARS[1]!;

describe.each(dbTargets)('replay of imported history (%s)', (db) => {
  const wall = new FixedClock(Date.UTC(2026, 10, 28, 12, 0, 0));
  let first: TestStation<FixedClock>;
  let app: FastifyInstance;
  let client: ApiClient;
  let user: Registered;
  let orderId: number;

  /** Moves the wall clock one second (ten replayed minutes) at a time, stepping the engine, until `done`. */
  async function playUntil(done: () => Promise<boolean>, limitSeconds = 60): Promise<void> {
    for (let i = 0; i < limitSeconds; i++) {
      if (await done()) return;
      wall.advance(1000);
      await app.engine.step();
    }
    throw new Error(`not done after ${limitSeconds} wall seconds of replay`);
  }
  const settings = async () =>
    data(await client.get<{ replay: ReplayInfo | null }>('/api/admin/getProductSetting.do')).replay;
  const quote = async (code: string) =>
    data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code }));
  const operator = async (...args: string[]) => {
    const lines: string[] = [];
    // The command line's station: the same database, and the wall clock the replay runs against.
    await runOperatorCommand(
      { ...first.app.station, clock: wall },
      'replay',
      args,
      (l) => lines.push(l),
      'test',
    );
    return lines.join('\n');
  };

  beforeAll(async () => {
    const env = { CLOCK_MODE: 'real', MARKET_SOURCE: 'replay', REPLAY_FROM, REPLAY_SPEED: String(SPEED) };
    first = await startStation({ db, env, clock: wall });
    const names = new Map([['ZZZZ', ZZZZ_NAME]]);
    const result = await importHistory(
      first.app.station,
      [{ file: 'history.csv', text: replayHistoryCsv() }],
      names,
    );
    expect(result, JSON.stringify(result).slice(0, 600)).toMatchObject({ imported: true });
    // The history is read when a station starts: a second process of the same station replays it.
    app = await buildServer(first.config, { clock: wall });
    await app.listen({ port: 0, host: '127.0.0.1' });
    // As main.ts does (the engine is stepped by the test: its clock is pinned): the replay clock is read.
    app.jobs.start();
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    client = api(`http://127.0.0.1:${address.port}`);
    user = await register(client);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await first?.close();
  });

  it('starts at REPLAY_FROM and says so to the app', async () => {
    expect(app.clock.now()).toBe(OPEN);
    expect(await settings()).toEqual({
      from: REPLAY_FROM,
      date: '2015-07-08',
      now: OPEN,
      speed: SPEED,
      paused: false,
      offsetMinutes: -240,
    });
    expect(await quote('AAPL')).toMatchObject({ price: 125, open: 125 });
  });

  it('shows the imported bars on the K-line, oldest first, then the replayed day so far', async () => {
    const res = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: 'AAPL', period: 'day', limit: 26 }),
    );
    const imported = aaplDayBars();
    expect(res.bars).toHaveLength(26);
    expect(res.bars.slice(0, 25).map((b) => [b[1], b[2], b[3], b[4], b[5]])).toEqual(
      imported.map((b) => [b.open, b.high, b.low, b.close, b.volume]),
    );
    expect(res.bars.slice(0, 25).map((b) => b[0])).toEqual(
      imported.map((b) => localMinuteToUtc(dayOfDate(b.date), 0, 'America/New_York')),
    );
    expect(res.bars[25]![1]).toBe(125);
  });

  it('keeps the simulation for an instrument without history', async () => {
    const msft = await quote('MSFT');
    expect(msft.price).toBeGreaterThan(0);
    expect(msft.status).toBe('trading');
  });

  it('fills a limit order at the replayed price and closes it at its stop', async () => {
    const order = data(
      await user.client.post<Order>('/user/addOrder.do', {
        code: 'AAPL',
        lots: 1,
        leverage: 1,
        triggerPrice: 123,
        stopProfit: 127,
        requestId: newRequestId(),
      }),
    );
    orderId = order.id;
    const orders = async () => data(await user.client.get<Page<Order>>('/user/order/list.do', {})).list;
    await playUntil(async () => (await orders()).find((o) => o.id === orderId)?.status === 'filled');
    // 125.00 falls five cents a minute: the first replayed minute at or below 123.00 is the 40th.
    const open = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }),
    ).list;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ code: 'AAPL', openPrice: 123 });
    expect(open[0]!.openedAt).toBe(OPEN + 40 * MINUTE_MS);

    const closed = async () =>
      data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' })).list;
    await playUntil(async () => (await closed()).length === 1);
    // From 122.00 at minute 60 up five cents a minute: 127.00 at minute 160.
    expect((await closed())[0]).toMatchObject({ closeReason: 'stop_profit', closePrice: 127 });
    expect((await closed())[0]!.closedAt).toBe(OPEN + 160 * MINUTE_MS);
    await first.assertLedger();
  });

  it('replays a stock outside the catalogue from its day bars, its minutes inside the day’s range', async () => {
    expect(await quote('ZZZZ')).toMatchObject({ name: 'Zed Holdings', prevClose: ZZZZ_BARS[0]!.close });
    // On to the close (16:00, 390 minutes after the open).
    await playUntil(async () => app.clock.now() >= OPEN + 390 * MINUTE_MS);
    expect(await quote('ZZZZ')).toMatchObject({ price: ZZZZ_DAY.close, open: ZZZZ_DAY.open });
    const minutes = data(
      await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: 'ZZZZ', period: '1' }),
    ).bars.filter((b) => b[0] >= OPEN);
    expect(minutes).toHaveLength(390);
    expect(Math.max(...minutes.map((b) => b[2]))).toBe(ZZZZ_DAY.high);
    expect(Math.min(...minutes.map((b) => b[3]))).toBe(ZZZZ_DAY.low);
    expect(minutes.at(-1)![4]).toBe(ZZZZ_DAY.close);
    const day = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: 'ZZZZ', period: 'day' }),
    ).bars;
    expect(day.map((b) => b.slice(1, 6))).toEqual(
      ZZZZ_BARS.map((b) => [b.open, b.high, b.low, b.close, b.volume]),
    );
  });

  it('pauses and resumes every process from the operator command line', async () => {
    await expect(operator('pause')).rejects.toThrow(/--reason/);
    expect(await operator('pause', '--reason', 'lesson break')).toMatch(
      /^replay of .* at 600×: paused at 2015-07-08 /,
    );
    // Each process reads the stored clock once a second.
    await vi.waitFor(async () => expect((await settings())?.paused).toBe(true), {
      timeout: 5000,
      interval: 100,
    });
    const held = app.clock.now();
    wall.advance(30_000);
    expect(app.clock.now()).toBe(held);
    expect((await settings())?.now).toBe(held);
    expect(await operator('status')).toContain('paused at');
    expect(await operator('resume', '--reason', 'lesson over')).toContain('running');
    await vi.waitFor(async () => expect((await settings())?.paused).toBe(false), {
      timeout: 5000,
      interval: 100,
    });
    wall.advance(1000);
    expect(app.clock.now()).toBe(held + SPEED * 1000);
    const audited = await first.app.db
      .selectFrom('audit_log')
      .select(['action', 'reason'])
      .where('action', 'like', 'replay.%')
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'replay.pause', reason: 'lesson break' },
      { action: 'replay.resume', reason: 'lesson over' },
    ]);
  });
});
