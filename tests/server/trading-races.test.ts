/**
 * Races: concurrent money calls over real HTTP from one user. The clock is pinned, so every buy
 * of the same order costs exactly the same and the number that fit the balance is known in advance.
 * - 200 concurrent buys whose total exceeds the balance: exactly the ones that fit succeed, the rest get
 *   INSUFFICIENT_FUNDS (409), nothing overdraws.
 * - the same requestId sent 20 times at once (buy, then sell) executes once and answers the same 20 times.
 * - 20 concurrent whole sells of one position: it closes once, the rest get ALREADY_DONE.
 * - concurrent partial sells asking for more lots than the position holds: lots, margin and fees are
 *   conserved across the split records and no sell goes through on lots that are already gone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../src/shared/money';
import type { LedgerEntry, Page, Position, StockDetail, User } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';

const CODE = 'AAPL';
/** Buys that should fit the US account's opening balance, roughly. */
const TARGET_FITS = 60;

interface UsAccountState {
  balance: number;
  available: number;
  frozenMargin: number;
}

async function usAccount(user: Registered): Promise<UsAccountState> {
  const info = data(await user.client.get<User>('/user/getUserInfo.do'));
  const us = info.accounts.find((a) => a.type === 'us')!;
  return {
    balance: toMinor(us.balance),
    available: toMinor(us.available),
    frozenMargin: toMinor(us.frozenMargin),
  };
}

async function positions(user: Registered, state: 'open' | 'closed'): Promise<Position[]> {
  const page = data(
    await user.client.get<Page<Position>>('/user/position/list.do', { state, pageSize: 100 }),
  );
  expect(page.total).toBe(page.list.length); // every test here stays within one page
  return page.list;
}

/** Every ledger entry of the user's US account, newest first, through the paged call. */
async function usLedger(user: Registered): Promise<LedgerEntry[]> {
  const all: LedgerEntry[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = data(
      await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', {
        account: 'us',
        pageNum,
        pageSize: 100,
      }),
    );
    all.push(...page.list);
    if (all.length >= page.total || page.list.length === 0) return all;
  }
}

function buyBody(shares: number, requestId = newRequestId()) {
  return { code: CODE, lots: shares, leverage: 1, requestId };
}

const at = <T>(list: T[], i: number): T => list[i]!;

