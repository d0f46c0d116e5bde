/**
 * Site calls read from the site settings table (server/content/site-settings.ts, changed by the operator
 * command line), and `/api/oss/token.do`: where and how the app uploads a photo. The response schemas
 * are made from the settings' default shapes, the same shapes a stored value must keep.
 */
import type { FastifyPluginAsync } from 'fastify';
import { futuresProduct } from '../../../src/shared/fees';
import { futuresMarginRate, leverageWithin } from '../../../src/shared/margin';
import { AppError, fields, ok, responses, userSecurity, type Station } from '../../platform';
import { MAX_IMAGE_BYTES } from '../../identity';
import { SITE_SETTING_DEFAULTS, inReaderLanguage, schemaOf, siteSetting } from '../site-settings';

/** getFuturesSetting.do adds each product's margin rate and the leverage it offers (at most 1 ÷ that rate). */
const futuresSchema = schemaOf(SITE_SETTING_DEFAULTS.futures) as {
  properties: Record<string, unknown>;
  required: string[];
};
futuresSchema.properties.marginRate = { type: 'object', additionalProperties: { type: 'number' } };
futuresSchema.properties.leverageByProduct = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'number' } },
};
futuresSchema.required.push('marginRate', 'leverageByProduct');

const schemas = {
  setting: schemaOf(SITE_SETTING_DEFAULTS.setting),
  index: schemaOf(SITE_SETTING_DEFAULTS.index),
  futures: futuresSchema,
  info: schemaOf(SITE_SETTING_DEFAULTS.info),
  payChannel: schemaOf(SITE_SETTING_DEFAULTS.payChannels[0]),
  banner: schemaOf(SITE_SETTING_DEFAULTS.banners[0]),
};

/** Each futures product's margin rate and the multiples it offers: up to 1 ÷ that rate, as buyFutures.do allows. */
function futuresLeverage(station: Station): {
  marginRate: Record<string, number>;
  leverageByProduct: Record<string, number[]>;
} {
  const { leverage, futuresMarginRate: rates } = station.config.settings;
  const marginRate: Record<string, number> = { default: rates.default };
  const leverageByProduct: Record<string, number[]> = {};
  for (const def of station.market.futures()) {
    const product = futuresProduct(def.code);
    marginRate[product] = futuresMarginRate(rates, product);
    leverageByProduct[product] = leverageWithin(leverage.futures, marginRate[product]);
  }
  return { marginRate, leverageByProduct };
}

/** A site setting as its call answers it, with the figures the station enforces in place of stored ones. */
async function settingAnswer(
  station: Station,
  key: 'setting' | 'index' | 'futures' | 'info',
): Promise<unknown> {
  const value = await siteSetting(station, key);
  // Whether orders need KYC is the station's ORDERS_NEED_KYC, the rule buy.do enforces (kyc-gate.ts): the
  // order form tells the user before they start, so it must say what the station will do.
  if (key === 'setting') return { ...value, kycRequiredForOrders: station.config.ordersNeedKyc };
  if (key !== 'index' && key !== 'futures') return value;
  // The leverage choices and the most contracts per order are the ones the station enforces on
  // buyIndex.do / buyFutures.do (its trading settings), so the app offers exactly what is accepted.
  const { leverage, contractRules } = station.config.settings;
  const rules = { ...value, leverage: leverage[key], maxLots: contractRules[key].maxContractsPerOrder };
  return key === 'index' ? rules : { ...rules, ...futuresLeverage(station) };
}

export const siteSettingsPlugin: FastifyPluginAsync = async (app) => {
  const station = app.station;
  // This plugin's answers (settings, pay channels, banners) carry station texts: each in the reader's language.
  app.addHook('preSerialization', async (request, _reply, payload: unknown) =>
    inReaderLanguage(payload, app.i18n.messages(request.headers['accept-language'])),
  );
  const simple = (url: string, key: 'setting' | 'index' | 'futures' | 'info', summary: string) =>
    app.get(
      url,
      {
        schema: {
          tags: ['site'],
          summary,
          querystring: fields({}),
          response: responses(schemas[key]),
        },
      },
      async () => ok(await settingAnswer(station, key)),
    );

  simple(
    '/api/admin/getSetting.do',
    'setting',
    'The site rules: deposit and withdrawal limits and hours, notice',
  );
  simple('/api/admin/getIndexSetting.do', 'index', 'Index trading rules: leverage, lots, hours');
  simple('/api/admin/getFuturesSetting.do', 'futures', 'Futures trading rules: leverage, lots, hours');
  simple('/api/site/getInfo.do', 'info', 'About the site: name, company, customer service');

  app.get(
    '/api/site/getPayInfo.do',
    {
      schema: {
        tags: ['site'],
        summary: 'The enabled (simulated, play-money) deposit channels',
        querystring: fields({}),
        response: responses({ type: 'array', items: schemas.payChannel }),
      },
    },
    async () => ok((await siteSetting(station, 'payChannels')).filter((c) => c.enabled)),
  );

  app.get<{ Querystring: { id: number } }>(
    '/api/site/getPayInfoById.do',
    {
      schema: {
        tags: ['site'],
        summary: 'One enabled deposit channel',
        querystring: fields({ id: { type: 'integer', minimum: 1, maximum: 1_000_000_000 } }, ['id']),
        response: responses(schemas.payChannel),
      },
    },
    async (request) => {
      const channel = (await siteSetting(station, 'payChannels')).find(
        (c) => c.id === request.query.id && c.enabled,
      );
      if (!channel) throw new AppError('NOT_FOUND');
      return ok(channel);
    },
  );

  app.get<{ Querystring: { plat: string } }>(
    '/api/site/getBannerByPlat.do',
    {
      schema: {
        tags: ['site'],
        summary: 'Banners of a platform (h5, app, pc), in their order',
        querystring: fields({ plat: { type: 'string', enum: ['h5', 'app', 'pc'], default: 'h5' } }),
        response: responses({ type: 'array', items: schemas.banner }),
      },
    },
    async (request) =>
      ok(
        (await siteSetting(station, 'banners'))
          .filter((b) => b.plat === request.query.plat)
          .sort((a, b) => a.sort - b.sort || a.id - b.id),
      ),
  );

  app.get(
    '/api/oss/token.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['site'],
        summary:
          'Where and how to upload a photo: the station stores uploads itself (no cloud storage), so this ' +
          'names its upload call, the accepted types and the size limit',
        security: userSecurity,
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: {
            uploadUrl: { type: 'string' },
            method: { type: 'string', enum: ['POST'] },
            accept: { type: 'array', items: { type: 'string' } },
            maxBytes: { type: 'integer' },
          },
          required: ['uploadUrl', 'method', 'accept', 'maxBytes'],
          additionalProperties: false,
        }),
      },
    },
    async () =>
      ok({
        uploadUrl: '/user/kyc/upload.do',
        method: 'POST' as const,
        accept: ['image/jpeg', 'image/png', 'image/webp'],
        maxBytes: MAX_IMAGE_BYTES,
      }),
  );
};
