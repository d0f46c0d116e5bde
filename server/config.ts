/**
 * Every setting of the test station (ARCHITECTURE.md "Settings the outside world relies on"), read once
 * from the environment, plus the market and money defaults of DOMAIN.md in one `settings` object.
 * Bad values are refused at start with a message that names the variable.
 */
import path from 'node:path';
import { ConfigError, DEFAULT_SETTINGS, checkProductSettings, type Settings } from './settings';

export * from './settings';

export type ClockMode = 'real' | 'always-open';
export type SmsGateway = 'demo' | 'console';

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
  /**
   * MARKET_SOURCE=replay: the market plays the imported history (`import-history`) from REPLAY_FROM at
   * REPLAY_SPEED instead of simulating it; instruments without history keep the simulation. Null: simulation.
   */
  replay: ReplaySettings | null;
  smsGateway: SmsGateway;
  ordersNeedKyc: boolean;
  reviewDelaySeconds: number;
  /** The built app; when missing, only the API is served. */
  staticDir: string;
  /** Request body limit in bytes for the API routes. */
  bodyLimit: number;
  /**
   * TRUST_PROXY: behind a load balancer, the caller's address is the first of X-Forwarded-For (Fastify's
   * trustProxy), and the station's own origin for the cross-site check is X-Forwarded-Proto and
   * X-Forwarded-Host; off by default, where a caller could name any address, scheme or host in them.
   */
  trustProxy: boolean;
  logLevel: string;
  /**
   * REQUEST_LOG_SUMMARY_S: at LOG_LEVEL=info, one line about the requests served per this many seconds
   * (at debug, a line per request). Per-request lines at info cost more than half of a trivial call.
   */
  requestLogSummarySeconds: number;
  /** The live quote stream's limits (/api/stream/quotes). */
  stream: StreamSettings;
  settings: Settings;
  /** Registration, login and identity limits. */
  identity: IdentitySettings;
  /** The wallet's own settings; its limits, hours and fee rate are site settings. */
  wallet: WalletSettings;
}

/** Where a replay starts and how fast it runs. */
export interface ReplaySettings {
  /** REPLAY_FROM as given: a date (`2015-07-08`) or a time with its offset (`2015-07-08T21:30:00-04:00`). */
  from: string;
  /** The instant the replay starts: a bare date starts at 09:00 Beijing time, before the A-share open. */
  startAt: number;
  /** The UTC offset the replay's date is told in (minutes; +480 for a bare date). */
  offsetMinutes: number;
  /** REPLAY_SPEED: market milliseconds per wall millisecond (1 real time, 60 a market minute per second). */
  speed: number;
}

/** The largest REPLAY_SPEED: a whole trading day in a few seconds is already more than the engine can show. */
export const REPLAY_SPEED_MAX = 10_000;
/** A bare REPLAY_FROM date starts at 09:00 in Beijing (UTC+8), half an hour before the A-share open. */
const REPLAY_DATE_START = '09:00:00+08:00';

/** REPLAY_FROM and REPLAY_SPEED read, or a ConfigError naming the variable. */
function readReplay(env: NodeJS.ProcessEnv): ReplaySettings {
  const from = (env.REPLAY_FROM ?? '').trim();
  if (from === '')
    throw new ConfigError('MARKET_SOURCE=replay needs REPLAY_FROM (a date such as 2015-07-08)');
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(from);
  const timed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/.exec(from);
  if (!date && !timed) {
    throw new ConfigError(
      `REPLAY_FROM must be a date (2015-07-08) or a time with its offset (2015-07-08T21:30:00-04:00); got "${from}"`,
    );
  }
  const text = date ? `${from}T${REPLAY_DATE_START}` : from;
  const startAt = Date.parse(text);
  // Date.parse rolls 2015-02-30 over to March: a date must read back as itself.
  if (
    !Number.isFinite(startAt) ||
    (date && new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!)).toISOString().slice(0, 10) !== from)
  ) {
    throw new ConfigError(`REPLAY_FROM is not a real date: "${from}"`);
  }
  const zone = /(Z|[+-]\d{2}:\d{2})$/.exec(text)![1]!;
  const offsetMinutes =
    zone === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const rawSpeed = (env.REPLAY_SPEED ?? '').trim();
  const speed = rawSpeed === '' ? 1 : Number(rawSpeed);
  if (!/^\d+(\.\d+)?$/.test(rawSpeed === '' ? '1' : rawSpeed) || !(speed > 0) || speed > REPLAY_SPEED_MAX) {
    throw new ConfigError(
      `REPLAY_SPEED must be a number above 0 and at most ${REPLAY_SPEED_MAX}; got "${rawSpeed}"`,
    );
  }
  return { from, startAt, offsetMinutes, speed };
}

