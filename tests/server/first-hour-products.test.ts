/**
 * Products a newcomer can try (over real HTTP, SQLite and PostgreSQL):
 * - in always-open mode a new-share issue is in its subscription window at any hour (a Sunday night too),
 *   the same issue for a day whenever the station started, and a user subscribes to it; real calendars
 *   keep only the generated calendar;
 * - the VIP permission is requested from the app and granted by the rule reviewer REVIEW_DELAY_S later
 *   (audited), unless VIP_PERMISSION=operator leaves it to the operator; other permissions cannot be
 *   requested, and a refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewIssue, NewShareSubscription } from '../../src/shared/api/newshares';
import type { Page } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { calendarOf } from '../../server/products/new-share-calendar';
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
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Sunday 2025-03-16 23:30 UTC: no A-share session anywhere near, on the real calendar. */
const SUNDAY_NIGHT = Date.UTC(2025, 2, 16, 23, 30);

interface Permissions {
  permissions: string[];
  requested: string[];
}

describe.each(dbTargets)('products a newcomer can try (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, env: { REVIEW_DELAY_S: '5' } });
    client = api(station.url);
  });
  afterAll(async () => {
    await station?.assertLedger();
    await station?.close();
  });

  it('always has a new-share issue subscribing in always-open mode, and a user subscribes to it', async () => {
    const user = await register(client);
    for (const t of [T0, SUNDAY_NIGHT, T0 + 5 * DAY + 13 * HOUR]) {
      station.clock.set(t);
      const list = data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { pageSize: 50 }));
      const open = list.list.filter((i) => i.phase === 'subscribing');
      expect(open.length).toBeGreaterThan(0);
      for (const issue of open) expect(issue.subscribeOpensAt <= t && t < issue.subscribeClosesAt).toBe(true);
    }
    station.clock.set(SUNDAY_NIGHT);
    const list = data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { pageSize: 50 }));
    const issue = list.list.find((i) => i.phase === 'subscribing' && i.type === 'share')!;
    const subscription = data(
      await user.client.post<NewShareSubscription>('/user/add.do', {
        code: issue.code,
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    expect(subscription).toMatchObject({ code: issue.code, state: 'subscribed', lots: 1 });
    station.clock.set(T0);
  });

  it('keeps each day’s always-open issue the same when the station starts on a later day', async () => {
    const later = await startStation({ db: 'sqlite', clock: new FixedClock(T0 + 3 * DAY) });
    try {
      const issuesOf = (s: TestStation<FixedClock>) =>
        new Map(
          calendarOf(s.app.market)
            .list.filter((i) => i.code.startsWith('002'))
            .map((i) => [i.subscribeDate, `${i.code} ${i.name} ${i.issuePrice}`]),
        );
      const first = issuesOf(station);
      const second = issuesOf(later);
      const shared = [...second.keys()].filter((date) => first.has(date));
      expect(shared.length).toBeGreaterThan(100);
      for (const date of shared) expect(second.get(date)).toBe(first.get(date));
    } finally {
      await later.close();
    }
  });

  it('keeps only the generated calendar on real calendars', async () => {
    const real = await startStation({ db: 'sqlite', env: { CLOCK_MODE: 'real' } });
    try {
      const list = calendarOf(real.app.market).list;
      expect(list.length).toBeGreaterThan(10);
      expect(list.some((i) => i.code.startsWith('002'))).toBe(false);
      // Sunday night has nothing subscribing there.
      expect(list.some((i) => i.subscribeOpensAt <= SUNDAY_NIGHT && SUNDAY_NIGHT < i.subscribeClosesAt)).toBe(
        false,
      );
    } finally {
      await real.close();
    }
  });

  it('grants a requested VIP permission after REVIEW_DELAY_S, audited as the reviewer', async () => {
    const user = await register(client);
    const permissions = async () => data(await user.client.get<Permissions>('/user/getPermissions.do'));
    expect(await permissions()).toEqual({ permissions: [], requested: [] });

    // Only the VIP permission can be asked for: anything else is refused and writes nothing.
    for (const permission of ['bank_change', 'block_trade', '', 'vip']) {
      const refused = await user.client.withLang('en').post('/user/requestPermission.do', { permission });
      expect(refused.http).toBe(400);
      expect(failure(refused).code).toBe('VALIDATION');
    }
    expect(await permissions()).toEqual({ permissions: [], requested: [] });

    const asked = data(
      await user.client.post<{ status: string }>('/user/requestPermission.do', { permission: 'vip_picks' }),
    );
    expect(asked).toEqual({ status: 'pending' });
    expect(await permissions()).toEqual({ permissions: [], requested: ['vip_picks'] });
    // Asked again while waiting: still one request.
    expect(data(await user.client.post('/user/requestPermission.do', { permission: 'vip_picks' }))).toEqual({
      status: 'pending',
    });

    // Not before the delay.
    station.clock.set(T0 + 4_000);
    await station.app.kycReviewer.run();
    expect(await permissions()).toEqual({ permissions: [], requested: ['vip_picks'] });

    station.clock.set(T0 + 5_000);
    await station.app.kycReviewer.run();
    expect(await permissions()).toEqual({ permissions: ['vip_picks'], requested: [] });
    const audit = await station.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .where('action', '=', 'permission.grant')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'reviewer' });
    // Holding it, a request answers granted and adds nothing.
    expect(data(await user.client.post('/user/requestPermission.do', { permission: 'vip_picks' }))).toEqual({
      status: 'granted',
    });
    expect(await permissions()).toEqual({ permissions: ['vip_picks'], requested: [] });
    station.clock.set(T0);
  });
});

describe.each(dbTargets)('VIP_PERMISSION=operator (%s)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db, env: { VIP_PERMISSION: 'operator', REVIEW_DELAY_S: '5' } });
  });
  afterAll(async () => station?.close());

  it('leaves the request to the operator, whose grant decides it', async () => {
    const user = await register(api(station.url));
    const permissions = async () => data(await user.client.get<Permissions>('/user/getPermissions.do'));
    expect(data(await user.client.post('/user/requestPermission.do', { permission: 'vip_picks' }))).toEqual({
      status: 'pending',
    });
    station.clock.set(T0 + DAY);
    await station.app.kycReviewer.run();
    expect(await permissions()).toEqual({ permissions: [], requested: ['vip_picks'] });

    const known = await runOperatorCommand(
      station.app.station,
      'grant',
      [String(user.user.id), 'vip_picks', '--reason', 'asked in the app'],
      () => undefined,
      'tester',
    );
    expect(known).toBe(true);
    expect(await permissions()).toEqual({ permissions: ['vip_picks'], requested: [] });
  });
});
