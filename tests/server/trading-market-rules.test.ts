/**
 * The market and money rules of DOMAIN.md as revised for 2026, over HTTP with a pinned clock (always-open,
 * so each market's day closes at the end of the UTC day): ST and *ST main-board stocks move ±10%; futures
 * pay no deferred fee at day closes (margined, not financed) while an index CFD and a leveraged stock do;
 * a future's leverage is at most 1 ÷ its product's margin rate, refused above it with a translated message
 * and published per product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRate, toMinor } from '../../src/shared/money';
import type { Page, Position, StockDetail } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
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
  type Registered,
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
/** A rate per 10⁹ on fen, rounded half up in exact integer arithmetic (0.0023% = 23,000 per 10⁹). */
const rateOf = (valueFen: number, perBillion: number) =>
  Math.floor((valueFen * perBillion + 500_000_000) / 1_000_000_000);
const DAY = 24 * HOUR;

describe.each(dbTargets)('market and fee rules of 2026 (%s, always-open)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    // The index account starts empty by default (DOMAIN.md); fund it for index and futures trading.
    station.config.settings.startingBalances.index = 2_000_000;
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const order = (user: Registered, path: string, body: Record<string, unknown>) =>
    user.client.post<Position>(path, { lots: 1, direction: 'long', requestId: newRequestId(), ...body });

  it('gives an ST main-board stock limits of ±10% of the previous close (±5% until July 2025)', async () => {
    // 600228 ST返利 and 000564 ST大集: main-board stocks under special treatment in the catalogue.
    for (const code of ['600228', '000564']) {
      const detail = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code }));
      expect(detail.name).toMatch(/^\*?ST/);
      // prevClose × 1.1 and × 0.9, rounded half up to the 0.01 tick (e.g. 5.20 → 5.72 and 4.68).
      expect(toMinor(detail.limitUp!)).toBe(toMinor(detail.prevClose * 1.1));
      expect(toMinor(detail.limitDown!)).toBe(toMinor(detail.prevClose * 0.9));
      expect(Math.round((detail.limitUp! / detail.prevClose - 1) * 100)).toBe(10);
    }
  });

  it('charges no deferred fee on a future across two day closes; an index CFD and a leveraged stock pay it', async () => {
    const user = await register(client);
    const future = data(await order(user, '/user/buyFutures.do', { code: 'IF0', leverage: 5 }));
    const cfd = data(await order(user, '/user/buyIndex.do', { code: 'SH000300', leverage: 5 }));
    const stock = data(await order(user, '/user/buy.do', { code: '600036', lots: 10, leverage: 2 }));
    const rate = station.config.settings.deferredFeeRate;
    // Each pays rate × (open value − margin) per close: the future borrows as much, but is not financed.
    const feeOf = (p: Position) => applyRate(toMinor(p.openPrice * p.shares) - toMinor(p.margin), rate);
    expect(feeOf(future)).toBeGreaterThan(0);

    // The CNY day closes at the end of the UTC days of T0 and the day after.
    const firstClose = Math.floor(T0 / DAY) * DAY + DAY;
    for (const t of [firstClose + HOUR, firstClose + DAY + HOUR]) {
      station.clock.set(t);
      await station.app.engine.step();
    }
    const entries = await station.app.db
      .selectFrom('ledger_entries')
      .select(['ref_id', 'amount'])
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'deferred_fee')
      .execute();
    const charged = (p: Position) => entries.filter((e) => e.ref_id === p.id).map((e) => Number(e.amount));
    expect(charged(future)).toEqual([]);
    expect(charged(cfd)).toEqual([-feeOf(cfd), -feeOf(cfd)]);
    expect(charged(stock)).toEqual([-feeOf(stock), -feeOf(stock)]);
    const open = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 10 }),
    ).list;
    expect(open.find((p) => p.id === future.id)!.deferredFee).toBe(0);
    expect(toMinor(open.find((p) => p.id === cfd.id)!.deferredFee)).toBe(2 * feeOf(cfd));
    await station.assertLedger();
  });

  it('charges CFFEX IF 0.023% to close a position opened the same trading day and 0.0023% for an older one', async () => {
    const user = await register(client);
    station.clock.set(T0 + 3 * DAY);
    const today = data(await order(user, '/user/buyFutures.do', { code: 'IF0', leverage: 5 }));
    const older = data(await order(user, '/user/buyFutures.do', { code: 'IF0', leverage: 5 }));
    // Opening: 300 × price × 0.0023%, half up to the fen.
    expect(toMinor(today.buyFee)).toBe(rateOf(toMinor(today.openPrice * 300), 23_000));
    station.clock.advance(HOUR);
    const sell = async (p: Position) =>
      data(
        await user.client.post<Position>('/user/sell.do', { positionId: p.id, requestId: newRequestId() }),
      );
    const closedToday = await sell(today);
    // The next (always-open, UTC) day: the older position closes at the ordinary rate.
    station.clock.set(Math.floor(station.clock.now() / DAY) * DAY + DAY + HOUR);
    const closedLater = await sell(older);
    const closeValue = (p: Position) => toMinor(p.closePrice! * 300);
    // e.g. ¥1,380,000 = 138,000,000 fen: close today 31,740 fen (¥317.40), older 3,174 fen (¥31.74).
    expect(toMinor(closedToday.sellFee)).toBe(rateOf(closeValue(closedToday), 230_000));
    expect(toMinor(closedLater.sellFee)).toBe(rateOf(closeValue(closedLater), 23_000));
    await station.assertLedger();
  });

  it('refuses futures leverage above 1 ÷ the margin rate with a translated message, and publishes the limit', async () => {
    const user = await register(client);
    const before = await station.counts();
    // CFFEX IF: 12% margin, so 1 ÷ 0.12 = 8.33 → 8× at most, though 10× is in the futures list.
    const zh = failure(await order(user, '/user/buyFutures.do', { code: 'IF0', leverage: 10 }));
    expect(zh).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      msg: '该期货品种保证金比例不低于12%，杠杆倍数最高8倍',
      fields: { leverage: '格式不正确' },
    });
    const en = failure(
      await user.client.withLang('en').post('/user/buyFutures.do', {
        code: 'IF0',
        lots: 1,
        leverage: 20,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    expect(en.msg).toBe('This futures product takes at least 12% margin, so its leverage is at most 8×');
    // Rebar RB: 7% → 14.3, so 15× is refused and 12× (the largest listed multiple below) is offered.
    const rb = failure(await order(user, '/user/buyFutures.do', { code: 'RB0', leverage: 15 }));
    expect(rb.msg).toBe('该期货品种保证金比例不低于7%，杠杆倍数最高12倍');
    expect(await station.counts()).toEqual(before);

    // At 8× the margin is an eighth of the value: 12.5%, above the exchange's 12%.
    const at8 = data(await order(user, '/user/buyFutures.do', { code: 'IF0', leverage: 8 }));
    expect(toMinor(at8.margin)).toBe(Math.ceil(toMinor(at8.openPrice * at8.shares) / 8));
    // An index CFD is not a future: it keeps its 1–20 list.
    data(await order(user, '/user/buyIndex.do', { code: 'SH000300', leverage: 20 }));

    const published = data(
      await client.get<{
        leverage: number[];
        marginRate: Record<string, number>;
        leverageByProduct: Record<string, number[]>;
      }>('/api/admin/getFuturesSetting.do'),
    );
    expect(published.marginRate).toMatchObject({ IF: 0.12, RB: 0.07 });
    expect(published.leverageByProduct.IF).toEqual([1, 2, 3, 5, 8]);
    expect(published.leverageByProduct.RB).toEqual([1, 2, 3, 5, 8, 10, 12]);
    for (const [product, multiples] of Object.entries(published.leverageByProduct)) {
      const rate = published.marginRate[product]!;
      expect(Math.max(...multiples) * rate, product).toBeLessThanOrEqual(1);
    }
    await station.assertLedger();
  });
});
