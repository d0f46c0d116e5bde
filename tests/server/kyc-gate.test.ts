/**
 * The KYC gate on every trading call (spec §6: real-name verification gates ordering), on a station that
 * needs KYC for orders (ORDERS_NEED_KYC=true): each call answers KYC_REQUIRED and writes nothing before
 * the user's KYC has passed, and goes through once it has. The bank card and withdrawals, gated whatever
 * ORDERS_NEED_KYC says, are shown in identity-bank and wallet-withdraw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockTradeOffer, VipPick } from '../../src/shared/api/dzvip';
import type { StockDetail } from '../../src/shared/api/types';
import { calendarOf } from '../../server/products/new-share-calendar';
import { runOperatorCommand } from '../../server/cli/commands';
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
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';

describe.each(dbTargets)('the KYC gate on trading calls (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, clock: new FixedClock(T0), env: { ORDERS_NEED_KYC: 'true' } });
    client = api(station.url);
  });
  afterAll(async () => {
    await station?.assertLedger();
    await station?.close();
  });

  async function passKyc(user: Registered): Promise<void> {
    await station.app.station.db
      .updateTable('users')
      .set({ kyc_status: 'passed', real_name: '张三' })
      .where('id', '=', user.user.id)
      .execute();
  }

  async function grantVip(user: Registered): Promise<void> {
    const known = await runOperatorCommand(
      station.app.station,
      'grant',
      [String(user.user.id), 'vip_picks', '--reason', 'VIP client'],
      () => {},
      'tester',
    );
    expect(known).toBe(true);
  }

  /** Each gated call with a body that a user with KYC may send, and the clock it is sent at. */
  async function gatedCalls(): Promise<
    { name: string; at: number; send: (user: Registered) => Promise<ApiResponse<unknown>> }[]
  > {
    const stock = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '600036' }));
    const offer = data(await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do')).find(
      (o) => o.status === 'open',
    )!;
    const pick = data(await client.get<VipPick[]>('/api/stock/getVipList.do'))[0]!;
    const issue = calendarOf(station.app.market).list.find(
      (i) => i.type === 'share' && i.subscribeOpensAt > T0,
    )!;
    const post = (path: string, body: object) => (user: Registered) =>
      user.client.post(path, { ...body, requestId: newRequestId() });
    return [
      { name: 'buy', at: T0, send: post('/user/buy.do', { code: '600036', lots: 1, leverage: 1 }) },
      {
        name: 'limit order',
        at: T0,
        send: post('/user/addOrder.do', { code: '600036', lots: 1, leverage: 1, triggerPrice: stock.price }),
      },
      {
        name: 'block trade',
        at: T0,
        send: post('/user/buyStockDz.do', { code: offer.code, lots: offer.minLots }),
      },
      { name: 'VIP pick', at: T0, send: post('/user/buyVipQc.do', { code: pick.code, lots: 1 }) },
      {
        name: 'fund allocation',
        at: T0,
        send: post('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days: 2,
        }),
      },
      {
        name: 'new-share subscription',
        at: issue.subscribeOpensAt + 60_000,
        send: post('/user/add.do', { code: issue.code, lots: 1 }),
      },
    ];
  }

  it('refuses every trading call before KYC, writing nothing, and lets each through once KYC has passed', async () => {
    const calls = await gatedCalls();
    const user = await register(client);
    await grantVip(user);
    for (const call of calls) {
      station.clock.set(call.at);
      const before = await station.counts();
      const refused = await call.send(user);
      expect({ call: call.name, http: refused.http, code: failure(refused).code }).toEqual({
        call: call.name,
        http: 403,
        code: 'KYC_REQUIRED',
      });
      expect(await station.counts()).toEqual(before);
    }

    await passKyc(user);
    for (const call of calls) {
      station.clock.set(call.at);
      const answer = await call.send(user);
      expect(answer.body.status, `${call.name}: ${JSON.stringify(answer.body)}`).toBe(0);
    }
    station.clock.set(T0);
  });
});
