import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductSetting, ReplayInfo } from '../../src/shared/api/types';
import type { TradingRules } from '../../src/shared/trading-rules';
import { api, data, dbTargets, failure, startStation, type TestStation } from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

describe.each(dbTargets)('display settings call (%s)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db });
  });
  afterAll(async () => station?.close());

  it('sends the four display flags of the server settings without a session', async () => {
    const settings = data(
      await api(station.url).get<
        ProductSetting & {
          trading: TradingRules;
          registration: { inviteCodeRequired: boolean };
          replay: ReplayInfo | null;
        }
      >('/api/admin/getProductSetting.do'),
    );
    const { trading, registration, replay, ...flags } = settings;
    // A simulation replays nothing (tests/server/replay.test.ts: a replay says what it replays).
    expect(replay).toBeNull();
    expect(flags).toEqual({
      futuresDisplay: true,
      indexDisplay: true,
      kcStockDisplay: true,
      stockDisplay: true,
    });
    // Beside the flags, the trading rules the order screens compute with, from the same settings.
    expect(trading.leverage).toEqual(station.config.settings.leverage);
    expect(trading.fees).toEqual(station.config.settings.fees);
    expect(trading.sharesPerLot.hk).toBeNull();
    // INVITE_CODE is optional by default: the registration form marks the invitation code optional.
    expect(registration).toEqual({ inviteCodeRequired: false });
  });

  it('follows the settings object: a flag turned off there is off in the answer', async () => {
    const before = { ...station.config.settings.productDisplay };
    try {
      station.config.settings.productDisplay.futuresDisplay = false;
      station.config.settings.productDisplay.kcStockDisplay = false;
      expect(
        data(await api(station.url).get<ProductSetting>('/api/admin/getProductSetting.do')),
      ).toMatchObject({
        futuresDisplay: false,
        indexDisplay: true,
        kcStockDisplay: false,
        stockDisplay: true,
      });
    } finally {
      station.config.settings.productDisplay = before;
    }
  });

  it('refuses a POST with a translated NOT_FOUND and stays answerable', async () => {
    const res = await api(station.url).withLang('th').post('/api/admin/getProductSetting.do', {});
    expect(failure(res)).toMatchObject({ status: 404, code: 'NOT_FOUND', msg: 'ไม่พบข้อมูลที่ต้องการ' });
    data(await api(station.url).get('/api/admin/getProductSetting.do'));
  });
});
