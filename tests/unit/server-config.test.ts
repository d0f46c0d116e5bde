import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkProductSettings,
  ConfigError,
  DEFAULT_MARKET_SEED,
  DEFAULT_SETTINGS,
  loadConfig,
  type Settings,
} from '../../server/config';

describe('station settings', () => {
  it('has the embedded-mode defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: null,
      sqlitePath: path.resolve('data', 'paperdesk.sqlite'),
      redisUrl: null,
      clockMode: 'real',
      marketSeed: DEFAULT_MARKET_SEED,
      smsGateway: 'demo',
      ordersNeedKyc: true,
      reviewDelaySeconds: 5,
      staticDir: path.resolve('dist'),
    });
    expect(config.settings.startingBalances).toEqual({
      main: 1_000_000,
      index: 0,
      newstock: 0,
      hk: 100_000,
      us: 100_000,
    });
    expect(config.settings.leverage).toMatchObject({ a: [1, 2, 3, 5, 10], hk: [1, 2, 5], us: [1, 2, 5] });
    expect(config.settings.liquidationLine).toBe(1.05);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/pd',
      DATABASE_URL: 'postgres://u@db:5432/pd',
      REDIS_URL: 'redis://cache:6379',
      CLOCK_MODE: 'always-open',
      MARKET_SEED: 'class-7b',
      SMS_GATEWAY: 'console',
      ORDERS_NEED_KYC: 'false',
      REVIEW_DELAY_S: '0',
      STATIC_DIR: '/srv/app',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      sqlitePath: '/tmp/pd/paperdesk.sqlite',
      databaseUrl: 'postgres://u@db:5432/pd',
      redisUrl: 'redis://cache:6379',
      clockMode: 'always-open',
      marketSeed: 'class-7b',
      smsGateway: 'console',
      ordersNeedKyc: false,
      reviewDelaySeconds: 0,
      staticDir: '/srv/app',
    });
  });

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://x@y/z', /DATABASE_URL must start with postgres/],
    ['REDIS_URL', 'not a url', /REDIS_URL/],
    ['CLOCK_MODE', 'sometimes', /CLOCK_MODE must be one of real, always-open/],
    ['SMS_GATEWAY', 'twilio', /SMS_GATEWAY/],
    ['ORDERS_NEED_KYC', 'maybe', /ORDERS_NEED_KYC must be true or false/],
    ['REVIEW_DELAY_S', '-1', /REVIEW_DELAY_S/],
  ])('refuses a bad %s (%s) with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('gives each config its own copy of the settings', () => {
    const config = loadConfig({});
    config.settings.liquidationLine = 2;
    expect(DEFAULT_SETTINGS.liquidationLine).toBe(1.05);
  });

  it('has the products’ terms among the settings, DOMAIN.md’s 0.1%/day allocation fee by default', () => {
    const { products } = loadConfig({}).settings;
    expect(products.allocation.types.find((t) => t.code === 'days')?.dailyFeeRate).toBe(0.001);
    expect(products.allocation).toMatchObject({ minMargin: 1_000, maxMargin: 1_000_000, marginStep: 100 });
    expect(products.blockTrades).toMatchObject({ offersPerDay: 8, priceCap: 100 });
    expect(products.vip).toMatchObject({ picksPerDay: 4, maxLotsPerUserChoices: [5, 10, 20] });
    expect(products.newShares).toMatchObject({ shareOdds: 0.2, bondOdds: 0.1, listAheadDays: 14 });
    expect(() => checkProductSettings(DEFAULT_SETTINGS)).not.toThrow();
  });

  it.each<[string, (s: Settings) => void, RegExp]>([
    ['no VIP caps', (s) => (s.products.vip.maxLotsPerUserChoices = []), /vip.maxLotsPerUserChoices/],
    ['a reversed discount', (s) => (s.products.blockTrades.discountPercent = { min: 9, max: 3 }), /discount/],
    ['a window past midnight', (s) => (s.products.blockTrades.windows = [[600, 1500]]), /windows\[0\]/],
    ['a minimum above the largest order', (s) => (s.products.blockTrades.minLotsChoices = [500]), /minLots/],
    ['odds above 1', (s) => (s.products.newShares.shareOdds = 1.5), /newShares.shareOdds/],
    ['a negative fee', (s) => (s.products.allocation.types[0]!.dailyFeeRate = -0.001), /dailyFeeRate/],
    ['a fund fee above half', (s) => (s.products.funds.terms.default.redeemFeeRate = 0.9), /redeemFeeRate/],
  ])('refuses product terms with %s, naming the setting', (_, edit, message) => {
    const settings = structuredClone(DEFAULT_SETTINGS);
    edit(settings);
    expect(() => checkProductSettings(settings)).toThrow(ConfigError);
    expect(() => checkProductSettings(settings)).toThrow(message);
  });
});
