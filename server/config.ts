/**
 * Every setting of the test station (ARCHITECTURE.md "Settings the outside world relies on"), read once
 * from the environment, plus the market and money defaults of DOMAIN.md in one `settings` object.
 * Bad values are refused at start with a message that names the variable.
 */
import path from 'node:path';
import type { Currency, Market, StockMarket, AccountType, ProductSetting } from '../src/shared/api/types';
import type { FeeSettings } from '../src/shared/fees';

export type ClockMode = 'real' | 'always-open';
export type SmsGateway = 'demo' | 'console';

export interface LotRule {
  /** Shares per lot; `null` where the instrument's board lot applies (Hong Kong). */
  sharesPerLot: number | null;
  /** Most lots in one order (spec §5: 1 to 100 lots for A-shares). */
  maxLotsPerOrder: number;
}

/** The fee rates' shapes live with the fee rules in src/shared/fees.ts (the app computes the same fees). */
export type {
  AShareFeeRates,
  ContractFeeRates,
  FeeSettings,
  HkFeeRates,
  UsFeeRates,
} from '../src/shared/fees';
/** The markets traded in contracts (lots are contracts; shares hold contracts × multiplier). */
export type ContractMarket = 'index' | 'futures';

export interface ContractRule {
  /** Most contracts in one order. */
  maxContractsPerOrder: number;
}

