/**
 * The trading engine over HTTP with a pinned clock: limit-order fills and rejections, stops at the
 * crossing tick (T+1 stops wait), risk warnings and forced liquidation largest loss first, the daily
 * deferred fee once per market day (after gaps and across a restart), and the messages that tell the user.
 * Prices are found by scanning the seeded market minute by minute, never hard-coded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyRate, toMinor } from '../../src/shared/money';
import type { Order, Page, Position, UserMessagePage } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { post, postingAgainst } from '../../server/ledger/ledger';
import { tradeFees } from '../../server/trading/fees';
import { marginFor } from '../../server/trading/margin';
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
  type DbTarget,
  type Registered,
  type TestStation,
} from './helpers/station';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Station = TestStation<FixedClock>;

function priceAt(station: Station, code: string, t: number): number {
  const market = station.app.market;
  return market.quote(market.get(code), t).price;
}

function tradingAt(station: Station, code: string, t: number): boolean {
  const market = station.app.market;
  return market.status(market.get(code), t) === 'trading';
}

/** The first whole minute in (from, until] where `pred` holds, or null. */
function firstMinute(from: number, until: number, pred: (t: number) => boolean): number | null {
  for (let t = Math.floor(from / MINUTE) * MINUTE + MINUTE; t <= until; t += MINUTE) if (pred(t)) return t;
  return null;
}

const A_SHARES = ['600036', '600000', '600030', '601318', '000001', '600519', '600009', '600031'];

/** An A-share that trades below its price at `start` within `hours`, and the first minute it does. */
function fallingShare(
  station: Station,
  start: number,
  hours = 12,
): { code: string; target: number; p0: number } {
  for (const code of A_SHARES) {
    const p0 = priceAt(station, code, start);
    const target = firstMinute(
      start,
      start + hours * HOUR,
      (t) => tradingAt(station, code, t) && priceAt(station, code, t) < p0,
    );
    if (target !== null) return { code, target, p0 };
  }
  throw new Error('no A-share falls within the window');
}

async function stepTo(station: Station, t: number) {
  station.clock.set(t);
  return station.app.engine.step();
}

/** Steps to `t` in pieces of at most a day (the engine replays at most a few days at once). */
async function walkTo(station: Station, t: number): Promise<void> {
  while (station.clock.now() < t) await stepTo(station, Math.min(t, station.clock.now() + DAY));
}

async function assertFrozenMatchesOrders(station: Station): Promise<void> {
  const accounts = await station.app.db.selectFrom('accounts').select(['id', 'frozen']).execute();
  const orders = await station.app.db
    .selectFrom('orders')
    .select(['account_id', 'frozen'])
    .where('status', '=', 'pending')
    .execute();
  for (const account of accounts) {
    const held = orders.filter((o) => o.account_id === account.id).reduce((s, o) => s + Number(o.frozen), 0);
    expect(Number(account.frozen), `account ${account.id}`).toBe(held);
  }
}

async function balanceOf(station: Station, userId: number, type: 'main' | 'hk' | 'us' = 'main') {
  const row = await station.app.db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), frozen: Number(row.frozen), id: row.id };
}

async function messagesOf(user: Registered, lang = 'en'): Promise<UserMessagePage> {
  return data(
    await user.client.withLang(lang).get<UserMessagePage>('/user/cash/getMessagelist.do', { pageSize: 100 }),
  );
}

async function positions(user: Registered, state: 'open' | 'closed'): Promise<Position[]> {
  return data(await user.client.get<Page<Position>>('/user/position/list.do', { state, pageSize: 100 })).list;
}

async function buy(user: Registered, body: Record<string, unknown>): Promise<Position> {
  return data(await user.client.post<Position>('/user/buy.do', { requestId: newRequestId(), ...body }));
}

