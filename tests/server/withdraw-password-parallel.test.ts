/**
 * The withdrawal password's guard under parallel calls with the right password: repeats of one requestId
 * all get the first answer, and many withdrawals at once are each refused for what is true (funds), never
 * as "too many wrong password attempts".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Withdrawal } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  dbTargets,
  failure,
  newRequestId,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';
import { readyToWithdraw, WITHDRAW_PASSWORD } from './helpers/wallet';

const withdraw = (client: ApiClient, amount: number, requestId = newRequestId()) =>
  client.post<Withdrawal>('/user/withdraw/outMoney.do', {
    amount,
    withdrawPassword: WITHDRAW_PASSWORD,
    requestId,
  });

describe.each(dbTargets)('the withdrawal password under parallel calls (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('20 parallel repeats of one requestId: every one gets the first answer, one withdrawal', async () => {
    const user = await readyToWithdraw(station, client);
    const requestId = newRequestId();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(user.client, 500, requestId)),
    );
    expect(answers.map((a) => a.body.status)).toEqual(Array(20).fill(0));
    const ids = new Set(answers.map((a) => ('data' in a.body ? a.body.data.id : null)));
    expect(ids.size).toBe(1);
    const rows = await station.app.db
      .selectFrom('withdrawals')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('answers a repeat before any guard: the first answer, even once the password is locked', async () => {
    const user = await readyToWithdraw(station, client);
    const requestId = newRequestId();
    const first = await withdraw(user.client, 500, requestId);
    expect(first.body.status).toBe(0);
    // Five wrong passwords (LOGIN_MAX_FAILURES) lock the withdrawal password, even for the right one.
    for (let i = 0; i < 5; i++) {
      const wrong = await user.client.post('/user/withdraw/outMoney.do', {
        amount: 500,
        withdrawPassword: '000000',
        requestId: newRequestId(),
      });
      expect(failure(wrong).code).toBe('BAD_WITHDRAW_PASSWORD');
    }
    expect(failure(await withdraw(user.client, 500)).code).toBe('RATE_LIMITED');
    const repeats = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(user.client, 500, requestId)),
    );
    for (const repeat of repeats) expect(repeat.body).toEqual(first.body);
  });

  it('50 parallel whole-balance withdrawals: one succeeds, the others are told the funds are short', async () => {
    const user = await readyToWithdraw(station, client);
    const answers = await Promise.all(Array.from({ length: 50 }, () => withdraw(user.client, 1_000_000)));
    const codes = answers.map((a) => ('code' in a.body ? a.body.code : 'ok'));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(1);
    expect(codes.filter((c) => c !== 'ok')).toEqual(Array(49).fill('INSUFFICIENT_FUNDS'));
  });
});
