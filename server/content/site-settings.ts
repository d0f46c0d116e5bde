/**
 * Site settings (spec §7 "Site"): values kept in the site_settings table, each key with a default of
 * a fixed shape. The operator command line changes them; a new value must have the default's shape
 * (same fields, same types), so the calls that read them always answer what their schemas promise.
 * Every figure is play money: the pay channels are simulated, no real payment is connected.
 * The station's own texts among the defaults are station texts (keys of the locales' stationTexts), answered
 * in the reader's language (inReaderLanguage); a text the operator sets is answered as it was written.
 */
import { AppError, stationText, type Messages, type Station } from '../platform';
import { audit } from '../ledger';

export const SITE_SETTING_DEFAULTS = {
  /** getSetting.do: the site's general rules (money in major units, hours as HH:MM-HH:MM). */
  setting: {
    siteName: 'PaperDesk',
    minRecharge: 100,
    minWithdraw: 100,
    maxWithdraw: 1_000_000,
    rechargeHours: '09:00-23:00',
    withdrawHours: '09:30-15:30',
    withdrawFeeRate: 0,
    kycRequiredForOrders: true,
    noticeText: stationText('noticeText'),
  },
  /** getIndexSetting.do: index trading rules (leverage and maxLots are answered from the trading settings). */
  index: {
    enabled: true,
    leverage: [1, 2, 3, 5, 10, 15, 20],
    minLots: 1,
    maxLots: 50,
    tradingHours: '09:30-15:00',
  },
  /** getFuturesSetting.do: futures trading rules (leverage and maxLots as for indexes). */
  futures: {
    enabled: true,
    leverage: [1, 2, 3, 5, 10, 15, 20],
    minLots: 1,
    maxLots: 20,
    tradingHours: '09:00-15:00',
  },
  /** getInfo.do: about the site. */
  info: {
    name: 'PaperDesk',
    about: stationText('about'),
    companyName: stationText('companyName'),
    servicePhone: '',
    serviceUrl: '',
    version: '0.1.0',
  },
  /** getPayInfo.do / getPayInfoById.do: simulated deposit channels. */
  payChannels: [
    {
      id: 1,
      name: stationText('payChannelBank'),
      type: 'bank',
      payee: stationText('payeeStation'),
      bank: stationText('bankSimulated'),
      account: '6200000000000000',
      minAmount: 100,
      maxAmount: 1_000_000,
      enabled: true,
    },
    {
      id: 2,
      name: stationText('payChannelInstant'),
      type: 'instant',
      payee: stationText('payeeStation'),
      bank: '',
      account: '',
      minAmount: 100,
      maxAmount: 50_000,
      enabled: true,
    },
  ],
  /** getBannerByPlat.do: banners per platform. */
  banners: [
    {
      id: 1,
      plat: 'h5',
      title: stationText('bannerPlayMoney'),
      imageUrl: '/icons/banner-1.png',
      linkUrl: '/home',
      sort: 1,
      // The same picture in smaller formats (scripts/make-banner-images.mjs) and its intrinsic size, so the
      // app keeps its place before it loads; optional fields (OPTIONAL_FIELDS).
      imageAvifUrl: '/icons/banner-1.avif',
      imageWebpUrl: '/icons/banner-1.webp',
      imageWidth: 750,
      imageHeight: 280,
    },
  ],
} as const;

/** A setting's value with every station text in it in the reader's language (`messages`). */
export function inReaderLanguage<T>(value: T, messages: Messages): T {
  if (typeof value === 'string') return messages.stored(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => inReaderLanguage(item, messages)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, inReaderLanguage(v as unknown, messages)]),
  ) as T;
}

/**
 * Fields added to a setting's shape after values were first stored: a stored value may leave them out
 * (it stays valid, and the calls answer it without them); when present they must have the default's type.
 */
export const OPTIONAL_FIELDS = ['imageAvifUrl', 'imageWebpUrl', 'imageWidth', 'imageHeight'] as const;
type OptionalField = (typeof OPTIONAL_FIELDS)[number];
const isOptionalField = (field: string): boolean => (OPTIONAL_FIELDS as readonly string[]).includes(field);

type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? readonly Widen<U>[]
        : { -readonly [K in keyof T as K extends OptionalField ? never : K]: Widen<T[K]> } & {
            -readonly [K in keyof T as K extends OptionalField ? K : never]?: Widen<T[K]>;
          };

export type SiteSettings = {
  [K in keyof typeof SITE_SETTING_DEFAULTS]: Widen<(typeof SITE_SETTING_DEFAULTS)[K]>;
};
export type SiteSettingKey = keyof SiteSettings;
export const SITE_SETTING_KEYS = Object.keys(SITE_SETTING_DEFAULTS) as SiteSettingKey[];

export function isSiteSettingKey(value: string): value is SiteSettingKey {
  return (SITE_SETTING_KEYS as string[]).includes(value);
}

/** A JSON schema of a default value: the shape every stored value must keep. */
export function schemaOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: 'number' };
  if (Array.isArray(value)) return { type: 'array', items: schemaOf(value[0]) };
  const entries = Object.entries(value as Record<string, unknown>);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([k, v]) => [k, schemaOf(v)])),
    required: entries.map(([k]) => k).filter((k) => !isOptionalField(k)),
    additionalProperties: false,
  };
}

