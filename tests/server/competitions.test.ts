/**
 * Competitions, the station's part: create, edit (creator only, until the start), join (by id or code, up
 * to the cap, not after the end), list, detail and mine, with each refusal's message and nothing written;
 * the competition accounts opened with the starting cash through the ledger (ledger-check balances).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/shared/api/types';
import type { Competition, CompetitionAccount, MyCompetition } from '../../src/shared/api/competitions';
import { FixedClock } from '../../server/market/clock';
import { checkLedger } from '../../server/ledger/ledger';
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
const DAY = 86_400_000;

function terms(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Spring cup',
    description: 'A-shares and US stocks',
    startAt: T0 + HOUR,
    endAt: T0 + 3 * DAY,
    startingCash: 100_000,
    startingCashUsd: 10_000,
    markets: 'a,us',
    maxLeverage: 2,
    allowShort: false,
    visibility: 'public',
    requestId: newRequestId(),
    ...overrides,
  };
}

describe.each(dbTargets)('competitions: create, edit, join (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let creator: Registered;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    creator = await register(client);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
  });

  it('creates a public competition anyone can read, and a private one whose code only its creator sees', async () => {
    const open = data(await creator.client.post<Competition>('/user/competition/create.do', terms()));
    expect(open).toMatchObject({
      name: 'Spring cup',
      state: 'upcoming',
      startingCash: { CNY: 100_000, HKD: 0, USD: 10_000 },
      markets: ['a', 'us'],
      maxLeverage: 2,
      allowShort: false,
      visibility: 'public',
      joinCode: null,
      entrants: 0,
      frozen: false,
    });
    const closed = data(
      await creator.client.post<Competition>('/user/competition/create.do', terms({ visibility: 'private' })),
    );
    expect(closed.joinCode).toMatch(/^[A-Z0-9]{8}$/);
    const detail = data(await client.get<Competition>('/api/competition/detail.do', { id: closed.id }));
    expect(detail.joinCode).toBeNull();
    const list = data(await client.get<Page<Competition>>('/api/competition/list.do', { state: 'upcoming' }));
    expect(list.list.map((c) => c.id)).toContain(open.id);
    expect(list.list.map((c) => c.id)).not.toContain(closed.id);
    const running = data(
      await client.get<Page<Competition>>('/api/competition/list.do', { state: 'running' }),
    );
    expect(running.list.map((c) => c.id)).not.toContain(open.id);
  });

  it('repeats a create with the same requestId once', async () => {
    const body = terms();
    const first = data(await creator.client.post<Competition>('/user/competition/create.do', body));
    const again = data(await creator.client.post<Competition>('/user/competition/create.do', body));
    expect(again.id).toBe(first.id);
  });

  it('refuses bad terms with their messages in the request language, writing nothing', async () => {
    const before = await station.app.db
      .selectFrom('competitions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const past = failure(
      await creator.client.withLang('en').post('/user/competition/create.do', terms({ startAt: T0 - 1 })),
    );
    expect(past).toMatchObject({
      code: 'VALIDATION',
      msg: 'The start must be in the future',
      fields: { startAt: expect.any(String) },
    });
    const order = failure(
      await creator.client.withLang('zh-CN').post('/user/competition/create.do', terms({ endAt: T0 + HOUR })),
    );
    expect(order.msg).toBe('结束时间必须晚于开始时间');
    const noCash = failure(
      await creator.client
        .withLang('en')
        .post('/user/competition/create.do', terms({ startingCash: 0, startingCashUsd: 0 })),
    );
    expect(noCash.msg).toBe('Give a starting cash of more than 0 in at least one currency');
    const market = failure(
      await creator.client.post('/user/competition/create.do', terms({ markets: 'a,moon' })),
    );
    expect(market.code).toBe('VALIDATION');
    const after = await station.app.db
      .selectFrom('competitions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('lets only the creator edit, and only until the start', async () => {
    const made = data(await creator.client.post<Competition>('/user/competition/create.do', terms()));
    const other = await register(client);
    const refused = failure(
      await other.client.withLang('en').post('/user/competition/edit.do', { ...terms(), id: made.id }),
    );
    expect(refused).toMatchObject({
      code: 'NO_PERMISSION',
      msg: 'Only the creator of the competition can edit it',
    });
    const edited = data(
      await creator.client.post<Competition>('/user/competition/edit.do', {
        ...terms({ name: 'Summer cup', maxLeverage: 5 }),
        id: made.id,
      }),
    );
    expect(edited).toMatchObject({ id: made.id, name: 'Summer cup', maxLeverage: 5 });
    station.clock.set(T0 + HOUR);
    const started = failure(
      await creator.client.withLang('en').post('/user/competition/edit.do', {
        ...terms({ startAt: T0 + 2 * HOUR }),
        id: made.id,
      }),
    );
    expect(started).toMatchObject({
      code: 'ALREADY_DONE',
      msg: 'The competition has started: it can no longer be edited',
    });
  });

  it('joins by id or by code, opening the competition accounts with the starting cash through the ledger', async () => {
    const made = data(
      await creator.client.post<Competition>('/user/competition/create.do', terms({ visibility: 'private' })),
    );
    const player = await register(client);
    const byId = failure(
      await player.client
        .withLang('en')
        .post('/user/competition/join.do', { id: made.id, requestId: newRequestId() }),
    );
    expect(byId).toMatchObject({
      code: 'NO_PERMISSION',
      msg: 'This competition is private: join it with its code',
    });
    const badCode = failure(
      await player.client
        .withLang('en')
        .post('/user/competition/join.do', { joinCode: 'ZZZZZZZZ', requestId: newRequestId() }),
    );
    expect(badCode).toMatchObject({ code: 'NOT_FOUND', msg: 'No competition has this join code' });
    const joined = data(
      await player.client.post<MyCompetition>('/user/competition/join.do', {
        joinCode: made.joinCode!.toLowerCase(),
        nickname: 'Bull',
        requestId: newRequestId(),
      }),
    );
    expect(joined).toMatchObject({
      joined: true,
      nickname: 'Bull',
      competition: { id: made.id, entrants: 1 },
    });
    const again = failure(
      await player.client
        .withLang('en')
        .post('/user/competition/join.do', { joinCode: made.joinCode, requestId: newRequestId() }),
    );
    expect(again.msg).toBe('You have already joined this competition');

    const accounts = data(
      await player.client.get<CompetitionAccount[]>('/user/competition/accounts.do', { id: made.id }),
    );
    expect(accounts.map((a) => [a.type, a.currency, a.balance, a.totalAssets])).toEqual([
      ['competition', 'CNY', 100_000, 100_000],
      ['competition', 'HKD', 0, 0],
      ['competition', 'USD', 10_000, 10_000],
    ]);
    // The user's own accounts are untouched and do not list the competition's.
    const info = data(await player.client.get<{ accounts: { type: string }[] }>('/user/getUserInfo.do'));
    expect(info.accounts.map((a) => a.type)).toEqual(['main', 'index', 'newstock', 'hk', 'us']);
    const ledger = await checkLedger(station.app.db);
    // The house's competitions account paid out what the entrants' accounts hold (one entrant so far
    // in this station holds a competition account: this one).
    const house = ledger.house.filter((h) => h.account === 'competitions');
    expect(house).toEqual([
      { account: 'competitions', currency: 'CNY', balance: -100_000_00 },
      { account: 'competitions', currency: 'USD', balance: -10_000_00 },
    ]);
    const mine = data(await player.client.get<MyCompetition[]>('/user/competition/mine.do'));
    expect(mine.find((m) => m.competition.id === made.id)).toMatchObject({ joined: true, isCreator: false });
    const created = data(await creator.client.get<MyCompetition[]>('/user/competition/mine.do'));
    const own = created.find((m) => m.competition.id === made.id)!;
    expect(own).toMatchObject({ joined: false, isCreator: true });
    expect(own.competition.joinCode).toBe(made.joinCode);
  });

  it('refuses a join past the cap and after the end', async () => {
    const made = data(
      await creator.client.post<Competition>('/user/competition/create.do', terms({ maxEntrants: 1 })),
    );
    const first = await register(client);
    data(await first.client.post('/user/competition/join.do', { id: made.id, requestId: newRequestId() }));
    const second = await register(client);
    const full = failure(
      await second.client
        .withLang('en')
        .post('/user/competition/join.do', { id: made.id, requestId: newRequestId() }),
    );
    expect(full).toMatchObject({ code: 'COMPETITION_FULL' });
    const other = data(await creator.client.post<Competition>('/user/competition/create.do', terms()));
    station.clock.set(T0 + 3 * DAY);
    const late = failure(
      await second.client
        .withLang('en')
        .post('/user/competition/join.do', { id: other.id, requestId: newRequestId() }),
    );
    expect(late).toMatchObject({
      code: 'COMPETITION_CLOSED',
      msg: 'The competition has ended: its ranking is final',
    });
    const accounts = await station.app.db
      .selectFrom('accounts')
      .select('id')
      .where('user_id', '=', second.user.id)
      .where('competition_id', 'is not', null)
      .execute();
    expect(accounts).toEqual([]);
  });

  it('shares one amount in yuan (cashInCny) between the allowed currencies at the mid rates, to the cent', async () => {
    const { cnyPer } = data(
      await client.get<{ cnyPer: Record<'CNY' | 'HKD' | 'USD', number> }>('/api/site/exchange/rate'),
    );
    // 100,000.01 yuan in fen, three ways: 3,333,333 fen each, the leftover 2 fen to the CNY account.
    const made = data(
      await creator.client.post<Competition>(
        '/user/competition/create.do',
        terms({ startingCash: 100_000.01, startingCashUsd: undefined, cashInCny: true, markets: 'a,hk,us' }),
      ),
    );
    // A foreign share is its yuan at the mid rate, rounded down to the cent (rates have 6 decimals).
    const cents = (currency: 'HKD' | 'USD') =>
      Math.floor((3_333_333 * 1_000_000) / Math.round(cnyPer[currency] * 1_000_000)) / 100;
    expect(made.startingCash).toEqual({ CNY: 33_333.35, HKD: cents('HKD'), USD: cents('USD') });
    const inYuan = made.startingCash.HKD * cnyPer.HKD + made.startingCash.USD * cnyPer.USD;
    expect(33_333.35 + inYuan).toBeLessThanOrEqual(100_000.01);
    expect(33_333.35 + inYuan).toBeGreaterThan(100_000.01 - 0.02 * Math.max(cnyPer.HKD, cnyPer.USD));

    // Futures and indexes trade in yuan: with A-shares they are one currency, so it all goes to CNY.
    const yuanOnly = data(
      await creator.client.post<Competition>(
        '/user/competition/create.do',
        terms({
          startingCash: 50_000,
          startingCashUsd: undefined,
          cashInCny: true,
          markets: 'a,futures,index',
        }),
      ),
    );
    expect(yuanOnly.startingCash).toEqual({ CNY: 50_000, HKD: 0, USD: 0 });
    // Edit converts again, with the markets edited.
    const edited = data(
      await creator.client.post<Competition>('/user/competition/edit.do', {
        ...terms({ startingCash: 20_000, startingCashUsd: undefined, cashInCny: true, markets: 'us' }),
        id: yuanOnly.id,
      }),
    );
    expect(edited.startingCash).toEqual({ CNY: 0, HKD: 0, USD: Math.floor(2_000_000 / cnyPer.USD) / 100 });

    // The entrant's accounts open with the converted amounts, through the ledger (afterEach checks it).
    const player = await register(client);
    data(await player.client.post('/user/competition/join.do', { id: made.id, requestId: newRequestId() }));
    const accounts = data(
      await player.client.get<CompetitionAccount[]>('/user/competition/accounts.do', { id: made.id }),
    );
    expect(accounts.map((a) => [a.currency, a.balance])).toEqual([
      ['CNY', 33_333.35],
      ['HKD', cents('HKD')],
      ['USD', cents('USD')],
    ]);
  });

  it('refuses cashInCny with amounts per currency too, or too little to share, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await station.app.db
            .selectFrom('competitions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const both = failure(
      await creator.client
        .withLang('en')
        .post('/user/competition/create.do', terms({ cashInCny: true, startingCashUsd: 10 })),
    );
    expect(both).toMatchObject({
      code: 'VALIDATION',
      msg: 'With one amount in yuan, give no HK dollar or US dollar amounts',
      fields: { startingCashUsd: expect.any(String) },
    });
    const tiny = failure(
      await creator.client
        .withLang('zh-CN')
        .post(
          '/user/competition/create.do',
          terms({ startingCash: 0.02, startingCashUsd: undefined, cashInCny: true, markets: 'a,hk,us' }),
        ),
    );
    expect(tiny).toMatchObject({
      code: 'VALIDATION',
      msg: '初始资金太少，无法在所允许市场的各币种之间平均分配',
      fields: { startingCash: expect.any(String) },
    });
    const notBoolean = failure(
      await creator.client.post('/user/competition/create.do', terms({ cashInCny: 'maybe' })),
    );
    expect(notBoolean.code).toBe('VALIDATION');
    expect(await count()).toBe(before);
  });
});
