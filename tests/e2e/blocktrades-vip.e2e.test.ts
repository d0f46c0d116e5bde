/**
 * Block trades and VIP picks in Chromium at 390×844 against a station with a pinned clock (Wednesday
 * 10:00 in Shanghai, always-open): buy a block trade from today's offers and find it among the user's block
 * trades; try a VIP pick without the VIP permission (the station's message on screen, nothing bought), then
 * grant the permission with the operator command and buy it.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { runOperatorCommand } from '../../server/cli/commands';
import { FixedClock } from '../../server/market/clock';
import type { BlockTradeOffer, BlockTradeRecord, VipPick, VipPurchase } from '../../src/shared/api/dzvip';
import type { Page as ListPage } from '../../src/shared/api/types';
import { openAs as openPhoneAs, stationClient, type E2eSession as Session } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC: 10:00 in Shanghai, inside the first offers' windows. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);

let app: FastifyInstance;
let url: string;
const clock = new FixedClock(T0);

// Real calendars: the offers' own windows show (in always-open mode each is open all day).
const e2e = stationForFile({ CLOCK_MODE: 'real' }, { clock }, (station) => {
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
const registerUser = () => client.registerUser('1380017');
const openAs = (session: Session) => openPhoneAs(e2e.browser, session);

describe('block trades and VIP picks in Chromium at 390×844', () => {
  it('buys a block trade from today’s offers and finds it among the user’s block trades', async () => {
    const session = await registerUser();
    const offers = await api<BlockTradeOffer[]>('/api/stock/getDzList.do', null, undefined, 'GET');
    const offer = offers.find((o) => o.status === 'open')!;
    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/sharerecordDz`);
      await page.getByTestId('offer-row').first().waitFor();
      // An offer not open yet cannot be bought.
      const upcoming = offers.find((o) => o.status === 'upcoming')!;
      expect(await page.getByTestId(`buy-${upcoming.code}`).isDisabled()).toBe(true);

      await page.getByTestId(`buy-${offer.code}`).click();
      const sheet = page.getByTestId('block-trade-sheet');
      await sheet.getByTestId('purchase-breakdown').waitFor();
      expect(await sheet.locator('input[name="lots"]').inputValue()).toBe(String(offer.minLots));
      // Below the minimum: the form says so and nothing is sent.
      await sheet.locator('input[name="lots"]').fill(String(offer.minLots - 1));
      await sheet.getByTestId('purchase-submit').click();
      expect(await sheet.getByTestId('error-lots').textContent()).toBe(
        en.errors.DZ_BELOW_MIN_LOTS.replace('{min}', String(offer.minLots)).replace(
          '{{s}}',
          offer.minLots === 1 ? '' : 's',
        ),
      );
      await sheet.locator('input[name="lots"]').fill(String(offer.minLots));
      await sheet.getByTestId('purchase-submit').click();
      await sheet.getByTestId('purchase-done').waitFor();

      const records = await api<ListPage<BlockTradeRecord>>(
        '/user/buyStockDzList.do',
        session.token,
        {},
        'GET',
      );
      expect(records.total).toBe(1);
      expect(records.list[0]).toMatchObject({ code: offer.code, lots: offer.minLots, price: offer.price });
      expect(records.list[0]!.position.sellableFrom).toBeGreaterThan(T0);

      await page.keyboard.press('Escape');
      await page.getByTestId('tab-records').click();
      const row = page.getByTestId('block-trade-record');
      await row.first().waitFor();
      expect(await row.count()).toBe(1);
      expect(await row.first().textContent()).toContain(offer.code);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('refuses a VIP pick without the permission (the message on screen), then buys it once granted', async () => {
    const session = await registerUser();
    const picks = await api<VipPick[]>('/api/stock/getVipList.do', null, undefined, 'GET');
    const pick = picks[0]!;
    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/vipdetail`);
      await page.getByTestId('vip-card').first().waitFor();
      await page.getByTestId('vip-not-granted').waitFor();
      await page.getByTestId(`grab-${pick.code}`).click();
      await page.getByTestId('purchase-form').waitFor();
      await page.getByTestId('purchase-submit').click();
      const message = page.getByTestId('form-error');
      await message.waitFor();
      expect(await message.textContent()).toBe(en.errors.NO_PERMISSION);
      const none = await api<ListPage<VipPurchase>>('/user/vipQcList.do', session.token, {}, 'GET');
      expect(none.total).toBe(0);

      // The back office grants the permission with the operator command.
      const lines: string[] = [];
      await runOperatorCommand(
        app.station,
        'grant',
        [String(session.user.id), 'vip_picks', '--reason', 'e2e VIP client'],
        (l) => lines.push(l),
        'tester',
      );
      expect(lines.join('\n')).toContain('vip_picks');

      await page.reload();
      await page.getByTestId('vip-granted').waitFor();
      await page.getByTestId('purchase-submit').click();
      await page.getByTestId('purchase-done').waitFor();
      const bought = await api<ListPage<VipPurchase>>('/user/vipQcList.do', session.token, {}, 'GET');
      expect(bought.total).toBe(1);
      expect(bought.list[0]).toMatchObject({ code: pick.code, lots: 1, price: pick.price });
      const after = await api<VipPick>('/api/stock/getVipByCode.do', null, { code: pick.code }, 'GET');
      expect(after.soldLots).toBe(pick.soldLots + 1);

      // The search screen finds the allocation.
      await page.goto(`${url}/VipSearchlist`);
      await page.getByTestId('vip-search-input').fill(pick.code);
      await page.getByTestId(`grab-${pick.code}`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