describe.each(dbTargets)('trading races (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let price: number;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    // The clock is pinned: this is the price of every order below.
    price = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: CODE })).price;
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    // Nothing anywhere was ever overdrawn: no entry left a balance below zero.
    const negative = await station.app.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('balance_after', '<', 0)
      .execute();
    expect(negative).toEqual([]);
  });

  /** The cost of a US market buy at leverage 1: value plus commission (per share, with a minimum). */
  function buyCost(shares: number): number {
    const rates = station.config.settings.fees.us;
    const value = toMinor(price * shares);
    const commission = Math.max(
      Math.round(shares * rates.commissionPerShare * 100),
      toMinor(rates.commissionMin),
    );
    return value + commission;
  }

  it('200 concurrent buys over the balance: exactly the ones that fit succeed, the rest INSUFFICIENT_FUNDS', async () => {
    const user = await register(client);
    const start = await usAccount(user);
    expect(start.balance).toBe(toMinor(station.config.settings.startingBalances.us));

    // Shares per order so that about TARGET_FITS orders fit; the exact count follows from the cost.
    const shares = Math.max(1, Math.floor(start.balance / TARGET_FITS / toMinor(price)));
    const cost = buyCost(shares);
    const fits = Math.floor(start.balance / cost);
    expect(fits).toBeGreaterThan(10);
    expect(fits).toBeLessThan(200);

    const before = await station.counts();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => user.client.post<Position>('/user/buy.do', buyBody(shares))),
    );
    const ok = answers.filter((r) => r.body.status === 0).map((r) => data(r));
    const refused = answers.filter((r) => r.body.status !== 0);

    expect(ok).toHaveLength(fits);
    expect(ok.length * cost).toBeLessThanOrEqual(start.balance);
    for (const position of ok) {
      expect(toMinor(position.margin) + toMinor(position.buyFee)).toBe(cost);
      expect(position).toMatchObject({ code: CODE, shares, lots: shares, openPrice: price });
    }
    expect(new Set(ok.map((p) => p.id)).size).toBe(fits);
    expect(refused).toHaveLength(200 - fits);
    for (const r of refused) {
      expect(r.http).toBe(409);
      expect(failure(r).code).toBe('INSUFFICIENT_FUNDS');
    }

    const after = await usAccount(user);
    expect(after.balance).toBe(start.balance - fits * cost);
    expect(after.balance).toBeLessThan(cost); // the next one really would not fit
    expect(after.available).toBeGreaterThanOrEqual(0);
    expect(after.frozenMargin).toBe(fits * toMinor(price * shares));

    expect((await positions(user, 'open')).map((p) => p.id).sort()).toEqual(ok.map((p) => p.id).sort());
    // One buy and one commission entry per success; refusals wrote nothing, not even their requestId.
    const ledger = await usLedger(user);
    expect(ledger).toHaveLength(1 + 2 * fits);
    expect(ledger.filter((e) => e.type === 'buy')).toHaveLength(fits);
    expect(ledger.every((e) => e.balanceAfter >= 0)).toBe(true);
    const counts = await station.counts();
    expect(counts.positions - before.positions).toBe(fits);
    expect(counts.ledger - before.ledger).toBe(2 * fits);
    expect(counts.idempotency - before.idempotency).toBe(fits);
  });

  it('the same buy requestId sent 20 times at once executes once and answers the same 20 times', async () => {
    const user = await register(client);
    const start = await usAccount(user);
    const before = await station.counts();
    const body = buyBody(3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => user.client.post<Position>('/user/buy.do', body)),
    );
    const first = data(at(answers, 0));
    for (const r of answers) expect(data(r)).toEqual(first);

    const counts = await station.counts();
    expect(counts.positions - before.positions).toBe(1);
    expect(counts.ledger - before.ledger).toBe(2);
    expect(counts.idempotency - before.idempotency).toBe(1);
    expect((await usAccount(user)).balance).toBe(start.balance - buyCost(3));
    expect((await positions(user, 'open')).map((p) => p.id)).toEqual([first.id]);

    // And once more later: still the stored answer, still nothing new.
    expect(data(await user.client.post<Position>('/user/buy.do', body))).toEqual(first);
    expect(await station.counts()).toEqual(counts);
  });

  it('the same sell requestId sent 20 times at once closes once and answers the same 20 times', async () => {
    const user = await register(client);
    const bought = data(await user.client.post<Position>('/user/buy.do', buyBody(5)));
    const before = await station.counts();
    const body = { positionId: bought.id, requestId: newRequestId() };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => user.client.post<Position>('/user/sell.do', body)),
    );
    const first = data(at(answers, 0));
    expect(first).toMatchObject({ id: bought.id, closeReason: 'user', closePrice: price });
    for (const r of answers) expect(data(r)).toEqual(first);
    const counts = await station.counts();
    expect(counts.positions).toBe(before.positions);
    // One sell entry and one fee entry (commission and TAF together).
    expect(counts.ledger - before.ledger).toBe(2);
    expect(counts.idempotency - before.idempotency).toBe(1);
  });

  it('20 concurrent whole sells of one position: it closes once, the rest get ALREADY_DONE', async () => {
    const user = await register(client);
    const start = await usAccount(user);
    const bought = data(await user.client.post<Position>('/user/buy.do', buyBody(10)));
    const before = await station.counts();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
      ),
    );
    const ok = answers.filter((r) => r.body.status === 0).map((r) => data(r));
    expect(ok).toHaveLength(1);
    expect(at(ok, 0)).toMatchObject({ id: bought.id, lots: 10, closePrice: price, closeReason: 'user' });
    for (const r of answers.filter((a) => a.body.status !== 0)) {
      expect(r.http).toBe(409);
      expect(failure(r).code).toBe('ALREADY_DONE');
    }
    const counts = await station.counts();
    expect(counts.ledger - before.ledger).toBe(2);
    expect(counts.idempotency - before.idempotency).toBe(1);
    expect(await positions(user, 'open')).toEqual([]);
    expect((await positions(user, 'closed')).map((p) => p.id)).toEqual([bought.id]);
    // Bought and sold at the same price: the account lost exactly the fees, once.
    const sold = at(ok, 0);
    const fees = toMinor(bought.buyFee) + toMinor(sold.sellFee) + toMinor(sold.stampDuty);
    expect((await usAccount(user)).balance).toBe(start.balance - fees);
  });

  /**
   * Partial sells of `each` lots, `count` at once, of a position of `total` lots. Returns the answers and
   * checks what must hold whatever order they ran in.
   */
  async function partialSells(user: Registered, total: number, each: number, count: number) {
    const bought = data(await user.client.post<Position>('/user/buy.do', buyBody(total)));
    const answers: ApiResponse<Position>[] = await Promise.all(
      Array.from({ length: count }, () =>
        user.client.post<Position>('/user/sell.do', {
          positionId: bought.id,
          lots: each,
          requestId: newRequestId(),
        }),
      ),
    );
    const open = await positions(user, 'open');
    const closed = await positions(user, 'closed');
    // Conservation: the closed parts and what remains open add up to what was bought.
    const all = [...open, ...closed];
    const sum = (f: (p: Position) => number) => all.reduce((s, p) => s + f(p), 0);
    expect(sum((p) => p.lots)).toBe(total);
    expect(sum((p) => p.shares)).toBe(bought.shares);
    expect(sum((p) => toMinor(p.margin))).toBe(toMinor(bought.margin));
    expect(sum((p) => toMinor(p.buyFee))).toBe(toMinor(bought.buyFee));
    // Every sell entry belongs to one closed record, and each closed record has exactly one.
    const sells = (await usLedger(user)).filter((e) => e.type === 'sell');
    expect(sells.map((e) => e.refId).sort()).toEqual(closed.map((p) => p.id).sort());
    return { bought, answers, open, closed };
  }

  it('concurrent partial sells asking for more lots than held: 33 × 3 of 100 go through, 1 lot stays open', async () => {
    const user = await register(client);
    const { bought, answers, open, closed } = await partialSells(user, 100, 3, 40);
    const ok = answers.filter((r) => r.body.status === 0).map((r) => data(r));
    expect(ok).toHaveLength(33);
    // Each success answers what remains open, one less 3-lot part each time.
    expect(ok.map((p) => p.lots).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 33 }, (_, i) => 100 - 3 * (i + 1)),
    );
    for (const p of ok) expect(p.id).toBe(bought.id);
    for (const r of answers.filter((a) => a.body.status !== 0)) {
      expect(r.http).toBe(400);
      expect(failure(r)).toMatchObject({ code: 'VALIDATION', fields: { lots: expect.any(String) } });
    }
    expect(open).toHaveLength(1);
    expect(at(open, 0)).toMatchObject({ id: bought.id, lots: 1, shares: 1 });
    expect(closed).toHaveLength(33);
    expect(closed.every((p) => p.lots === 3)).toBe(true);
  });

  it('concurrent partial sells that close the position exactly: the last part closes it, the rest ALREADY_DONE', async () => {
    const user = await register(client);
    const { bought, answers, open, closed } = await partialSells(user, 100, 4, 35);
    const ok = answers.filter((r) => r.body.status === 0).map((r) => data(r));
    expect(ok).toHaveLength(25);
    // The 25th part is the whole remainder: it closes the original record itself.
    const closing = ok.filter((p) => p.closeReason !== null);
    expect(closing).toHaveLength(1);
    expect(at(closing, 0)).toMatchObject({ id: bought.id, lots: 4, closeReason: 'user' });
    for (const r of answers.filter((a) => a.body.status !== 0)) {
      expect(r.http).toBe(409);
      expect(failure(r).code).toBe('ALREADY_DONE');
    }
    expect(open).toEqual([]);
    expect(closed).toHaveLength(25);
  });
});
