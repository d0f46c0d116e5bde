import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MARKET_SEED, DEFAULT_SETTINGS, loadConfig } from '../../server/config';

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
});