/** A fresh whole-minute start time a day after the clock (tests only move time forward). */
async function freshStart(station: Station, hourUtc = 2): Promise<number> {
  const start = Math.floor(station.clock.now() / DAY) * DAY + DAY + hourUtc * HOUR;
  await walkTo(station, start);
  return start;
}

describe.each(dbTargets)('engine: orders and stops (%s, always-open)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    await assertFrozenMatchesOrders(station);
  });

  it('fills a limit order at the price of the first tick at or below its trigger, and says so', async () => {
    const start = await freshStart(station);
    const user = await register(client);
    const { code, target, p0 } = fallingShare(station, start);
    const trigger = priceAt(station, code, target);
    const fillAt = firstMinute(
      start,
      target,
      (t) => tradingAt(station, code, t) && priceAt(station, code, t) <= trigger,
    )!;
    const fillPrice = priceAt(station, code, fillAt);
    expect(fillPrice).toBeLessThanOrEqual(trigger);

    const before = await balanceOf(station, user.user.id);
    const order = data(
      await user.client.post<Order>('/user/addOrder.do', {
        code,
        lots: 10,
        leverage: 2,
        triggerPrice: trigger,
        stopProfit: Number((p0 * 1.5).toFixed(2)),
        requestId: newRequestId(),
      }),
    );
    await stepTo(station, fillAt - MINUTE);
    expect(data(await user.client.get<Page<Order>>('/user/order/list.do', {})).list[0]!.status).toBe(
      'pending',
    );

    // Three steps at once: they queue, and the order fills once.
    station.clock.set(fillAt + 5 * MINUTE);
    await Promise.all([station.app.engine.step(), station.app.engine.step(), station.app.engine.step()]);
    const filled = data(await user.client.get<Page<Order>>('/user/order/list.do', {})).list[0]!;
    expect(filled).toMatchObject({ id: order.id, status: 'filled', updatedAt: fillAt, rejectReason: null });
    const [position] = await positions(user, 'open');
    expect(position).toMatchObject({
      id: filled.positionId,
      code,
      lots: 10,
      shares: 1000,
      leverage: 2,
      openPrice: fillPrice,
      openedAt: fillAt,
      stopProfit: order.stopProfit,
      sellableFrom: Math.floor(fillAt / DAY) * DAY + DAY,
    });
    const value = toMinor(fillPrice * 1000);
    const fees = tradeFees('a', 'buy', { shares: 1000, value }, station.config.settings.fees).total;
    const after = await balanceOf(station, user.user.id);
    expect(after.frozen).toBe(0);
    expect(before.balance - after.balance).toBe(marginFor(value, 2) + fees);

    const zh = await messagesOf(user, 'zh-CN');
    expect(zh.list[0]).toMatchObject({
      kind: 'order_filled',
      title: '限价单已成交',
      refType: 'order',
      refId: order.id,
    });
    expect(zh.list[0]!.content).toContain(String(fillPrice));
    const en = await messagesOf(user, 'en');
    expect(en.list[0]!.title).toBe('Limit order filled');
    expect(en.list[0]!.content).toContain(code);
    expect(en.unread).toBe(1);
  });

  it('rejects an order whose funds no longer suffice when it triggers, and releases them', async () => {
    const start = await freshStart(station);
    const user = await register(client);
    const { code, target } = fallingShare(station, start);
    const trigger = priceAt(station, code, target);
    const order = data(
      await user.client.post<Order>('/user/addOrder.do', {
        code,
        lots: 10,
        leverage: 1,
        triggerPrice: trigger,
        requestId: newRequestId(),
      }),
    );
    // The account loses cash meanwhile (a debit through the ledger, as a loss elsewhere would).
    const account = await balanceOf(station, user.user.id);
    await station.app.db.transaction().execute((trx) =>
      post(
        trx,
        postingAgainst('gateway', {
          accountId: account.id,
          userId: user.user.id,
          type: 'withdraw',
          amount: -(account.balance - 100),
          time: start,
        }),
      ),
    );
    await stepTo(station, target + MINUTE);
    const rejected = data(await user.client.get<Page<Order>>('/user/order/list.do', {})).list[0]!;
    expect(rejected).toMatchObject({
      id: order.id,
      status: 'rejected',
      rejectReason: 'INSUFFICIENT_FUNDS',
      positionId: null,
    });
    expect((await balanceOf(station, user.user.id)).frozen).toBe(0);
    expect(await positions(user, 'open')).toEqual([]);
    const messages = await messagesOf(user);
    expect(messages.list[0]).toMatchObject({ kind: 'order_rejected', title: 'Limit order not filled' });
    // A rejected order cannot be revoked.
    const revoke = await user.client.post('/user/order/cancel.do', {
      orderId: order.id,
      requestId: newRequestId(),
    });
    expect(failure(revoke).code).toBe('ALREADY_DONE');
  });

  it('does not fill a revoked order', async () => {
    const start = await freshStart(station);
    const user = await register(client);
    const { code, target } = fallingShare(station, start);
    const order = data(
      await user.client.post<Order>('/user/addOrder.do', {
        code,
        lots: 1,
        leverage: 1,
        triggerPrice: priceAt(station, code, target),
        requestId: newRequestId(),
      }),
    );
    data(await user.client.post('/user/order/cancel.do', { orderId: order.id, requestId: newRequestId() }));
    await stepTo(station, target + HOUR);
    expect(data(await user.client.get<Page<Order>>('/user/order/list.do', {})).list[0]!.status).toBe(
      'cancelled',
    );
    expect(await positions(user, 'open')).toEqual([]);
  });

  it('closes at the crossing tick on a stop loss and on a stop profit (T+0 market)', async () => {
    const code = 'AAPL';
    const start = await freshStart(station);
    const user = await register(client);
    const p0 = priceAt(station, code, start);
    const low = firstMinute(start, start + DAY, (t) => priceAt(station, code, t) < p0 * 0.995)!;
    const high = firstMinute(start, start + DAY, (t) => priceAt(station, code, t) > p0 * 1.005)!;
    expect(low && high, 'the price moves 0.5% both ways within a day').toBeTruthy();
    const stopLoss = priceAt(station, code, low);
    const stopProfit = priceAt(station, code, high);
    const losing = await buy(user, {
      code,
      lots: 10,
      leverage: 2,
      stopLoss,
      stopProfit: Number((p0 * 2).toFixed(2)),
    });
    const winning = await buy(user, {
      code,
      lots: 10,
      leverage: 1,
      stopProfit,
      stopLoss: Number((p0 / 2).toFixed(2)),
    });
    const lossAt = firstMinute(start, low, (t) => priceAt(station, code, t) <= stopLoss)!;
    const profitAt = firstMinute(start, high, (t) => priceAt(station, code, t) >= stopProfit)!;

    await stepTo(station, Math.min(lossAt, profitAt) - MINUTE);
    expect((await positions(user, 'open')).length).toBe(2);
    await stepTo(station, Math.max(lossAt, profitAt) + MINUTE);
    const closed = await positions(user, 'closed');
    const byId = new Map(closed.map((p) => [p.id, p]));
    expect(byId.get(losing.id)).toMatchObject({
      closeReason: 'stop_loss',
      closedAt: lossAt,
      closePrice: priceAt(station, code, lossAt),
    });
    expect(byId.get(losing.id)!.closePrice!).toBeLessThanOrEqual(stopLoss);
    expect(byId.get(winning.id)).toMatchObject({
      closeReason: 'stop_profit',
      closedAt: profitAt,
      closePrice: priceAt(station, code, profitAt),
    });
    expect(byId.get(winning.id)!.closePrice!).toBeGreaterThanOrEqual(stopProfit);
    const kinds = (await messagesOf(user)).list.map((m) => m.kind).sort();
    expect(kinds).toEqual(['stop_loss', 'stop_profit']);
  });

  it('lets a stop on an A-share bought today wait for T+1, then closes at the first tick still beyond it', async () => {
    const code = '600036';
    const start = await freshStart(station, 12);
    const midnight = Math.floor(start / DAY) * DAY + DAY;
    const p0 = priceAt(station, code, start);
    // A stop crossed before midnight (when it may not be sold) and again after it.
    let stop: number | null = null;
    let closeAt: number | null = null;
    const candidates = [];
    for (let t = start + MINUTE; t < midnight; t += MINUTE) {
      const p = priceAt(station, code, t);
      if (p < p0) candidates.push(p);
    }
    for (const level of [...new Set(candidates)].sort((a, b) => b - a)) {
      const at = firstMinute(
        midnight - MINUTE,
        midnight + 2 * DAY,
        (t) => tradingAt(station, code, t) && priceAt(station, code, t) <= level,
      );
      if (at !== null) {
        stop = level;
        closeAt = at;
        break;
      }
    }
    expect(stop, 'a stop level crossed before and after midnight').not.toBeNull();
    const user = await register(client);
    const position = await buy(user, { code, lots: 1, leverage: 1, stopLoss: stop });
    expect(position.sellableFrom).toBe(midnight);
    await stepTo(station, midnight - MINUTE);
    expect((await positions(user, 'open')).map((p) => p.id)).toEqual([position.id]);
    await walkTo(station, closeAt! + MINUTE);
    const [closed] = await positions(user, 'closed');
    expect(closed).toMatchObject({
      id: position.id,
      closeReason: 'stop_loss',
      closedAt: closeAt,
      closePrice: priceAt(station, code, closeAt!),
    });
  });

  it("lists and reads messages: newest first, unread count, one or all, never another user's", async () => {
    const start = await freshStart(station);
    const user = await register(client);
    const other = await register(client);
    const { code, target: low } = fallingShare(station, start);
    for (let i = 0; i < 3; i++) {
      data(
        await user.client.post('/user/addOrder.do', {
          code,
          lots: 1,
          leverage: 1,
          triggerPrice: priceAt(station, code, low),
          requestId: newRequestId(),
        }),
      );
    }
    await stepTo(station, low + MINUTE);
    const page = await messagesOf(user);
    expect(page.total).toBe(3);
    expect(page.unread).toBe(3);
    expect(page.list.map((m) => m.id)).toEqual([...page.list.map((m) => m.id)].sort((a, b) => b - a));
    const firstPage = data(
      await user.client.get<UserMessagePage>('/user/cash/getMessagelist.do', { pageSize: 2 }),
    );
    expect(firstPage.list).toHaveLength(2);

    const notMine = await other.client.post('/user/cash/readMessage.do', { id: page.list[0]!.id });
    expect(failure(notMine).code).toBe('NOT_FOUND');
    expect(
      data(await user.client.post<{ unread: number }>('/user/cash/readMessage.do', { id: page.list[0]!.id })),
    ).toEqual({
      unread: 2,
    });
    const unreadOnly = data(
      await user.client.get<UserMessagePage>('/user/cash/getMessagelist.do', { unreadOnly: 'true' }),
    );
    expect(unreadOnly.total).toBe(2);
    expect(data(await user.client.post<{ unread: number }>('/user/cash/readMessage.do', {}))).toEqual({
      unread: 0,
    });
    expect((await messagesOf(user)).list.every((m) => m.readAt === station.clock.now())).toBe(true);
    expect((await messagesOf(other)).total).toBe(0);
    expect((await client.get('/user/cash/getMessagelist.do')).http).toBe(401);
  });
});