const URL_FIELD = /Url$/;
/** An https address, or a path on this site: not `//host` nor `/\host`, which browsers read as another site. */
const SAFE_URL = /^(https:\/\/|\/(?![/\\]))\S*$/;
/** Pixel sizes (a picture's intrinsic width and height): whole and positive. */
const PIXEL_FIELD = /(Width|Height)$/;

/** Null when `value` has the shape of `model`; otherwise where it differs. */
export function shapeError(model: unknown, value: unknown, at = '$'): string | null {
  if (typeof model === 'string') {
    if (typeof value !== 'string') return `${at}: a string`;
    if (value.length > 2000) return `${at}: at most 2000 characters`;
    if (URL_FIELD.test(at) && value !== '' && !SAFE_URL.test(value)) {
      return `${at}: an https:// address or a path on this site`;
    }
    return null;
  }
  if (typeof model === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${at}: a number`;
    if (PIXEL_FIELD.test(at) && !(Number.isInteger(value) && value >= 1 && value <= 10_000))
      return `${at}: a whole number of pixels from 1 to 10000`;
    return null;
  }
  if (typeof model === 'boolean') return typeof value === 'boolean' ? null : `${at}: true or false`;
  if (Array.isArray(model)) {
    if (!Array.isArray(value) || value.length > 200) return `${at}: a list (at most 200)`;
    for (let i = 0; i < value.length; i++) {
      const error = shapeError(model[0], value[i], `${at}[${i}]`);
      if (error) return error;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at}: an object`;
  const fields = Object.keys(model as object);
  const extra = Object.keys(value).filter((k) => !fields.includes(k));
  if (extra.length > 0) return `${at}: unknown field ${extra[0]}`;
  for (const field of fields) {
    if (!(field in value)) {
      if (isOptionalField(field)) continue;
      return `${at}.${field}: missing`;
    }
    const error = shapeError(
      (model as Record<string, unknown>)[field],
      (value as Record<string, unknown>)[field],
      `${at}.${field}`,
    );
    if (error) return error;
  }
  return null;
}

/** Whether a stored value has the shape of the setting's default, so that it can stand in for it. */
function fitsSetting<K extends SiteSettingKey>(key: K, value: unknown): value is SiteSettings[K] {
  return shapeError(SITE_SETTING_DEFAULTS[key], value) === null;
}

function putSetting<K extends SiteSettingKey>(settings: SiteSettings, key: K, value: SiteSettings[K]): void {
  settings[key] = value;
}

/** Every site setting: the stored value where there is a valid one, else the default. */
export async function siteSettings(station: Station): Promise<SiteSettings> {
  const rows = await station.db.selectFrom('site_settings').select(['key', 'value']).execute();
  const result: SiteSettings = structuredClone(SITE_SETTING_DEFAULTS);
  for (const row of rows) {
    if (!isSiteSettingKey(row.key)) continue;
    try {
      const value: unknown = JSON.parse(row.value);
      if (fitsSetting(row.key, value)) putSetting(result, row.key, value);
    } catch {
      // A damaged row falls back to the default.
    }
  }
  return result;
}

export async function siteSetting<K extends SiteSettingKey>(
  station: Station,
  key: K,
): Promise<SiteSettings[K]> {
  return (await siteSettings(station))[key];
}

/** The operator changes one setting (audited); VALIDATION naming where the shape differs. */
export async function setSiteSetting(
  station: Station,
  key: SiteSettingKey,
  value: unknown,
  actor: string,
  reason: string,
): Promise<void> {
  const error = shapeError(SITE_SETTING_DEFAULTS[key], value);
  if (error) throw new AppError('VALIDATION', { fields: { [key]: 'invalid' }, params: { detail: error } });
  const now = station.clock.now();
  const json = JSON.stringify(value);
  await station.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('site_settings')
      .values({ key, value: json, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
      .execute();
    await audit(trx, {
      time: now,
      actor,
      action: 'site.set',
      userId: null,
      reason,
      detail: { key, value },
    });
  });
}

/** An address a Link header can carry as it is (the settings' checks keep banner addresses to these). */
const LINK_SAFE_URL = /^(?:https:\/\/|\/(?![/\\]))[^\s<>,;"]+$/;

/**
 * The Link header that preloads /home's first banner picture (the app's BANNERS_READ: platform h5, in
 * order), in the smallest format it has: the picture is that screen's largest paint, and without the hint
 * its download would start only once the app has asked for the banners. Null when there is none to preload.
 */
export async function homeBannerPreload(station: Station): Promise<string | null> {
  const [first] = (await siteSetting(station, 'banners'))
    .filter((banner) => banner.plat === 'h5')
    .sort((a, b) => a.sort - b.sort || a.id - b.id);
  if (!first) return null;
  const [url, type] = first.imageAvifUrl
    ? [first.imageAvifUrl, 'image/avif']
    : first.imageWebpUrl
      ? [first.imageWebpUrl, 'image/webp']
      : [first.imageUrl, null];
  if (!url || !LINK_SAFE_URL.test(url)) return null;
  return `<${url}>; rel=preload; as=image${type ? `; type="${type}"` : ''}; fetchpriority=high`;
}
