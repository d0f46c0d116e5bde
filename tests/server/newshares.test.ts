/**
 * New-share and new-bond subscription over HTTP with a pinned clock, on SQLite and PostgreSQL:
 * the calendar from MARKET_SEED, subscribing in the window, the verifiable draw (the seed's hash published
 * before, the seed after, the winners recomputed here by an independent implementation on node:crypto),
 * paying a win, forfeiting an unpaid one at the deadline, chip-grab placement sold exactly once, and on
 * listing the paid lots becoming a position that sells like any other. Every state change happens at a
 * pinned instant by stepping the engine, and each event runs once however often it is stepped.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewIssue, NewShareSubscription } from '../../src/shared/api/newshares';
import type { LedgerEntry, Page, Position, User } from '../../src/shared/api/types';
import { toMinor } from '../../src/shared/money';
import { FixedClock } from '../../server/market/clock';
import { calendarOf, type CalendarIssue } from '../../server/products/new-share-calendar';
import { NUMBER_BASE, runDueNewShareEvents } from '../../server/products/new-shares';
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

const MINUTE = 60_000;

/**
 * The draw as its documentation states it, written again from the text on node:crypto: a word stream of
 * SHA-256(seed ‖ block index), rejection sampling, a partial Fisher–Yates shuffle of the sorted numbers.
 */
function recomputeWinners(seedHex: string, numbers: number[], winners: number): number[] {
  const seed = Buffer.from(seedHex, 'hex');
  const words: number[] = [];
  let block = 0;
  const nextWord = () => {
    if (words.length === 0) {
      const index = Buffer.alloc(4);
      index.writeUInt32BE(block++);
      const digest = createHash('sha256')
        .update(Buffer.concat([seed, index]))
        .digest();
      for (let i = 0; i < 32; i += 4) words.push(digest.readUInt32BE(i));
    }
    return words.shift()!;
  };
  const below = (n: number) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const w = nextWord();
      if (w < limit) return w % n;
    }
  };
  const a = [...numbers].sort((x, y) => x - y);
  const count = Math.min(winners, a.length);
  for (let k = 0; k < count; k++) {
    const j = k + below(a.length - k);
    const t = a[k]!;
    a[k] = a[j]!;
    a[j] = t;
  }
  return a.slice(0, count).sort((x, y) => x - y);
}

const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