describe.each(dbTargets)('engine: risk warning and forced liquidation (%s, always-open)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    // Deferred fees would move the cash this test predicts R from; they have their own tests.
    station.config.settings.deferredFeeRate = 0;
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    await assertFrozenMatchesOrders(station);
  });

  it('warns once per episode below the warning line, then closes largest loss first until above it', async () => {
    const { warningLine, liquidationLine, fees } = station.config.settings;
    const first = Math.floor(station.clock.now() / DAY) * DAY + DAY + HOUR;
    // A big leg at leverage 10 using ~88% of the cash as margin and a small one: find a day and a stock
    // whose seeded path takes R down to the liquidation line within a week (coarse scan, 10 minutes).
    const small = '600036';
    const legsAt = (code: string, t: number) =>
      [
        { code, budget: 880_000 },
        { code: small, budget: 40_000 },
      ].map(({ code: c, budget }) => {
        const price = priceAt(station, c, t);
        const lots = Math.min(100, Math.floor((budget * 10) / (price * 100)));
        const value = toMinor(price * lots * 100);
        const fee = tradeFees('a', 'buy', { shares: lots * 100, value }, fees).total;
        return { code: c, lots, shares: lots * 100, value, margin: marginFor(value, 10), fee };
      });
    let plan: { start: number; code: string } | null = null;
    const candidates = station.app.market.instruments
      .filter((i) => (i.market === 'a' || i.market === 'star') && i.referencePrice > 150)
      .map((i) => i.code);
    search: for (let d = 0; d < 15; d++) {
      const start = first + d * DAY;
      for (const code of candidates) {
        if (!tradingAt(station, code, start) || !tradingAt(station, small, start)) continue;
        const legs = legsAt(code, start);
        const cash = 100_000_000 - legs.reduce((s, l) => s + l.margin + l.fee, 0);
        const borrowed = legs.reduce((s, l) => s + l.value - l.margin, 0);
        const sellable = Math.floor(start / DAY) * DAY + DAY;
        for (let t = sellable; t < start + 7 * DAY; t += 10 * MINUTE) {
          const held = legs.reduce((s, l) => s + toMinor(priceAt(station, l.code, t) * l.shares), 0);
          if ((cash + held) / borrowed <= liquidationLine - 0.005) {
            plan = { start, code };
            break search;
          }
        }
      }
    }
    expect(plan, 'a seeded path reaching the liquidation line').not.toBeNull();
    const start = plan!.start;
    await walkTo(station, start);
    const user = await register(client);
    for (const leg of legsAt(plan!.code, start))
      await buy(user, { code: leg.code, lots: leg.lots, leverage: 10 });
    const open = await positions(user, 'open');
    const cash = (await balanceOf(station, user.user.id)).balance;
    const legs = open.map((p) => ({
      id: p.id,
      code: p.code,
      shares: p.shares,
      openValue: toMinor(p.openPrice * p.shares),
      borrowed: toMinor(p.openPrice * p.shares) - toMinor(p.margin),
      sellableFrom: p.sellableFrom,
    }));
    const borrowed = legs.reduce((s, l) => s + l.borrowed, 0);
    const ratio = (t: number) =>
      (cash + legs.reduce((s, l) => s + toMinor(priceAt(station, l.code, t) * l.shares), 0)) / borrowed;
    const sellable = Math.max(...legs.map((l) => l.sellableFrom));
    const liquidateAt = firstMinute(sellable - MINUTE, start + 8 * DAY, (t) => ratio(t) <= liquidationLine)!;
    expect(liquidateAt).not.toBeNull();
    // Episodes before the liquidation: each time R goes below the warning line.
    let episodes = 0;
    let inEpisode = false;
    let firstWarning: number | null = null;
    for (let t = start + MINUTE; t < liquidateAt; t += MINUTE) {
      const below = ratio(t) < warningLine;
      if (below && !inEpisode) {
        episodes++;
        firstWarning ??= t;
      }
      inEpisode = below;
    }

    await walkTo(station, liquidateAt - MINUTE);
    expect((await positions(user, 'open')).length).toBe(2);
    const before = (await messagesOf(user)).list;
    const warnings = before.filter((m) => m.kind === 'risk_warning');
    expect(warnings).toHaveLength(episodes);
    if (firstWarning !== null) {
      expect(Math.min(...warnings.map((m) => m.createdAt))).toBe(firstWarning);
      expect(warnings[0]!.content).toContain(String(warningLine));
    }

    await stepTo(station, liquidateAt);
    const after = (await messagesOf(user)).list;
    // The warning comes before (or with) the liquidation.
    expect(after.some((m) => m.kind === 'risk_warning' && m.createdAt <= liquidateAt)).toBe(true);
    const closed = await positions(user, 'closed');
    expect(closed.length).toBeGreaterThan(0);
    for (const p of closed) {
      expect(p).toMatchObject({ closeReason: 'liquidation', closedAt: liquidateAt });
      expect(p.closePrice).toBe(priceAt(station, p.code, liquidateAt));
    }
    // Largest loss first: whatever was closed lost at least as much as whatever remains open.
    const lossAt = (p: Position) =>
      toMinor(priceAt(station, p.code, liquidateAt) * p.shares) - toMinor(p.openPrice * p.shares);
    const stillOpen = await positions(user, 'open');
    for (const c of closed) for (const o of stillOpen) expect(lossAt(c)).toBeLessThanOrEqual(lossAt(o));
    // Closing stopped once R was above the warning line (or nothing was left).
    if (stillOpen.length > 0) {
      const account = await balanceOf(station, user.user.id);
      const r =
        (account.balance +
          stillOpen.reduce((s, p) => s + toMinor(priceAt(station, p.code, liquidateAt) * p.shares), 0)) /
        stillOpen.reduce((s, p) => s + toMinor(p.openPrice * p.shares) - toMinor(p.margin), 0);
      expect(r).toBeGreaterThan(warningLine);
    }
    const liquidations = after.filter((m) => m.kind === 'liquidation' && m.refType === 'position');
    expect(liquidations.map((m) => m.refId).sort()).toEqual(closed.map((p) => p.id).sort());
    expect(liquidations[0]!.title).toBe('Forced liquidation');
    // Stepping again over the same minute changes nothing.
    await stepTo(station, liquidateAt);
    expect((await positions(user, 'closed')).length).toBe(closed.length);
  });

  it('never liquidates an account with nothing borrowed, however far the price falls', async () => {
    const start = await freshStart(station, 1);
    const user = await register(client);
    const price = priceAt(station, '688256', start);
    await buy(user, { code: '688256', lots: Math.floor(900_000 / (price * 100)), leverage: 1 });
    await walkTo(station, start + 3 * DAY);
    expect((await positions(user, 'open')).length).toBe(1);
    expect((await messagesOf(user)).total).toBe(0);
  });

  it('skips a position it may not close yet (T+1) and tells the user once', async () => {
    const { liquidationLine } = station.config.settings;
    const start = await freshStart(station, 0);
    const user = await register(client);
    const code = '688256';
    const price = priceAt(station, code, start);
    const lots = Math.min(100, Math.floor((950_000 * 10) / (price * 100 * 1.001)));
    const position = await buy(user, { code, lots, leverage: 10 });
    const cash = (await balanceOf(station, user.user.id)).balance;
    const borrowed = toMinor(position.openPrice * position.shares) - toMinor(position.margin);
    const ratio = (t: number) => (cash + toMinor(priceAt(station, code, t) * position.shares)) / borrowed;
    const early = firstMinute(start, position.sellableFrom - MINUTE, (t) => ratio(t) <= liquidationLine);
    if (early === null) return; // the seeded day does not fall that far: nothing to show here
    await stepTo(station, position.sellableFrom - MINUTE);
    expect((await positions(user, 'open')).length).toBe(1);
    const skipped = (await messagesOf(user)).list.filter((m) => m.title === 'Forced liquidation pending');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.content).toContain(code);
  });
});

