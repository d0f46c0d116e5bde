/**
 * Net P&L over HTTP (DOMAIN.md "P&L", API.md `position`): pnl = pricePnl − fees, fees = every fee charged
 * so far, yield = pnl ÷ margin, and the account's positionPnl is net too. The clock is pinned, so a round
 * trip without advancing it is at an unchanged price.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Account, Page, Position, User } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
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

const fen = (major: number) => Math.round(Number((major * 100).toFixed(6)));

async function account(user: Registered, type: Account['type']): Promise<Account> {
  return data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find((a) => a.type === type)!;
}

describe.each(dbTargets)('net P&L (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
  });

  it('shows a Hong Kong round trip at an unchanged price as the loss of its fees', async () => {
    const user = await register(client);
    const before = await account(user, 'hk');
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '00700',
        lots: 2,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    // Open: the buy fee (HK buy stamp duty included) is charged already.
    expect(bought.pricePnl).toBe(0);
    expect(bought.fees).toBe(bought.buyFee);
    expect(fen(bought.pnl)).toBe(-fen(bought.buyFee));
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    expect(sold.closePrice).toBe(bought.openPrice);
    expect(sold.pricePnl).toBe(0);
    const fees = fen(sold.buyFee) + fen(sold.sellFee) + fen(sold.stampDuty) + fen(sold.deferredFee);
    expect(fees).toBeGreaterThan(0);
    expect(sold.stampDuty).toBeGreaterThan(0);
    expect(fen(sold.fees)).toBe(fees);
    expect(fen(sold.pnl)).toBe(-fees);
    expect(sold.yield).toBeCloseTo(-fees / fen(sold.margin), 6);
    // The closed list shows the same net figure, and it is what the account lost.
    const closed = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed', market: 'hk' }),
    ).list;
    expect(closed.find((p) => p.id === sold.id)).toMatchObject({
      pricePnl: 0,
      pnl: sold.pnl,
      fees: sold.fees,
    });
    const after = await account(user, 'hk');
    expect(fen(after.balance) - fen(before.balance)).toBe(-fees);
    expect(fen(after.totalAssets) - fen(before.totalAssets)).toBe(-fees);
  });

  it('shows an open A-share position net of its buy fee, in the list and in the account', async () => {
    const user = await register(client);
    const before = await account(user, 'main');
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    const [open] = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'a' }),
    ).list;
    expect(open).toMatchObject({ id: bought.id, pricePnl: 0, fees: bought.buyFee });
    expect(fen(open!.pnl)).toBe(-fen(bought.buyFee));
    expect(open!.yield).toBeCloseTo(open!.pnl / open!.margin, 6);
    const main = await account(user, 'main');
    expect(main.positionPnl).toBe(open!.pnl);
    // The fee has left the balance: the total assets fall by it once, not twice.
    expect(fen(main.totalAssets)).toBe(fen(before.totalAssets) - fen(bought.buyFee));
  });
});