export interface Settings {
  /** Opening paper balances per account, in major units. */
  startingBalances: Record<AccountType, number>;
  accountCurrency: Record<AccountType, Currency>;
  /** Which account trades which market. */
  tradingAccount: Record<Market, AccountType>;
  fees: FeeSettings;
  lotRules: Record<StockMarket, LotRule>;
  contractRules: Record<ContractMarket, ContractRule>;
  /**
   * Index trading is CFD-style: one contract is worth index points × a multiplier in the index account's
   * currency (yuan per point), per index code, `default` for any other index.
   */
  indexMultiplier: { default: number; byCode: Record<string, number> };
  /** Whether buy.do may open a short position on a stock (DOMAIN.md: stocks are long only by default). */
  shortStocks: boolean;
  /** Most codes in one user's watchlist. */
  watchlistMax: number;
  leverage: Record<Market, number[]>;
  /** Daily price limit as a fraction of the previous close; null where the market has none. */
  priceLimit: Record<StockMarket, number | null>;
  /** The daily limit of main-board stocks under special treatment (ST, *ST). */
  stPriceLimit: number;
  /** Markets where shares bought today can be sold from the next trading day only. */
  tPlusOne: Record<StockMarket, boolean>;
  liquidationLine: number;
  warningLine: number;
  /** Deferred (overnight financing) fee per day on a leveraged position's borrowed value, a fraction. */
  deferredFeeRate: number;
  smsCodeTtlSeconds: number;
  smsResendSeconds: number;
  /** Wrong guesses before an SMS code is burnt. */
  smsMaxAttempts: number;
  sessionTtlDays: number;
  /** The time zone whose end of day ends the USER_TOKEN cookie. */
  cookieTimeZone: string;
  /** Where the daily price history of the simulation starts (UTC date). */
  marketAnchorDate: string;
  pageSizeDefault: number;
  pageSizeMax: number;
  dayBarsDefault: number;
  dayBarsMax: number;
  /** spec §3: which product areas the app shows, sent by GET /api/admin/getProductSetting.do. */
  productDisplay: ProductSetting;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` or null for SQLite in `sqlitePath`. */
  databaseUrl: string | null;
  sqlitePath: string;
  redisUrl: string | null;
  clockMode: ClockMode;
  /**
   * CLOCK_FILE (test-only): the station's clock reads epoch ms (or an ISO time) from this file on every call
   * instead of the system clock, so tests pin and move the time of several processes at once. Unset: real time.
   */
  clockFile: string | null;
  marketSeed: string;
  smsGateway: SmsGateway;
  ordersNeedKyc: boolean;
  reviewDelaySeconds: number;
  /** The built app; when missing, only the API is served. */
  staticDir: string;
  /** Request body limit in bytes for the API routes. */
  bodyLimit: number;
  logLevel: string;
  settings: Settings;
  /** Registration, login and identity limits (issue 4). */
  identity: IdentitySettings;
  /** The wallet's own settings (issue 10); its limits, hours and fee rate are site settings. */
  wallet: WalletSettings;
}

/** Identity settings: invitation rule, SMS caps, login lockout, region blocking, CORS. */
export interface IdentitySettings {
  /** INVITE_CODE: whether registration needs an invitation code. */
  inviteCode: 'required' | 'optional';
  /** SMS_DAILY_PER_PHONE / SMS_DAILY_PER_IP: codes sent per local day (cookieTimeZone). */
  smsDailyPerPhone: number;
  smsDailyPerIp: number;
  /** LOGIN_MAX_FAILURES wrong passwords within LOGIN_WINDOW_MIN lock the phone for LOGIN_LOCK_MIN. */
  loginMaxFailures: number;
  loginWindowMinutes: number;
  loginLockMinutes: number;
  /** REGION_HEADER: the proxy header naming the caller's region (e.g. cf-ipcountry); empty: none. */
  regionHeader: string | null;
  /** BLOCKED_REGIONS: comma-separated region codes answered with REGION_BLOCKED (upper case). */
  blockedRegions: string[];
  /** CORS_ORIGINS: comma-separated origins allowed to call the API from a browser; empty: none. */
  corsOrigins: string[];
}

/**
 * The wallet (issue 10). The deposit and withdrawal limits, hours, withdrawal fee rate and pay channels are
 * site settings (domain/site-settings.ts: getSetting.do and getPayInfo.do publish them and the operator
 * changes them); these are the rest.
 */
export interface WalletSettings {
  /** The zone of the deposit and withdrawal hours (withdrawals also keep the A-share trading days). */
  timeZone: string;
  /** Currency flash exchange: the fraction of the converted amount the station keeps (DOMAIN.md: 0.3%). */
  exchangeSpreadRate: number;
  /** The accounts transAmt.do moves money between (all CNY). */
  transferAccounts: readonly ('main' | 'index' | 'newstock')[];
}

export const DEFAULT_WALLET_SETTINGS: WalletSettings = {
  timeZone: 'Asia/Shanghai',
  exchangeSpreadRate: 0.003,
  transferAccounts: ['main', 'index', 'newstock'],
};

function readList(env: NodeJS.ProcessEnv, name: string, pattern: RegExp): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of items) {
    if (!pattern.test(item)) throw new ConfigError(`${name} has a bad entry: "${item}"`);
  }
  return items;
}

/** Reads the identity settings of `env` (see IdentitySettings for the variables). */
export function loadIdentitySettings(env: NodeJS.ProcessEnv): IdentitySettings {
  const header = (env.REGION_HEADER ?? '').trim().toLowerCase();
  if (header !== '' && !/^[a-z0-9-]{1,64}$/.test(header)) {
    throw new ConfigError(`REGION_HEADER must be a header name; got "${env.REGION_HEADER}"`);
  }
  return {
    inviteCode: readChoice(env, 'INVITE_CODE', ['required', 'optional'] as const, 'optional'),
    smsDailyPerPhone: readInt(env, 'SMS_DAILY_PER_PHONE', 10, 1, 1_000_000),
    smsDailyPerIp: readInt(env, 'SMS_DAILY_PER_IP', 500, 1, 1_000_000),
    loginMaxFailures: readInt(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginWindowMinutes: readInt(env, 'LOGIN_WINDOW_MIN', 15, 1, 10_080),
    loginLockMinutes: readInt(env, 'LOGIN_LOCK_MIN', 15, 1, 10_080),
    regionHeader: header === '' ? null : header,
    blockedRegions: readList(env, 'BLOCKED_REGIONS', /^[A-Za-z0-9-]{1,16}$/).map((r) => r.toUpperCase()),
    corsOrigins: readList(env, 'CORS_ORIGINS', /^https?:\/\/[A-Za-z0-9.:[\]-]+$/),
  };
}

/** DOMAIN.md defaults. An operator changes them here, not in code scattered about. */
export const DEFAULT_SETTINGS: Settings = {
  startingBalances: { main: 1_000_000, index: 0, newstock: 0, hk: 100_000, us: 100_000 },
  accountCurrency: { main: 'CNY', index: 'CNY', newstock: 'CNY', hk: 'HKD', us: 'USD' },
  tradingAccount: { a: 'main', star: 'main', hk: 'hk', us: 'us', index: 'index', futures: 'index' },
  fees: {
    a: { commissionRate: 0.00025, commissionMin: 5, transferFeeRate: 0.00001, stampDutyRate: 0.0005 },
    hk: {
      commissionRate: 0.0003,
      commissionMin: 3,
      stampDutyRate: 0.001,
      stampDutyUnit: 1,
      sfcLevyRate: 0.000027,
      tradingFeeRate: 0.0000565,
      afrcLevyRate: 0.0000015,
      settlementRate: 0.00002,
      settlementMin: 2,
      settlementMax: 100,
    },
    us: { commissionPerShare: 0.005, commissionMin: 1, tafPerShare: 0.000166, tafMax: 8.3, secFeeRate: 0 },
    // CFFEX index futures: 0.0023% of the contract value per side; no minimum (the exchanges set none).
    index: { rate: 0.000023, min: 0 },
    futures: { rate: 0.000023, min: 0 },
  },
  lotRules: {
    a: { sharesPerLot: 100, maxLotsPerOrder: 100 },
    star: { sharesPerLot: 100, maxLotsPerOrder: 100 },
    hk: { sharesPerLot: null, maxLotsPerOrder: 100 },
    us: { sharesPerLot: 1, maxLotsPerOrder: 10_000 },
  },
  // CFFEX caps one limit order of index futures at 20 contracts; the index CFDs allow a little more.
  contractRules: { index: { maxContractsPerOrder: 50 }, futures: { maxContractsPerOrder: 20 } },
  // Yuan per point, after the futures on the same index where there are some (IF/IH 300, IC 200; HSI 50,
  // E-mini S&P 50, E-mini Nasdaq 20, E-mini Dow 5).
  indexMultiplier: {
    default: 100,
    byCode: { SH000300: 300, SH000016: 300, SH000905: 200, HSI: 50, HSTECH: 50, SPX: 50, IXIC: 20, DJI: 5 },
  },
  shortStocks: false,
  watchlistMax: 200,
  leverage: {
    a: [1, 2, 3, 5, 10],
    star: [1, 2, 3, 5, 10],
    hk: [1, 2, 5],
    us: [1, 2, 5],
    index: [1, 2, 3, 5, 10, 15, 20],
    futures: [1, 2, 3, 5, 10, 15, 20],
  },
  priceLimit: { a: 0.1, star: 0.2, hk: null, us: null },
  stPriceLimit: 0.05,
  tPlusOne: { a: true, star: true, hk: false, us: false },
  liquidationLine: 1.05,
  warningLine: 1.1,
  deferredFeeRate: 0.0005,
  smsCodeTtlSeconds: 60,
  smsResendSeconds: 60,
  smsMaxAttempts: 5,
  sessionTtlDays: 30,
  cookieTimeZone: 'Asia/Shanghai',
  marketAnchorDate: '2020-01-01',
  pageSizeDefault: 15,
  pageSizeMax: 100,
  dayBarsDefault: 120,
  dayBarsMax: 1000,
  productDisplay: { futuresDisplay: true, indexDisplay: true, kcStockDisplay: true, stockDisplay: true },
};

/** The seed used when MARKET_SEED is unset: the same market for everyone by default. */
export const DEFAULT_MARKET_SEED = 'paperdesk-2025';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

function readChoice<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim();
  if (!(choices as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${choices.join(', ')}; got "${raw}"`);
  }
  return value as T;
}

