/** Site calls: the health ping the app's base-URL discovery uses, and the display settings. */
import type { FastifyPluginAsync } from 'fastify';
import type { TradingRules } from '../../../src/shared/trading-rules';
import type { ReplayInfo } from '../../../src/shared/api/types';
import type { ReplaySettings, Settings } from '../../config';
import { replayDate, type ReplayClock } from '../../market';
import { schemaOf } from '../site-settings';
import { inviteCodeRequired } from '../../identity';
import { ok, fields, responses } from '../../platform';

/** The trading rules the app's order screens use: leverage lists, lot limits, fee rates, risk lines. */
function tradingRules(settings: Settings): TradingRules {
  const { lotRules, contractRules } = settings;
  return {
    leverage: settings.leverage,
    maxLots: {
      a: lotRules.a.maxLotsPerOrder,
      star: lotRules.star.maxLotsPerOrder,
      hk: lotRules.hk.maxLotsPerOrder,
      us: lotRules.us.maxLotsPerOrder,
      index: contractRules.index.maxContractsPerOrder,
      futures: contractRules.futures.maxContractsPerOrder,
    },
    sharesPerLot: {
      a: lotRules.a.sharesPerLot,
      star: lotRules.star.sharesPerLot,
      hk: lotRules.hk.sharesPerLot,
      us: lotRules.us.sharesPerLot,
    },
    tradingAccount: settings.tradingAccount,
    shortStocks: settings.shortStocks,
    fees: settings.fees,
    indexMultiplier: settings.indexMultiplier,
    liquidationLine: settings.liquidationLine,
    warningLine: settings.warningLine,
    deferredFeeRate: settings.deferredFeeRate,
    futuresMarginRate: settings.futuresMarginRate,
  };
}

/**
 * schemaOf for the trading rules, where a null is a number the setting leaves out (the board lot's shares
 * per lot, a fee without a minimum or a maximum): such an entry is a number or null.
 */
function rulesSchemaOf(value: unknown): Record<string, unknown> {
  if (value === null) return { type: ['number', 'null'] };
  if (typeof value !== 'object' || Array.isArray(value)) return schemaOf(value);
  const entries = Object.entries(value as Record<string, unknown>);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([k, v]) => [k, rulesSchemaOf(v)])),
    required: entries.map(([k]) => k),
    additionalProperties: false,
  };
}

/** What the station replays, for the app's notice; null in a simulation. */
function replayInfo(clock: ReplayClock | null, settings: ReplaySettings | null): ReplayInfo | null {
  if (!clock || !settings) return null;
  const now = clock.now();
  return {
    from: settings.from,
    date: replayDate(now, settings.offsetMinutes),
    now,
    speed: clock.state.speed,
    paused: clock.state.paused,
    offsetMinutes: settings.offsetMinutes,
  };
}

export const sitePlugin: FastifyPluginAsync<{ version: string }> = async (app, opts) => {
  app.get(
    '/api/index/ping.do',
    {
      // The app's most frequent call (discovery and liveness) answers some 75 bytes, below compression's
      // threshold, and a GET has no body to decompress: @fastify/compress's hooks would only cost it time.
      compress: false,
      decompress: false,
      schema: {
        tags: ['site'],
        summary: 'Is the station there? (status 0 accepted)',
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: { serverTime: { type: 'integer' }, version: { type: 'string' } },
          required: ['serverTime', 'version'],
          additionalProperties: false,
        }),
      },
    },
    async () => ok({ serverTime: app.clock.now(), version: opts.version }),
  );

  const trading = tradingRules(app.config.settings);
  const tradingSchema = rulesSchemaOf(trading);
  app.get(
    '/api/admin/getProductSetting.do',
    {
      schema: {
        tags: ['site'],
        summary:
          'Which product areas the app shows (spec §3 display settings), the trading rules of the order ' +
          'screens (leverage lists, lot limits, fee rates, risk lines) and whether registration needs an ' +
          'invitation code; no session needed',
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: {
            futuresDisplay: { type: 'boolean' },
            indexDisplay: { type: 'boolean' },
            kcStockDisplay: { type: 'boolean' },
            stockDisplay: { type: 'boolean' },
            trading: tradingSchema,
            registration: {
              type: 'object',
              properties: { inviteCodeRequired: { type: 'boolean' } },
              required: ['inviteCodeRequired'],
              additionalProperties: false,
            },
            replay: {
              type: ['object', 'null'],
              properties: {
                from: { type: 'string' },
                date: { type: 'string' },
                now: { type: 'integer' },
                speed: { type: 'number' },
                paused: { type: 'boolean' },
                offsetMinutes: { type: 'integer' },
              },
              required: ['from', 'date', 'now', 'speed', 'paused', 'offsetMinutes'],
              additionalProperties: false,
            },
          },
          required: [
            'futuresDisplay',
            'indexDisplay',
            'kcStockDisplay',
            'stockDisplay',
            'trading',
            'registration',
            'replay',
          ],
          additionalProperties: false,
        }),
      },
    },
    async () => {
      const { futuresDisplay, indexDisplay, kcStockDisplay, stockDisplay } =
        app.config.settings.productDisplay;
      // The registration form marks the invitation code required or optional, as reg.do will judge it.
      const registration = { inviteCodeRequired: await inviteCodeRequired(app.station) };
      return ok({
        futuresDisplay,
        indexDisplay,
        kcStockDisplay,
        stockDisplay,
        trading,
        registration,
        replay: replayInfo(app.replay, app.config.replay),
      });
    },
  );
};