/** The live quote stream's limits: what one address may hold open, and what a slow reader may owe. */
export interface StreamSettings {
  /** STREAMS_PER_IP: quote streams one address may hold open in one process (a phone has one or two). */
  perAddress: number;
  /**
   * STREAM_BUFFER_KB: bytes written to a stream but not yet taken by its client; past this, the client has
   * stopped reading and is dropped (it reconnects with Last-Event-ID when it reads again).
   */
  maxBufferedBytes: number;
  /**
   * STREAM_REPLAY_EVENTS: most events a Last-Event-ID resume replays (codes × seconds missed, up to 60
   * seconds back), so a small request cannot ask for a large answer; older seconds are skipped, and the
   * client's lists reload what they show.
   */
  maxReplayEvents: number;
}

/** Identity settings: invitation rule, SMS caps, login lockout, region blocking, CORS. */
export interface IdentitySettings {
  /** INVITE_CODE: whether registration needs an invitation code. */
  inviteCode: 'required' | 'optional';
  /** SMS_DAILY_PER_PHONE / SMS_DAILY_PER_IP: codes sent per local day (cookieTimeZone). */
  smsDailyPerPhone: number;
  smsDailyPerIp: number;
  /**
   * LOGIN_MAX_FAILURES wrong passwords from one address within LOGIN_WINDOW_MIN lock the phone for that
   * address for LOGIN_LOCK_MIN; LOGIN_PHONE_FAILURES from all addresses together lock it everywhere (a
   * distributed guess), until the lock ends or the owner resets the password by SMS.
   */
  loginMaxFailures: number;
  loginPhoneFailures: number;
  /** LOGIN_PER_IP_HOURLY / CHECK_PHONE_PER_IP_HOURLY: logins and phone checks one address may try an hour. */
  loginPerIpHourly: number;
  checkPhonePerIpHourly: number;
  /** CHECK_PHONE_PER_PHONE_HOURLY: checks of one phone number an hour, from all addresses together. */
  checkPhonePerPhoneHourly: number;
  loginWindowMinutes: number;
  loginLockMinutes: number;
  /** REGION_HEADER: the proxy header naming the caller's region (e.g. cf-ipcountry); empty: none. */
  regionHeader: string | null;
  /** BLOCKED_REGIONS: comma-separated region codes answered with REGION_BLOCKED (upper case). */
  blockedRegions: string[];
  /** CORS_ORIGINS: comma-separated origins allowed to call the API from a browser; empty: none. */
  corsOrigins: string[];
  /** UPLOADS_PER_DAY: KYC photos one user may upload in 24 hours. */
  uploadsPerDay: number;
  /** UPLOAD_PENDING_MB: bytes of a user's photos not yet in any KYC submission (more is refused). */
  uploadPendingBytes: number;
  /**
   * UPLOAD_ORPHAN_HOURS (at least 24): a photo in no submission after this long is deleted, file and record;
   * so is a file in the uploads folder with no record (a leftover of an interrupted upload).
   */
  uploadOrphanHours: number;
  /**
   * VIP_PERMISSION: who grants the VIP permission a user requests from the app: `reviewer` (the station's
   * rule reviewer, REVIEW_DELAY_S after the request, so a newcomer can try VIP picks) or `operator` (the
   * request waits for the operator's `permission grant`).
   */
  vipPermissionBy: 'reviewer' | 'operator';
}

