/**
 * New-share subscription in Chromium at 390×844 against a station with a pinned clock (the engine steps
 * only when the test says so): the calendar → an issue's detail with its published seed hash → subscribe →
 * the draw (the seed published, the winners recomputed in the browser) → pay from the winning records →
 * listing → the lots are a position in /warehouse.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import { calendarOf } from '../../server/products/new-share-calendar';
import type { Page as ListPage, Position } from '../../src/shared/api/types';
import type { NewShareSubscription } from '../../src/shared/api/newshares';
import { openAs as openPhoneAs, stationClient, type E2eSession as Session } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const MINUTE = 60_000;

let app: FastifyInstance;
let url: string;
const clock = new FixedClock(T0);

const e2e = stationForFile({}, { clock }, (station) => {
  ({ app, url } = station);
  client = stationClient(url);
});

let client: ReturnType<typeof stationClient>;
const api = <T>(
  path: string,
  token: string | null,
  body?: Record<string, string | number>,
  method: 'GET' | 'POST' = 'POST',
) => client.call<T>(method, path, token, body);
const registerUser = () => client.registerUser('1380014');
const openAs = (session: Session) => openPhoneAs(e2e.browser, session);

async function step(t: number) {
  clock.set(t);
  await app.engine.step();
}

describe('new share subscription in Chromium at 390×844', () => {
  it('subscribe → the verifiable draw → pay → listing → a position in /warehouse', async () => {
    const issue = calendarOf(app.market).list.find((i) => i.type === 'share' && i.subscribeOpensAt > T0)!;
    expect(issue, 'a share issue after the pinned present').toBeDefined();
    // One subscriber asking for no more lots than the draw gives out: every number wins.
    const lots = Math.min(issue.perUserCap, issue.onlineLots);
    const session = await registerUser();
    await api('/user/transAmt.do', session.token, {
      amount: 200_000,
      from: 'main',
      to: 'newstock',
      requestId: crypto.randomUUID(),
    });
    clock.set(issue.subscribeOpensAt + 5 * MINUTE);
    const { page, errors, close } = await openAs(session);

    await page.goto(`${url}/Subscription?lang=en`);
    const row = page.locator(`[data-testid="issue-row"][data-code="${issue.code}"]`);
    await row.waitFor();
    expect(await row.getByTestId('issue-phase').textContent()).toBe(en.newshares.phase.subscribing);
    await row.locator('a').click();
    await page.waitForURL(new RegExp(`/newsharesDetail\\?code=${issue.code}`));
    const hash = (await page.getByTestId('seed-hash').textContent())!.trim();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.getByTestId('seed').textContent()).toBe(en.newshares.seedPending);

    await page.locator('input[name="lots"]').fill(String(lots));
    await page.getByTestId('subscribe-submit').click();
    await page.getByTestId('subscription-state').waitFor();
    expect(await page.getByTestId('subscription-state').textContent()).toBe(en.newshares.state.subscribed);
    expect(await page.getByTestId('allocation-numbers').textContent()).toMatch(/^\d+/);

    // The same issue's chip-grab placement screen reads the issue and the user's placements (none yet).
    await page.goto(`${url}/qingchouDetail?code=${issue.code}&lang=en`);
    await page.locator('[data-testid="grab-form"], [data-testid="grab-closed"]').first().waitFor();
    expect(await page.getByTestId('placement-left').textContent()).toMatch(/\d/);
    await page.goto(`${url}/newsharesDetail?code=${issue.code}&lang=en`);
    await page.getByTestId('subscription-state').waitFor();

    // The draw on the pinned clock: the seed is published and hashes to what was shown before.
    await step(issue.drawAt);
    await page.reload();
    await page.getByTestId('subscription-state').waitFor();
    expect(await page.getByTestId('subscription-state').textContent()).toBe(en.newshares.state.winning);
    expect(await page.getByTestId('seed-hash').textContent()).toBe(hash);
    expect(await page.getByTestId('seed').textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.getByTestId('recompute').click();
    expect(await page.getByTestId('recompute-result').textContent()).toBe(en.newshares.recomputeOk);

    // Pay from the winning records before the deadline.
    await page.goto(`${url}/zhongqianrecord?lang=en`);
    const record = page.locator(`[data-testid="subscription-row"][data-code="${issue.code}"]`);
    await record.getByTestId('pay-button').click();
    await record.getByTestId('subscription-state').filter({ hasText: en.newshares.state.paid }).waitFor();
    const [paid] = (await api<ListPage<NewShareSubscription>>('/user/getzqjl.do', session.token, {}, 'GET'))
      .list;
    expect(paid).toMatchObject({ code: issue.code, state: 'paid', wonLots: lots });

    // Listing: the paid lots become a position, shown in /warehouse.
    await step(issue.payDeadline);
    await step(issue.listingAt);
    await page.goto(`${url}/sharerecord?lang=en`);
    const listed = page.locator(`[data-testid="subscription-row"][data-code="${issue.code}"]`);
    await listed.getByTestId('subscription-state').filter({ hasText: en.newshares.state.listed }).waitFor();
    await listed.getByTestId('to-position').click();
    await page.waitForURL(/\/warehouse/);
    await page.getByTestId('position-row').filter({ hasText: issue.code }).first().waitFor();
    const open = await api<ListPage<Position>>(
      '/user/position/list.do',
      session.token,
      { state: 'open', pageSize: 100 },
      'GET',
    );
    expect(open.list).toEqual([
      expect.objectContaining({ code: issue.code, lots, shares: lots * 100, openPrice: issue.issuePrice }),
    ]);
    expect(errors).toEqual([]);
    await close();
  });
});
