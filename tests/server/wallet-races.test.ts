/**
 * Wallet races over real HTTP and real transactions: two devices withdrawing the whole balance at once
 * (one succeeds), a user's cancel racing the payout by the operator or by the engine (exactly one wins),
 * the same requestId twice at once (one withdrawal), and the same for a transfer and an exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Withdrawal } from '../../src/shared/api/types';
import { decideWithdrawalByOperator } from '../../server/wallet/withdrawal';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  dbTargets,
  newRequestId,
  startStation,
  type ApiClient,
  type ApiResponse,
  type TestStation,
} from './helpers/station';
import { accountOf, entriesSum, readyToWithdraw, WITHDRAW_PASSWORD } from './helpers/wallet';

type Station = TestStation<FixedClock>;
const START = 1_000_000_00;
const ROUNDS = 4;

const withdraw = (client: ApiClient, amount: number, requestId = newRequestId()) =>
  client.post<Withdrawal>('/user/withdraw/outMoney.do', {
    amount,
    withdrawPassword: WITHDRAW_PASSWORD,
    requestId,
  });

const succeeded = (responses: ApiResponse<unknown>[]) => responses.filter((r) => r.body.status === 0);

describe.each(dbTargets)('wallet races (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('two devices withdrawing the whole balance at once: exactly one succeeds', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await readyToWithdraw(station, client);
      const phone = user.client;
      const tablet = client.withToken(user.token);
      const answers = await Promise.all([withdraw(phone, 1_000_000), withdraw(tablet, 1_000_000)]);
      expect(succeeded(answers)).toHaveLength(1);
      const refused = answers.find((r) => r.body.status !== 0)!;
      expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      expect((await accountOf(station, user.user.id)).balance).toBe(0);
      const rows = await station.app.db
        .selectFrom('withdrawals')
        .selectAll()
        .where('user_id', '=', user.user.id)
        .execute();
      expect(rows).toHaveLength(1);
    }
    await station.assertLedger();
  });

  it('the same requestId twice at once: one withdrawal, both answers the same', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await readyToWithdraw(station, client);
      const requestId = newRequestId();
      const answers = await Promise.all([
        withdraw(user.client, 500, requestId),
        withdraw(client.withToken(user.token), 500, requestId),
      ]);
      const ok = succeeded(answers);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      // A loser of the key's insert waits for the winner and then gets its answer.
      for (const answer of ok) expect(answer.body).toEqual(ok[0]!.body);
      const rows = await station.app.db
        .selectFrom('withdrawals')
        .selectAll()
        .where('user_id', '=', user.user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect((await accountOf(station, user.user.id)).balance).toBe(START - 50_000);
    }
    await station.assertLedger();
  });

  it('a cancel racing the operator payout: exactly one wins, the money moves once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await readyToWithdraw(station, client);
      const w = (await withdraw(user.client, 1_000)).body as { data: Withdrawal };
      const [cancel, payout] = await Promise.allSettled([
        user.client.post<Withdrawal>('/user/withdraw/cancel.do', { id: w.data.id, reason: 'race' }),
        decideWithdrawalByOperator(station.app.station, w.data.id, { status: 'paid' }, 'tester', 'race'),
      ]);
      const cancelWon = cancel.status === 'fulfilled' && cancel.value.body.status === 0;
      const payoutWon = payout.status === 'fulfilled';
      expect(cancelWon !== payoutWon, `round ${round}`).toBe(true);
      if (!payoutWon)
        expect((payout as PromiseRejectedResult).reason).toMatchObject({ code: 'ALREADY_DONE' });
      if (!cancelWon && cancel.status === 'fulfilled')
        expect(cancel.value.body).toMatchObject({ code: 'ALREADY_DONE' });
      const row = await station.app.db
        .selectFrom('withdrawals')
        .selectAll()
        .where('id', '=', w.data.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(cancelWon ? 'cancelled' : 'paid');
      expect(await entriesSum(station, user.user.id, ['withdraw_refund'])).toBe(cancelWon ? 100_000 : 0);
      expect((await accountOf(station, user.user.id)).balance).toBe(cancelWon ? START : START - 100_000);
    }
    await station.assertLedger();
  });

  it("a cancel racing the engine's payout: exactly one wins", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await readyToWithdraw(station, client);
      const w = ((await withdraw(user.client, 1_000)).body as { data: Withdrawal }).data;
      station.clock.advance(station.config.reviewDelaySeconds * 1000);
      const [cancel] = await Promise.all([
        user.client.post<Withdrawal>('/user/withdraw/cancel.do', { id: w.id, reason: 'race' }),
        station.app.engine.step(),
      ]);
      const row = await station.app.db
        .selectFrom('withdrawals')
        .selectAll()
        .where('id', '=', w.id)
        .executeTakeFirstOrThrow();
      const cancelWon = cancel.body.status === 0;
      expect(row.status).toBe(cancelWon ? 'cancelled' : 'paid');
      if (!cancelWon) expect(cancel.body).toMatchObject({ code: 'ALREADY_DONE' });
      expect((await accountOf(station, user.user.id)).balance).toBe(cancelWon ? START : START - 100_000);
      // A message exactly when the station paid.
      const messages = await station.app.db
        .selectFrom('user_messages')
        .select('kind')
        .where('user_id', '=', user.user.id)
        .where('kind', '=', 'withdrawal')
        .execute();
      expect(messages).toHaveLength(cancelWon ? 0 : 1);
    }
    await station.assertLedger();
  });

  it('transfers and exchanges racing for the same cash: never more than is available', async () => {
    const user = await readyToWithdraw(station, client);
    const answers = await Promise.all([
      user.client.post('/user/transAmt.do', {
        amount: 700_000,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
      user.client.post('/api/user/exchange.do', {
        amount: 700_000,
        source: 'CNY',
        target: 'HKD',
        requestId: newRequestId(),
      }),
      withdraw(client.withToken(user.token), 700_000),
    ]);
    expect(succeeded(answers)).toHaveLength(1);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 70_000_000);
    await station.assertLedger();
  });
});