/**
 * The wallet. The deposit and withdrawal limits, hours, withdrawal fee rate and pay channels are
 * site settings (server/content/site-settings.ts: getSetting.do and getPayInfo.do publish them and the operator
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
    loginPhoneFailures: readInt(env, 'LOGIN_PHONE_FAILURES', 20, 1, 100_000),
    loginPerIpHourly: readInt(env, 'LOGIN_PER_IP_HOURLY', 300, 1, 1_000_000),
    checkPhonePerIpHourly: readInt(env, 'CHECK_PHONE_PER_IP_HOURLY', 120, 1, 1_000_000),
    checkPhonePerPhoneHourly: readInt(env, 'CHECK_PHONE_PER_PHONE_HOURLY', 30, 1, 1_000_000),
    loginWindowMinutes: readInt(env, 'LOGIN_WINDOW_MIN', 15, 1, 10_080),
    loginLockMinutes: readInt(env, 'LOGIN_LOCK_MIN', 15, 1, 10_080),
    regionHeader: header === '' ? null : header,
    blockedRegions: readList(env, 'BLOCKED_REGIONS', /^[A-Za-z0-9-]{1,16}$/).map((r) => r.toUpperCase()),
    corsOrigins: readList(env, 'CORS_ORIGINS', /^https?:\/\/[A-Za-z0-9.:[\]-]+$/),
    uploadsPerDay: readInt(env, 'UPLOADS_PER_DAY', 20, 1, 100_000),
    uploadPendingBytes: readInt(env, 'UPLOAD_PENDING_MB', 30, 1, 100_000) * 1024 * 1024,
    uploadOrphanHours: readUploadOrphanHours(env),
    vipPermissionBy: readChoice(env, 'VIP_PERMISSION', ['reviewer', 'operator'] as const, 'reviewer'),
  };
}

/** The seed used when MARKET_SEED is unset: the same market for everyone by default. */
export const DEFAULT_MARKET_SEED = 'paperdesk-2025';

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

/**
 * UPLOAD_ORPHAN_HOURS, at least 24: UPLOADS_PER_DAY counts a user's `uploads` records of the last 24 hours,
 * and the sweep deletes the records of photos in no submission once they are this old. Any younger, and a
 * photo swept within the day would no longer count: upload, wait for the sweep, upload again, past the cap.
 * Refused at start rather than kept in step by a second counter, so the count stays one query over the
 * photos themselves.
 */
function readUploadOrphanHours(env: NodeJS.ProcessEnv): number {
  const raw = env.UPLOAD_ORPHAN_HOURS;
  const hours = readInt(env, 'UPLOAD_ORPHAN_HOURS', 24, 1, 8_760);
  if (hours < 24) {
    throw new ConfigError(
      `UPLOAD_ORPHAN_HOURS must be at least 24: photos are counted against UPLOADS_PER_DAY for 24 hours, ` +
        `so the sweep may not delete them sooner; got "${raw}"`,
    );
  }
  return hours;
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
  const source = readChoice(env, 'MARKET_SOURCE', ['simulation', 'replay'] as const, 'simulation');
  const replay = source === 'replay' ? readReplay(env) : null;
  if (replay && clockMode === 'always-open') {
    throw new ConfigError(
      "MARKET_SOURCE=replay plays history on the exchanges' real hours: use CLOCK_MODE=real",
    );
  }
  const smsGateway = readChoice(env, 'SMS_GATEWAY', ['demo', 'console'] as const, 'demo');
  const ordersNeedKyc = readBool(env, 'ORDERS_NEED_KYC', true);
  const trustProxy = readBool(env, 'TRUST_PROXY', false);
  const reviewDelaySeconds = readInt(env, 'REVIEW_DELAY_S', 5, 0, 86_400);
  const staticDir = path.resolve((env.STATIC_DIR ?? '').trim() || './dist');
  const logLevel = readChoice(
    env,
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
  );
  const requestLogSummarySeconds = readInt(env, 'REQUEST_LOG_SUMMARY_S', 60, 1, 86_400);
  const stream: StreamSettings = {
    perAddress: readInt(env, 'STREAMS_PER_IP', 8, 1, 10_000),
    maxBufferedBytes: readInt(env, 'STREAM_BUFFER_KB', 256, 16, 65_536) * 1024,
    maxReplayEvents: readInt(env, 'STREAM_REPLAY_EVENTS', 300, 1, 100_000),
  };
  const settings = structuredClone(DEFAULT_SETTINGS);
  checkProductSettings(settings);
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
    replay,
    smsGateway,
    ordersNeedKyc,
    reviewDelaySeconds,
    staticDir,
    bodyLimit: 64 * 1024,
    trustProxy,
    logLevel,
    requestLogSummarySeconds,
    stream,
    settings,
    identity: loadIdentitySettings(env),
    wallet: structuredClone(DEFAULT_WALLET_SETTINGS),
  };
}