/** A database that outlives one station: a DATA_DIR for SQLite, a created database for PostgreSQL. */
async function durableDatabase(
  db: DbTarget,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-engine-'));
  if (db === 'sqlite') {
    return {
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.PAPERDESK_TEST_PG_URL!.trim();
  const name = `pd_engine_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(dbTargets)('engine: the daily deferred fee (%s, always-open)', (db) => {
  let durable: { env: Record<string, string>; drop: () => Promise<void> };
  let station: Station;

  beforeAll(async () => {
    durable = await durableDatabase(db);
    // The station itself runs on SQLite settings; DATABASE_URL (PostgreSQL) wins when set.
    station = await startStation({ db: 'sqlite', env: durable.env });
  });
  afterAll(async () => {
    await station?.close();
    await durable?.drop();
  });

  async function feeEntries(userId: number) {
    return station.app.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', 'deferred_fee')
      .orderBy('id')
      .execute();
  }

  it('charges each leveraged position once per market day, after gaps and across a restart', async () => {
    const client = api(station.url);
    const user = await register(client);
    const leveraged = await buy(user, { code: '600036', lots: 10, leverage: 2 });
    const plain = await buy(user, { code: '600036', lots: 1, leverage: 1 });
    const hk = await buy(user, { code: '00700', lots: 1, leverage: 5 });
    const borrowed = toMinor(leveraged.openPrice * leveraged.shares) - toMinor(leveraged.margin);
    const hkBorrowed = toMinor(hk.openPrice * hk.shares) - toMinor(hk.margin);
    const fee = applyRate(borrowed, station.config.settings.deferredFeeRate);
    const hkFee = applyRate(hkBorrowed, station.config.settings.deferredFeeRate);
    expect(fee).toBeGreaterThan(0);
    const firstClose = Math.floor(T0 / DAY) * DAY + DAY;

    // Before the close: nothing. Many steps after it: one charge each.
    await stepTo(station, firstClose - MINUTE);
    expect(await feeEntries(user.user.id)).toEqual([]);
    for (const t of [firstClose, firstClose, firstClose + MINUTE, firstClose + HOUR])
      await stepTo(station, t);
    let entries = await feeEntries(user.user.id);
    expect(entries.map((e) => [e.ref_id, Number(e.amount), Number(e.time)]).sort()).toEqual(
      [
        [leveraged.id, -fee, firstClose],
        [hk.id, -hkFee, firstClose],
      ].sort(),
    );
    await station.assertLedger();

    // A gap of four days, then one step: four more closes, each charged once.
    await stepTo(station, firstClose + 4 * DAY + HOUR);
    entries = await feeEntries(user.user.id);
    expect(entries.filter((e) => e.ref_id === leveraged.id)).toHaveLength(5);
    expect(entries.filter((e) => e.ref_id === plain.id)).toHaveLength(0);
    const shown = (await positions(user, 'open')).find((p) => p.id === leveraged.id)!;
    expect(toMinor(shown.deferredFee)).toBe(5 * fee);
    await station.assertLedger();

    // Restart on the same database: the new engine continues from the stored progress.
    const resumeAt = firstClose + 4 * DAY + 2 * HOUR;
    await station.close();
    station = await startStation({ db: 'sqlite', env: durable.env, clock: new FixedClock(resumeAt) });
    await station.app.engine.step();
    await station.app.engine.step();
    expect((await feeEntries(user.user.id)).filter((e) => e.ref_id === leveraged.id)).toHaveLength(5);
    await stepTo(station, firstClose + 5 * DAY + MINUTE);
    const last = await feeEntries(user.user.id);
    expect(last.filter((e) => e.ref_id === leveraged.id)).toHaveLength(6);
    expect(last.filter((e) => e.ref_id === hk.id)).toHaveLength(6);
    const runs = await station.app.db
      .selectFrom('engine_runs')
      .selectAll()
      .where('kind', '=', 'deferred_fee')
      .execute();
    // cn, hk and us once per day for the six days.
    expect(runs).toHaveLength(18);
    await station.assertLedger();
  });
});