for (const db of dbTargets) {
  describe(`new shares (${db})`, () => {
    let station: TestStation<FixedClock>;
    let client: ApiClient;
    let calendar: readonly CalendarIssue[];

    beforeAll(async () => {
      station = await startStation({ db, clock: new FixedClock(T0) });
      client = api(station.url);
      calendar = calendarOf(station.app.market).list;
    });
    afterAll(async () => {
      await station?.assertLedger();
      await station?.close();
    });

    /** The n-th share issue whose subscription opens after `after`. */
    function nextIssue(after: number, n = 0, type: 'share' | 'bond' = 'share'): CalendarIssue {
      const issue = calendar.filter((i) => i.type === type && i.subscribeOpensAt > after)[n];
      if (!issue) throw new Error('no issue in the calendar');
      return issue;
    }

    async function stepTo(t: number) {
      station.clock.set(t);
      return station.app.engine.step();
    }

    async function issueView(user: Registered, code: string): Promise<NewIssue> {
      const page = data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { code }));
      expect(page.list).toHaveLength(1);
      return page.list[0]!;
    }

    async function mine(user: Registered, code: string): Promise<NewShareSubscription> {
      const page = data(
        await user.client.get<Page<NewShareSubscription>>('/user/getOneSubscribeByUserId.do', {
          code,
          kind: 'lottery',
        }),
      );
      expect(page.list).toHaveLength(1);
      return page.list[0]!;
    }

    async function fundNewstock(user: Registered, amount: number) {
      data(
        await user.client.post('/user/transAmt.do', {
          amount,
          from: 'main',
          to: 'newstock',
          requestId: newRequestId(),
        }),
      );
    }

    const newstockOf = async (user: Registered) =>
      data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find((a) => a.type === 'newstock')!;

    it('generates the same calendar from MARKET_SEED, with shares and bonds around the pinned present', async () => {
      const other = await startStation({ db: 'sqlite', clock: new FixedClock(T0) });
      try {
        const again = calendarOf(other.app.market).list;
        expect(again.map((i) => [i.code, i.subscribeDate, i.issuePrice])).toEqual(
          calendar.map((i) => [i.code, i.subscribeDate, i.issuePrice]),
        );
      } finally {
        await other.close();
      }
      expect(calendar.some((i) => i.type === 'bond' && i.subscribeOpensAt > T0)).toBe(true);
      const user = await register(client);
      const list = data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { pageSize: 100 }));
      expect(list.total).toBeGreaterThan(5);
      const phases = new Set(list.list.map((i) => i.phase));
      expect(phases.has('upcoming') || phases.has('subscribing')).toBe(true);
      for (const issue of list.list) {
        expect(issue.subscribeDate < issue.drawDate && issue.drawDate < issue.listingDate).toBe(true);
        expect(issue.draw.seedHash).toMatch(/^[0-9a-f]{64}$/);
        if (issue.phase === 'upcoming' || issue.phase === 'subscribing') expect(issue.draw.seed).toBeNull();
      }
      // Newest online issue date first.
      const dates = list.list.map((i) => i.subscribeDate);
      expect([...dates].sort().reverse()).toEqual(dates);
      expect(
        data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { type: 'bond' })).list.every(
          (i) => i.type === 'bond' && i.pe === null && i.issuePrice === 100,
        ),
      ).toBe(true);
    });

    it('refuses subscriptions outside the window, above the cap, twice, or for an unknown code', async () => {
      const issue = nextIssue(T0, 0);
      const user = await register(client);
      station.clock.set(issue.subscribeOpensAt - MINUTE);
      const early = await user.client
        .withLang('en')
        .post('/user/add.do', { code: issue.code, lots: 1, requestId: newRequestId() });
      expect(early.http).toBe(409);
      expect(failure(early)).toMatchObject({
        code: 'OUTSIDE_TRADING_HOURS',
        msg: expect.stringContaining(issue.subscribeDate),
      });

      station.clock.set(issue.subscribeOpensAt + MINUTE);
      const before = await station.counts();
      for (const lots of [0, issue.perUserCap + 1, 1.5, 'x']) {
        const res = await user.client.post('/user/add.do', {
          code: issue.code,
          lots,
          requestId: newRequestId(),
        });
        expect(res.http).toBe(400);
        expect(failure(res).code).toBe('VALIDATION');
      }
      const unknown = await user.client.post('/user/add.do', {
        code: '999999',
        lots: 1,
        requestId: newRequestId(),
      });
      expect(failure(unknown)).toMatchObject({ code: 'NOT_FOUND' });
      expect(await station.counts()).toEqual(before);

      const requestId = newRequestId();
      const first = data(
        await user.client.post<NewShareSubscription>('/user/add.do', {
          code: issue.code,
          lots: 2,
          requestId,
        }),
      );
      expect(first).toMatchObject({
        state: 'subscribed',
        lots: 2,
        shares: 200,
        kind: 'lottery',
        wonLots: null,
      });
      expect(first.lastNumber! - first.firstNumber!).toBe(1);
      // The same requestId answers the first call again; a new one is refused: one subscription per issue.
      expect(data(await user.client.post('/user/add.do', { code: issue.code, lots: 2, requestId }))).toEqual(
        first,
      );
      const twice = await user.client.post('/user/add.do', {
        code: issue.code,
        lots: 1,
        requestId: newRequestId(),
      });
      expect(failure(twice)).toMatchObject({ code: 'ALREADY_DONE' });
      // No money moves on subscribing.
      expect((await newstockOf(user)).balance).toBe(0);

      station.clock.set(issue.subscribeClosesAt);
      const late = await user.client.post('/user/add.do', {
        code: issue.code,
        lots: 1,
        requestId: newRequestId(),
      });
      expect(failure(late)).toMatchObject({ code: 'OUTSIDE_TRADING_HOURS' });
      // Not won yet: nothing to pay.
      const early2 = await user.client.post('/user/submitSubscribe.do', {
        id: first.id,
        requestId: newRequestId(),
      });
      expect(failure(early2)).toMatchObject({ code: 'ALREADY_DONE' });
    });

    it('draws verifiably: hash before, seed after, winners recomputed from the seed and the numbers', async () => {
      const issue = nextIssue(T0, 1);
      station.clock.set(issue.subscribeOpensAt + MINUTE);
      const users: Registered[] = [];
      // One lot each, two more numbers than the draw gives out: exactly two subscriptions cannot win.
      for (let i = 0; i < issue.onlineLots + 2; i++) users.push(await register(client));
      // All at once: the issue row is locked, so the numbers are distinct and consecutive.
      const subscribed = await Promise.all(
        users.map(async (user) =>
          data(
            await user.client.post<NewShareSubscription>('/user/add.do', {
              code: issue.code,
              lots: 1,
              requestId: newRequestId(),
            }),
          ),
        ),
      );
      expect(subscribed.map((s) => s.firstNumber).sort()).toEqual(
        Array.from({ length: users.length }, (_, i) => NUMBER_BASE + i),
      );
      const open = await issueView(users[0]!, issue.code);
      expect(open).toMatchObject({ phase: 'subscribing' });
      expect(open.draw).toMatchObject({
        seed: null,
        winningNumbers: null,
        numbersCount: issue.onlineLots + 2,
      });
      const published = open.draw.seedHash;

      await stepTo(issue.subscribeClosesAt + MINUTE);
      expect(await issueView(users[0]!, issue.code)).toMatchObject({ phase: 'awaiting_draw' });
      await stepTo(issue.drawAt - MINUTE);
      expect((await mine(users[0]!, issue.code)).state).toBe('subscribed');

      await stepTo(issue.drawAt);
      const drawn = await issueView(users[0]!, issue.code);
      expect(drawn.phase).toBe('drawn');
      expect(drawn.draw.seedHash).toBe(published);
      const seed = drawn.draw.seed!;
      expect(sha256Hex(seed)).toBe(published);
      // The seed is the station secret's HMAC of the code: fixed before anyone subscribed.
      const secret = await station.app.db
        .selectFrom('station_secrets')
        .select('value')
        .where('name', '=', 'newshare_draw')
        .executeTakeFirstOrThrow();
      expect(
        createHmac('sha256', Buffer.from(secret.value, 'hex'))
          .update(`newshare-draw:${issue.code}`)
          .digest('hex'),
      ).toBe(seed);
      const numbers = Array.from({ length: drawn.draw.numbersCount }, (_, i) => drawn.draw.numbersFrom + i);
      expect(drawn.draw.numbersFrom).toBe(NUMBER_BASE);
      const winners = recomputeWinners(seed, numbers, issue.onlineLots);
      expect(winners).toHaveLength(issue.onlineLots);
      expect(drawn.draw.winningNumbers).toEqual(winners);
      expect(drawn.draw.winnersCount).toBe(issue.onlineLots);

      const states: string[] = [];
      for (const user of users) {
        const s = await mine(user, issue.code);
        const won = winners.includes(s.firstNumber!);
        expect(s).toMatchObject({
          state: won ? 'winning' : 'not_winning',
          wonLots: won ? 1 : 0,
          winningNumbers: won ? [s.firstNumber] : [],
          amountDue: won ? toMinor(issue.issuePrice * 100) / 100 : 0,
          drawnAt: issue.drawAt,
        });
        states.push(s.state);
      }
      expect(states.filter((s) => s === 'not_winning')).toHaveLength(2);
      // Stepping again changes nothing: the draw ran once.
      const again = await stepTo(issue.drawAt + MINUTE);
      expect(again).toBeDefined();
      expect((await issueView(users[0]!, issue.code)).draw.winningNumbers).toEqual(winners);
      const messages = data(
        await users[0]!.client.get<{ list: { title: string }[] }>('/user/cash/getMessagelist.do'),
      );
      expect(messages.list.length).toBeGreaterThan(0);
    });

    it('pays a win before the deadline, forfeits an unpaid one, lists the paid lots as a sellable position', async () => {
      const issue = nextIssue(T0, 2);
      station.clock.set(issue.subscribeOpensAt + MINUTE);
      const payer = await register(client);
      const idle = await register(client);
      const lots = Math.min(issue.perUserCap, issue.onlineLots - 1);
      const a = data(
        await payer.client.post<NewShareSubscription>('/user/add.do', {
          code: issue.code,
          lots,
          requestId: newRequestId(),
        }),
      );
      const b = data(
        await idle.client.post<NewShareSubscription>('/user/add.do', {
          code: issue.code,
          lots: 1,
          requestId: newRequestId(),
        }),
      );
      // Every number wins when the draw gives out at least as many lots as were subscribed.
      await stepTo(issue.drawAt);
      const won = await mine(payer, issue.code);
      expect(won).toMatchObject({ state: 'winning', wonLots: lots });
      const due = toMinor(issue.issuePrice * lots * 100);
      expect(toMinor(won.amountDue)).toBe(due);
      expect((await mine(idle, issue.code)).state).toBe('winning');

      // The newstock account starts empty: paying needs funds moved there first.
      const broke = await payer.client.post('/user/submitSubscribe.do', {
        id: a.id,
        requestId: newRequestId(),
      });
      expect(failure(broke)).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      await fundNewstock(payer, due / 100 + 1000);
      const requestId = newRequestId();
      const paid = data(
        await payer.client.post<NewShareSubscription>('/user/submitSubscribe.do', { id: a.id, requestId }),
      );
      expect(paid).toMatchObject({ state: 'paid', amountPaid: won.amountDue });
      expect(data(await payer.client.post('/user/submitSubscribe.do', { id: a.id, requestId }))).toEqual(
        paid,
      );
      expect(toMinor((await newstockOf(payer)).balance)).toBe(100_000);
      const flow = data(
        await payer.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'newstock', pageSize: 1 }),
      );
      expect(flow.list[0]).toMatchObject({
        type: 'buy',
        amount: -due / 100,
        refType: 'newshare',
        refId: a.id,
      });
      // Someone else's subscription is not found.
      expect(
        failure(await idle.client.post('/user/submitSubscribe.do', { id: a.id, requestId: newRequestId() })),
      ).toMatchObject({ code: 'NOT_FOUND' });

      await stepTo(issue.payDeadline - MINUTE);
      expect((await mine(idle, issue.code)).state).toBe('winning');
      await stepTo(issue.payDeadline);
      expect((await mine(idle, issue.code)).state).toBe('abandoned');
      await fundNewstock(idle, 100_000);
      const tooLate = await idle.client.post('/user/submitSubscribe.do', {
        id: b.id,
        requestId: newRequestId(),
      });
      expect(failure(tooLate)).toMatchObject({ code: 'ALREADY_DONE' });
      const records = data(await idle.client.get<Page<NewShareSubscription>>('/user/getzqjl.do'));
      expect(records.list.map((r) => r.state)).toEqual(['abandoned']);

      // Not listed a minute early; at the listing the paid lots are a position in the newstock account.
      await stepTo(issue.listingAt - MINUTE);
      expect((await mine(payer, issue.code)).state).toBe('paid');
      // Two engines at the listing instant: the listing still happens once.
      await Promise.all([
        runDueNewShareEvents(station.app.station, issue.listingAt),
        runDueNewShareEvents(station.app.station, issue.listingAt),
      ]);
      await stepTo(issue.listingAt);
      const listed = await mine(payer, issue.code);
      expect(listed).toMatchObject({ state: 'listed', listedAt: issue.listingAt });
      const open = data(await payer.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }));
      expect(open.list).toHaveLength(1);
      const position = open.list[0]!;
      expect(position).toMatchObject({
        id: listed.positionId,
        code: issue.code,
        lots,
        shares: lots * 100,
        leverage: 1,
        openPrice: issue.issuePrice,
        buyFee: 0,
        openedAt: issue.listingAt,
      });
      expect(toMinor(position.margin)).toBe(due);
      expect(toMinor((await newstockOf(payer)).frozenMargin)).toBe(due);
      expect(
        (await station.app.db.selectFrom('positions').select('id').where('code', '=', issue.code).execute())
          .length,
      ).toBe(1);

      // It sells like any position (always-open clock), back into the newstock account; then it is closed.
      station.clock.set(issue.listingAt + 30 * MINUTE);
      const sold = data(
        await payer.client.post<Position>('/user/sell.do', {
          positionId: position.id,
          requestId: newRequestId(),
        }),
      );
      expect(sold.closedAt).not.toBeNull();
      expect((await mine(payer, issue.code)).state).toBe('closed');
      await station.assertLedger();
    });

    it('sells chip-grab placement lots first come first served, exactly the placement, paid at once', async () => {
      const issue = nextIssue(T0, 0, 'bond');
      station.clock.set(issue.subscribeOpensAt + MINUTE);
      const open = data(
        await (await register(client)).client.get<NewIssue[]>('/user/newStockQc.do', { type: 'bond' }),
      );
      expect(open.map((i) => i.code)).toContain(issue.code);
      const buyers: Registered[] = [];
      const wanted = Math.ceil(issue.placementLots / issue.perUserCap) + 2;
      for (let i = 0; i < wanted; i++) {
        const user = await register(client);
        await fundNewstock(user, 200_000);
        buyers.push(user);
      }
      const answers = await Promise.all(
        buyers.map((user) =>
          user.client.post<NewShareSubscription>('/user/buyNewStockQc.do', {
            code: issue.code,
            lots: issue.perUserCap,
            requestId: newRequestId(),
          }),
        ),
      );
      const sold = answers.filter((r) => r.http === 200).map((r) => data(r));
      const refused = answers.filter((r) => r.http !== 200).map((r) => failure(r));
      expect(sold.length * issue.perUserCap).toBeLessThanOrEqual(issue.placementLots);
      expect(refused.every((f) => f.code === 'ABOVE_MAXIMUM')).toBe(true);
      for (const s of sold) {
        expect(s).toMatchObject({
          kind: 'placement',
          state: 'paid',
          wonLots: issue.perUserCap,
          price: issue.placementPrice,
        });
        expect(toMinor(s.amountPaid)).toBe(toMinor(issue.placementPrice * issue.perUserCap * 100));
      }
      const view = await issueView(buyers[0]!, issue.code);
      expect(view.placementLeft).toBe(issue.placementLots - sold.length * issue.perUserCap);
      // The rest is there for whoever asks for at most what is left.
      if (view.placementLeft > 0) {
        const last =
          refused.length > 0 ? buyers[answers.findIndex((r) => r.http !== 200)]! : await register(client);
        data(
          await last.client.post('/user/buyNewStockQc.do', {
            code: issue.code,
            lots: view.placementLeft,
            requestId: newRequestId(),
          }),
        );
      }
      expect((await issueView(buyers[0]!, issue.code)).placementLeft).toBe(0);
      expect(
        data(await buyers[0]!.client.get<NewIssue[]>('/user/newStockQc.do')).map((i) => i.code),
      ).not.toContain(issue.code);
      await station.assertLedger();

      // On listing every placement becomes a position.
      await stepTo(issue.listingAt);
      const rows = await station.app.db
        .selectFrom('newshare_subscriptions')
        .select(['state', 'position_id'])
        .where('code', '=', issue.code)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.state === 'listed' && r.position_id !== null)).toBe(true);
    });
  });
}
