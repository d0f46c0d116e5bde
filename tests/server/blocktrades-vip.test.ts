/**
 * Block trades and VIP picks over real HTTP, on SQLite and PostgreSQL, with a pinned clock
 * (Wednesday 2025-03-12 10:00 Shanghai, on real calendars, so the offers' own windows decide; in
 * always-open mode every window is the whole simulated day):
 * - the day's block-trade offers are generated from the seed (the same on a second station), each a discount
 *   to the current price with a minimum size and a window; buying one opens a T+1 position at the offer
 *   price through the ledger; every refusal answers its translated message and writes nothing;
 * - VIP allocations need the VIP permission (NO_PERMISSION), are taken at the set price up to the per-user
 *   cap, refuse more than is left and answer SOLD_OUT when gone; 200 concurrent buyers of an allocation of
 *   N lots get exactly N lots, and every balance stays the sum of its ledger entries.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BlockTradeOffer, BlockTradeRecord, VipPick, VipPurchase } from '../../src/shared/api/dzvip';
import type { LedgerEntry, Page, Position, Quote, StockDetail, User } from '../../src/shared/api/types';
import { toMinor } from '../../src/shared/money';
import type { FixedClock } from '../../server/market/clock';
import { runOperatorCommand } from '../../server/cli/commands';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  T0,
  type ApiClient,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** T0 is 10:00 in Shanghai; these are other local times of the same day. */
const at = (hh: number, mm: number) => T0 + (hh - 10) * HOUR + mm * MINUTE;

const NO_PERMISSION_EN = 'No permission currently, please contact online customer service';