function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false; got "${raw}"`);
}

function readUrl(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.map((p) => `${p}//…`).join(' or ')})`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw.trim();
}

/** Reads every setting from `env`, refusing bad values with a ConfigError that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const host = (env.HOST ?? '').trim() || '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host))
    throw new ConfigError(`HOST is not a host name or address: "${host}"`);
  const dataDir = path.resolve((env.DATA_DIR ?? '').trim() || './data');
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const clockMode = readChoice(env, 'CLOCK_MODE', ['real', 'always-open'] as const, 'real');
  const clockFileRaw = (env.CLOCK_FILE ?? '').trim();
  const clockFile = clockFileRaw === '' ? null : path.resolve(clockFileRaw);
  const seedRaw = env.MARKET_SEED;
  const marketSeed = seedRaw === undefined || seedRaw.trim() === '' ? DEFAULT_MARKET_SEED : seedRaw.trim();
  if (marketSeed.length > 200) throw new ConfigError('MARKET_SEED must be at most 200 characters');
  const smsGateway = readChoice(env, 'SMS_GATEWAY', ['demo', 'console'] as const, 'demo');
  const ordersNeedKyc = readBool(env, 'ORDERS_NEED_KYC', true);
  const reviewDelaySeconds = readInt(env, 'REVIEW_DELAY_S', 5, 0, 86_400);
  const staticDir = path.resolve((env.STATIC_DIR ?? '').trim() || './dist');
  const logLevel = readChoice(
    env,
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
  );
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'paperdesk.sqlite'),
    redisUrl,
    clockMode,
    clockFile,
    marketSeed,
    smsGateway,
    ordersNeedKyc,
    reviewDelaySeconds,
    staticDir,
    bodyLimit: 64 * 1024,
    logLevel,
    settings: structuredClone(DEFAULT_SETTINGS),
    identity: loadIdentitySettings(env),
    wallet: structuredClone(DEFAULT_WALLET_SETTINGS),
  };
}