describe.each(dbTargets)('block trades and VIP picks (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    // Real calendars: the offers' own windows (Shanghai times) are what these tests are about.
    station = await startStation({ db, env: { CLOCK_MODE: 'real' } });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    station.clock.set(T0);
    await station.assertLedger();
  });

  const grantVip = async (user: Registered) => {
    const lines: string[] = [];
    const known = await runOperatorCommand(
      station.app.station,
      'grant',
      [String(user.user.id), 'vip_picks', '--reason', 'VIP client'],
      (l) => lines.push(l),
      'tester',
    );
    expect(known).toBe(true);
  };
  const offers = async () => data(await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
  const picks = async () => data(await client.get<VipPick[]>('/api/stock/getVipList.do'));
  const mainBalance = async (user: Registered) => {
    const info = data(await user.client.get<User>('/user/getUserInfo.do'));
    return toMinor(info.accounts.find((a) => a.type === 'main')!.balance);
  };
  /** Shows that a refused call wrote nothing. */
  const expectNothingWritten = async (refused: () => Promise<ApiResponse<unknown>>, code: string) => {
    const before = await station.counts();
    const answer = await refused();
    expect(failure(answer).code).toBe(code);
    expect(await station.counts()).toEqual(before);
    return failure(answer);
  };

  describe('block trades', () => {
    it('lists the day’s offers from the seed: discount to the price now, minimum size and window', async () => {
      const list = await offers();
      expect(list.length).toBe(8);
      for (const offer of list) {
        expect(['a', 'star']).toContain(offer.market);
        expect(offer.discount).toBeGreaterThanOrEqual(0.03);
        expect(offer.discount).toBeLessThanOrEqual(0.12);
        // The offer price is the price now less the discount, on the 0.01 tick, never below limit-down.
        const detail = data(
          await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: offer.code }),
        );
        expect(detail.price).toBe(offer.currentPrice);
        const discounted = Math.round(offer.currentPrice * (1 - offer.discount) * 100) / 100;
        expect(offer.price).toBeCloseTo(Math.max(discounted, detail.limitDown ?? 0), 6);
        expect(offer.minLots).toBeGreaterThanOrEqual(5);
        expect(offer.maxLots).toBe(100);
        expect(offer.lotSize).toBe(100);
        expect(offer.closesAt).toBeGreaterThan(offer.opensAt);
      }
      // Windows in turn: 09:30–15:00, 09:30–11:30, 13:00–15:00, 10:30–14:00.
      expect(list.slice(0, 4).map((o) => [o.opensAt, o.closesAt])).toEqual([
        [at(9, 30), at(15, 0)],
        [at(9, 30), at(11, 30)],
        [at(13, 0), at(15, 0)],
        [at(10, 30), at(14, 0)],
      ]);
      expect(list.slice(0, 4).map((o) => o.status)).toEqual(['open', 'open', 'upcoming', 'upcoming']);

      // The same seed gives the same offers on another station (another database).
      const other = await startStation({ db: 'sqlite', env: { CLOCK_MODE: 'real' } });
      try {
        const again = data(await api(other.url).get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
        expect(again).toEqual(list);
      } finally {
        await other.close();
      }
      // Another day: other offers (the stocks differ from one day to the next).
      station.clock.set(T0 + DAY);
      const tomorrow = await offers();
      expect(tomorrow.map((o) => o.code)).not.toEqual(list.map((o) => o.code));
      // A keyword filters them.
      station.clock.set(T0);
      const first = list[0]!;
      const filtered = data(
        await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do', { keyword: first.code }),
      );
      expect(filtered.map((o) => o.code)).toContain(first.code);
    });

    it('buys an open offer: a position at the offer price, paid through the ledger, sellable from T+1', async () => {
      const user = await register(client);
      const offer = (await offers())[0]!;
      const before = await mainBalance(user);
      const requestId = newRequestId();
      const body = { code: offer.code, lots: offer.minLots, requestId };
      const record = data(await user.client.post<BlockTradeRecord>('/user/buyStockDz.do', body));
      expect(record).toMatchObject({
        code: offer.code,
        lots: offer.minLots,
        shares: offer.minLots * 100,
        price: offer.price,
        marketPrice: offer.currentPrice,
        discount: offer.discount,
        leverage: 1,
      });
      expect(record.position).toMatchObject({ openPrice: offer.price, lots: offer.minLots, leverage: 1 });
      expect(record.position.sellableFrom).toBeGreaterThan(T0);
      const cost = toMinor(record.amount) + toMinor(record.fee);
      expect(toMinor(record.amount)).toBe(toMinor(offer.price * offer.minLots * 100));
      expect(await mainBalance(user)).toBe(before - cost);

      // The ledger: a buy entry (the margin, here the whole value) and the buy fee, referring to the position.
      const entries = data(
        await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'main', pageSize: 10 }),
      ).list.filter((e) => e.refType === 'position' && e.refId === record.position.id);
      expect(entries.map((e) => [e.type, toMinor(e.amount)]).sort()).toEqual(
        [
          ['buy', -toMinor(record.amount)],
          ['buy_fee', -toMinor(record.fee)],
        ].sort(),
      );

      // The same requestId again: the same answer, nothing more.
      const counts = await station.counts();
      expect(data(await user.client.post<BlockTradeRecord>('/user/buyStockDz.do', body))).toEqual(record);
      expect(await station.counts()).toEqual(counts);

      // The record list, newest first.
      const records = data(await user.client.get<Page<BlockTradeRecord>>('/user/buyStockDzList.do'));
      expect(records.total).toBe(1);
      expect(records.list[0]!.id).toBe(record.id);
      expect(records.list[0]!.position.id).toBe(record.position.id);

      // T+1: not sellable today; sellable the next trading day.
      const sell = { positionId: record.position.id, requestId: newRequestId() };
      await expectNothingWritten(() => user.client.post('/user/sell.do', sell), 'T_PLUS_ONE');
      station.clock.set(T0 + DAY);
      const sold = data(
        await user.client.post<Position>('/user/sell.do', { ...sell, requestId: newRequestId() }),
      );
      expect(sold.closedAt).toBe(T0 + DAY);
      const after = data(await user.client.get<Page<BlockTradeRecord>>('/user/buyStockDzList.do'));
      expect(after.list[0]!.position.closedAt).toBe(T0 + DAY);
    });

    it('buys with leverage from the market’s list', async () => {
      const user = await register(client);
      const offer = (await offers())[1]!;
      const record = data(
        await user.client.post<BlockTradeRecord>('/user/buyStockDz.do', {
          code: offer.code,
          lots: offer.minLots,
          leverage: 2,
          requestId: newRequestId(),
        }),
      );
      expect(record.leverage).toBe(2);
      expect(toMinor(record.position.margin)).toBe(Math.round(toMinor(record.amount) / 2));
      // The liquidation price is the account-wide one the engine triggers on (the account's free cash
      // included), the same in the answer, the purchase list and the position list.
      const listed = data(
        await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }),
      ).list.find((p) => p.id === record.position.id)!;
      const purchases = data(await user.client.get<Page<BlockTradeRecord>>('/user/buyStockDzList.do'));
      expect(record.position.liquidationPrice).toBe(listed.liquidationPrice);
      expect(purchases.list[0]!.position.liquidationPrice).toBe(listed.liquidationPrice);
    });

    it('refuses, with its message and writing nothing: below the minimum, above the maximum, outside the window, an unknown code, a bad leverage, too little money, no session', async () => {
      const user = await register(client);
      const list = await offers();
      const [open, morning, afternoon] = [list[0]!, list[1]!, list[2]!];
      const buy = (body: Record<string, unknown>, who: ApiClient = user.client) =>
        who.withLang('en').post('/user/buyStockDz.do', { requestId: newRequestId(), ...body });

      const below = await expectNothingWritten(
        () => buy({ code: open.code, lots: open.minLots - 1 }),
        'BELOW_MINIMUM',
      );
      expect(below.msg).toBe(`A block trade takes at least ${open.minLots} lots`);
      const above = await expectNothingWritten(() => buy({ code: open.code, lots: 101 }), 'VALIDATION');
      expect(above.fields?.lots).toBe(`The quantity cannot exceed the maximum of ${open.maxLots}`);
      await expectNothingWritten(() => buy({ code: open.code, lots: 0 }), 'VALIDATION');
      await expectNothingWritten(() => buy({ code: open.code, lots: 'x' }), 'VALIDATION');

      const early = await expectNothingWritten(
        () => buy({ code: afternoon.code, lots: afternoon.minLots }),
        'OUTSIDE_TRADING_HOURS',
      );
      expect(early.msg).toBe('This block trade is not open yet: it opens at 13:00');
      station.clock.set(at(11, 30));
      const late = await expectNothingWritten(
        () => buy({ code: morning.code, lots: morning.minLots }),
        'OUTSIDE_TRADING_HOURS',
      );
      expect(late.msg).toBe('This block trade has closed for today');
      station.clock.set(T0);

      const quotes = data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a' }));
      const other = quotes.list.find((q) => !list.some((o) => o.code === q.code))!;
      const unknown = await expectNothingWritten(() => buy({ code: other.code, lots: 10 }), 'NOT_FOUND');
      expect(unknown.msg).toBe('There is no block trade in this stock today');
      await expectNothingWritten(
        () => buy({ code: open.code, lots: open.minLots, leverage: 7 }),
        'VALIDATION',
      );
      await expectNothingWritten(() => buy({ code: '<script>', lots: 10 }), 'VALIDATION');

      // Too little money: move almost everything to the index account first.
      const poor = await register(client);
      data(
        await poor.client.post('/user/transAmt.do', {
          amount: 999_000,
          from: 'main',
          to: 'index',
          requestId: newRequestId(),
        }),
      );
      const value = open.price * open.minLots * 100;
      expect(value).toBeGreaterThan(1000); // ¥1,000 left cannot pay for the minimum
      await expectNothingWritten(
        () => buy({ code: open.code, lots: open.minLots }, poor.client),
        'INSUFFICIENT_FUNDS',
      );

      const anonymous = await client.post('/user/buyStockDz.do', {
        code: open.code,
        lots: open.minLots,
        requestId: newRequestId(),
      });
      expect(anonymous.http).toBe(401);
      expect(failure(anonymous).code).toBe('NOT_LOGGED_IN');
      expect((await client.get('/user/buyStockDzList.do')).http).toBe(401);
    });

    it('opens every offer and allocation for the whole simulated day in always-open mode', async () => {
      const open = await startStation({ db: 'sqlite' });
      try {
        const day = Math.floor(T0 / DAY) * DAY;
        for (const t of [day + MINUTE, T0, day + DAY - MINUTE]) {
          open.clock.set(t);
          const dz = data(await api(open.url).get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
          expect(dz.length).toBe(8);
          for (const offer of dz) {
            expect([offer.opensAt, offer.closesAt, offer.status]).toEqual([day, day + DAY, 'open']);
          }
          const vip = data(await api(open.url).get<VipPick[]>('/api/stock/getVipList.do'));
          expect(vip.length).toBe(4);
          for (const pick of vip) expect([pick.opensAt, pick.closesAt]).toEqual([day, day + DAY]);
        }
        // A block trade can be bought at 00:01 UTC, long before the Shanghai window.
        open.clock.set(day + MINUTE);
        const user = await register(api(open.url));
        const [offer] = data(await api(open.url).get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
        const bought = await user.client.post('/user/buyStockDz.do', {
          code: offer!.code,
          lots: offer!.minLots,
          requestId: newRequestId(),
        });
        expect(bought.http).toBe(200);
        await open.assertLedger();
      } finally {
        await open.close();
      }
    });

    it('has no offers on a day the A-share market does not trade (real calendars)', async () => {
      const real = await startStation({ db: 'sqlite', env: { CLOCK_MODE: 'real' } });
      try {
        real.clock.set(Date.UTC(2025, 2, 15, 2, 0, 0)); // Saturday 10:00 in Shanghai
        expect(data(await api(real.url).get<BlockTradeOffer[]>('/api/stock/getDzList.do'))).toEqual([]);
        expect(data(await api(real.url).get<VipPick[]>('/api/stock/getVipList.do'))).toEqual([]);
      } finally {
        await real.close();
      }
    });
  });

  describe('VIP picks', () => {
    it('lists today’s allocations: set price, lots, per-user cap, 09:30–15:00', async () => {
      const list = await picks();
      expect(list.length).toBe(4);
      for (const pick of list) {
        expect([50, 80, 100, 150]).toContain(pick.totalLots);
        expect([5, 10, 20]).toContain(pick.maxLotsPerUser);
        expect(pick.remainingLots).toBe(pick.totalLots - pick.soldLots);
        expect([pick.opensAt, pick.closesAt]).toEqual([at(9, 30), at(15, 0)]);
        expect(pick.status).toBe(pick.remainingLots > 0 ? 'open' : 'soldOut');
      }
      const one = data(await client.get<VipPick>('/api/stock/getVipByCode.do', { code: list[0]!.code }));
      expect(one.id).toBe(list[0]!.id);
      const missing = await client.withLang('en').get('/api/stock/getVipByCode.do', { code: '000000' });
      expect(missing.http).toBe(404);
      expect(failure(missing).msg).toBe('There is no VIP allocation of this stock today');
      // The same allocations on another station with the same seed.
      const other = await startStation({ db: 'sqlite', env: { CLOCK_MODE: 'real' } });
      try {
        const again = data(await api(other.url).get<VipPick[]>('/api/stock/getVipList.do'));
        expect(again.map((p) => [p.code, p.price, p.totalLots, p.maxLotsPerUser])).toEqual(
          list.map((p) => [p.code, p.price, p.totalLots, p.maxLotsPerUser]),
        );
      } finally {
        await other.close();
      }
    });

    it('refuses a user without the VIP permission (NO_PERMISSION), then sells to them once granted', async () => {
      const user = await register(client);
      const pick = (await picks())[0]!;
      const body = { code: pick.code, lots: 1 };
      const refused = await expectNothingWritten(
        () => user.client.withLang('en').post('/user/buyVipQc.do', { ...body, requestId: newRequestId() }),
        'NO_PERMISSION',
      );
      expect(refused.msg).toBe(NO_PERMISSION_EN);
      const zh = failure(await user.client.post('/user/buyVipQc.do', { ...body, requestId: newRequestId() }));
      expect(zh.msg).toBe('暂无权限，请联系在线客服');

      await grantVip(user);
      const before = await mainBalance(user);
      const bought = data(
        await user.client.post<VipPurchase>('/user/buyVipQc.do', { ...body, requestId: newRequestId() }),
      );
      expect(bought).toMatchObject({
        code: pick.code,
        lots: 1,
        shares: 100,
        price: pick.price,
        pickId: pick.id,
      });
      expect(bought.position).toMatchObject({ openPrice: pick.price, leverage: 1, lots: 1 });
      expect(bought.position.sellableFrom).toBeGreaterThan(T0);
      expect(toMinor(bought.amount)).toBe(toMinor(pick.price * 100));
      expect(await mainBalance(user)).toBe(before - toMinor(bought.amount) - toMinor(bought.fee));
      const after = data(await client.get<VipPick>('/api/stock/getVipByCode.do', { code: pick.code }));
      expect(after.soldLots).toBe(pick.soldLots + 1);
      const mine = data(await user.client.get<Page<VipPurchase>>('/user/vipQcList.do'));
      expect(mine.list.map((p) => p.id)).toEqual([bought.id]);

      // T+1 like any A-share purchase.
      await expectNothingWritten(
        () =>
          user.client.post('/user/sell.do', { positionId: bought.position.id, requestId: newRequestId() }),
        'T_PLUS_ONE',
      );
    });

    it('keeps to the per-user cap and the window, and repeats a requestId without buying twice', async () => {
      const user = await register(client);
      await grantVip(user);
      const pick = (await picks())[1]!;
      const buy = (lots: number, requestId = newRequestId()) =>
        user.client
          .withLang('en')
          .post<VipPurchase>('/user/buyVipQc.do', { code: pick.code, lots, requestId });

      const over = await expectNothingWritten(() => buy(pick.maxLotsPerUser + 1), 'VALIDATION');
      expect(over.fields?.lots).toBe(`The quantity cannot exceed the maximum of ${pick.maxLotsPerUser}`);
      const requestId = newRequestId();
      const first = data(await buy(pick.maxLotsPerUser - 1, requestId));
      const counts = await station.counts();
      expect(data(await buy(pick.maxLotsPerUser - 1, requestId))).toEqual(first);
      expect(await station.counts()).toEqual(counts);
      const capped = await expectNothingWritten(() => buy(2), 'ABOVE_MAXIMUM');
      expect(capped.msg).toBe(`Each user may take at most ${pick.maxLotsPerUser} lots; you can take 1 more`);
      data(await buy(1));
      await expectNothingWritten(() => buy(1), 'ABOVE_MAXIMUM');

      const other = await register(client);
      await grantVip(other);
      station.clock.set(at(9, 29));
      const early = await expectNothingWritten(
        () =>
          other.client
            .withLang('en')
            .post('/user/buyVipQc.do', { code: pick.code, lots: 1, requestId: newRequestId() }),
        'OUTSIDE_TRADING_HOURS',
      );
      expect(early.msg).toBe('The VIP allocation is not open yet: it opens at 09:30');
      station.clock.set(at(15, 0));
      const late = await expectNothingWritten(
        () =>
          other.client
            .withLang('en')
            .post('/user/buyVipQc.do', { code: pick.code, lots: 1, requestId: newRequestId() }),
        'OUTSIDE_TRADING_HOURS',
      );
      expect(late.msg).toBe('Today’s VIP allocation has closed');
      station.clock.set(T0);
      await expectNothingWritten(
        () => other.client.post('/user/buyVipQc.do', { code: '000000', lots: 1, requestId: newRequestId() }),
        'NOT_FOUND',
      );
      expect(
        (await client.post('/user/buyVipQc.do', { code: pick.code, lots: 1, requestId: newRequestId() }))
          .http,
      ).toBe(401);
    });

    it('refuses more lots than are left (whole, no partial fill), then SOLD_OUT when none are', async () => {
      const pick = (await picks())[2]!;
      let left = pick.remainingLots;
      // Buyers take the cap each until exactly one lot is left.
      while (left > 1) {
        const buyer = await register(client);
        await grantVip(buyer);
        const lots = Math.min(pick.maxLotsPerUser, left - 1);
        data(
          await buyer.client.post('/user/buyVipQc.do', { code: pick.code, lots, requestId: newRequestId() }),
        );
        left -= lots;
      }
      const last = await register(client);
      await grantVip(last);
      const tooMany = await expectNothingWritten(
        () =>
          last.client
            .withLang('en')
            .post('/user/buyVipQc.do', { code: pick.code, lots: 2, requestId: newRequestId() }),
        'ABOVE_MAXIMUM',
      );
      expect(tooMany.msg).toBe('Only 1 lot left, please take fewer');
      data(
        await last.client.post('/user/buyVipQc.do', { code: pick.code, lots: 1, requestId: newRequestId() }),
      );
      const soldOut = await expectNothingWritten(
        () =>
          last.client
            .withLang('en')
            .post('/user/buyVipQc.do', { code: pick.code, lots: 1, requestId: newRequestId() }),
        'SOLD_OUT',
      );
      expect(soldOut.msg).toBe('This VIP allocation is sold out');
      const after = data(await client.get<VipPick>('/api/stock/getVipByCode.do', { code: pick.code }));
      expect(after).toMatchObject({ soldLots: pick.totalLots, remainingLots: 0, status: 'soldOut' });
    });

    it('an allocation of N lots under 200 concurrent buyers sells exactly N lots', async () => {
      const pick = (await picks())[3]!;
      const n = pick.remainingLots;
      expect(n).toBeLessThan(200);
      const buyers: Registered[] = [];
      for (let batch = 0; batch < 10; batch++) {
        buyers.push(...(await Promise.all(Array.from({ length: 20 }, () => register(client)))));
      }
      for (const buyer of buyers) await grantVip(buyer);

      const answers = await Promise.all(
        buyers.map((buyer) =>
          buyer.client.post<VipPurchase>('/user/buyVipQc.do', {
            code: pick.code,
            lots: 1,
            requestId: newRequestId(),
          }),
        ),
      );
      const won = answers.filter((a) => a.body.status === 0);
      const lost = answers.filter((a) => a.body.status !== 0);
      expect(won.length).toBe(n);
      expect(lost.length).toBe(200 - n);
      for (const answer of lost) {
        expect(answer.http).toBe(409);
        expect(failure(answer).code).toBe('SOLD_OUT');
      }

      const after = data(await client.get<VipPick>('/api/stock/getVipByCode.do', { code: pick.code }));
      expect(after.soldLots).toBe(pick.totalLots);
      expect(after.remainingLots).toBe(0);
      // What was sold, three ways: the allocation, the purchases and the positions.
      const rows = await station.app.station.db
        .selectFrom('vip_buys')
        .select(['user_id', 'lots', 'position_id'])
        .where('pick_id', '=', pick.id)
        .execute();
      expect(rows.reduce((sum, r) => sum + r.lots, 0)).toBe(pick.totalLots);
      const buyerIds = buyers.map((b) => b.user.id);
      const positions = await station.app.db
        .selectFrom('positions')
        .select(['id', 'lots', 'user_id'])
        .where('code', '=', pick.code)
        .where('user_id', 'in', buyerIds)
        .execute();
      expect(positions.reduce((sum, p) => sum + p.lots, 0)).toBe(n);
      expect(new Set(positions.map((p) => p.user_id)).size).toBe(n);
      // Each winner paid exactly the set price plus fees; the losers paid nothing.
      for (const [i, answer] of answers.entries()) {
        const balance = await mainBalance(buyers[i]!);
        const start = toMinor(station.config.settings.startingBalances.main);
        if (answer.body.status === 0) {
          const bought = data(answer);
          expect(balance).toBe(start - toMinor(bought.amount) - toMinor(bought.fee));
        } else {
          expect(balance).toBe(start);
        }
      }
      await station.assertLedger();
    }, 180_000);
  });
});
