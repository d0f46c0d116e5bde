/** The instrument catalogue of the simulated exchange, read from catalogue.json and checked at start. */
import { readFileSync } from 'node:fs';
import type { Currency, StockMarket } from '../../src/shared/api/types';

/** A fixed tick in major units, or the HKEX spread table (tick depends on the price). */
export type TickRule = number | 'hkex';

/** Listing board: Shanghai/Shenzhen main boards, the STAR Market, ChiNext, or the HK / US market itself. */
export type Board = 'main' | 'star' | 'chinext' | 'hk' | 'us';
const BOARDS: readonly Board[] = ['main', 'star', 'chinext', 'hk', 'us'];

/**
 * An instrument's names beside its Chinese `name` and English `nameEn`: traditional Chinese always, Thai and
 * Vietnamese only where a local name is common (else readers of those languages get the English name).
 */
export interface LocalNames {
  'zh-TW': string;
  th?: string;
  vi?: string;
}

/** The name of a catalogue entry in a locale of the station (API.md: names answer in the request's language). */
export function nameIn(entry: { name: string; nameEn: string; names: LocalNames }, locale: string): string {
  switch (locale) {
    case 'zh-CN':
      return entry.name;
    case 'zh-TW':
      return entry.names['zh-TW'];
    case 'th':
      return entry.names.th ?? entry.nameEn;
    case 'vi':
      return entry.names.vi ?? entry.nameEn;
    default:
      return entry.nameEn;
  }
}

/** True when any of the entry's names (Chinese, English, traditional, local) contains the lower-case keyword. */
export function nameMatches(entry: { name: string; nameEn: string; names: LocalNames }, k: string): boolean {
  return (
    entry.name.toLowerCase().includes(k) ||
    entry.nameEn.toLowerCase().includes(k) ||
    entry.names['zh-TW'].toLowerCase().includes(k) ||
    (entry.names.th?.toLowerCase().includes(k) ?? false) ||
    (entry.names.vi?.toLowerCase().includes(k) ?? false)
  );
}

/** Checks a `names` object of the data file; a message naming what is wrong, or null. */
function badNames(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'names must be an object';
  const names = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(names)) {
    if (!['zh-TW', 'th', 'vi'].includes(k)) return `names.${k} is not a locale of the catalogue`;
    if (typeof v !== 'string' || v.trim() === '') return `names.${k} must be a non-empty string`;
  }
  return typeof names['zh-TW'] === 'string' ? null : 'names needs a zh-TW name';
}

export interface Instrument {
  code: string;
  market: StockMarket;
  board: Board;
  /** Under special treatment (ST / *ST): a ±5% daily limit on the main boards. */
  st: boolean;
  /** Chinese name. */
  name: string;
  nameEn: string;
  names: LocalNames;
  /** Pinyin initials of the Chinese name, for search. */
  pinyin: string;
  currency: Currency;
  /** Board lot in shares. */
  lotSize: number;
  tick: TickRule;
  /** The level the simulated price starts from and reverts to. */
  referencePrice: number;
  /** Annual volatility, a fraction. */
  volatility: number;
  avgDailyVolume: number;
  /**
   * A listing inside the simulated history (YYYY-MM-DD, a trading day): no bars and no trading before it,
   * no price limit for its first five trading days. Absent for instruments listed before the history starts.
   */
  listedOn?: string;
}

const MARKETS: readonly StockMarket[] = ['a', 'star', 'hk', 'us'];
const CURRENCIES: readonly Currency[] = ['CNY', 'HKD', 'USD'];

function fail(index: number, message: string): never {
  throw new Error(`catalogue.json: instrument #${index}: ${message}`);
}

/** Checks raw catalogue data and returns it typed; throws naming the first bad entry. */
export function parseCatalogue(raw: unknown): Instrument[] {
  const list = (raw as { instruments?: unknown } | null)?.instruments;
  if (!Array.isArray(list)) throw new Error('catalogue.json: "instruments" must be an array');
  const seen = new Set<string>();
  return list.map((item: unknown, i): Instrument => {
    if (typeof item !== 'object' || item === null) fail(i, 'not an object');
    const r = item as Record<string, unknown>;
    const str = (k: string): string => {
      const v = r[k];
      if (typeof v !== 'string' || v.trim() === '') fail(i, `${k} must be a non-empty string`);
      return v;
    };
    const num = (k: string): number => {
      const v = r[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(i, `${k} must be a positive number`);
      return v;
    };
    const code = str('code');
    if (!/^[A-Z0-9]{1,10}$/.test(code)) fail(i, `code "${code}" must be 1-10 capital letters or digits`);
    if (seen.has(code)) fail(i, `duplicate code ${code}`);
    seen.add(code);
    const market = str('market') as StockMarket;
    if (!MARKETS.includes(market)) fail(i, `unknown market ${market}`);
    const currency = str('currency') as Currency;
    if (!CURRENCIES.includes(currency)) fail(i, `unknown currency ${currency}`);
    const board = str('board') as Board;
    if (!BOARDS.includes(board)) fail(i, `unknown board ${board}`);
    const expected: Record<StockMarket, readonly Board[]> = {
      a: ['main'],
      star: ['star', 'chinext'],
      hk: ['hk'],
      us: ['us'],
    };
    if (!expected[market].includes(board)) fail(i, `board ${board} is not in market ${market}`);
    if (r.st !== undefined && typeof r.st !== 'boolean') fail(i, 'st must be true or false');
    const namesProblem = badNames(r.names);
    if (namesProblem) fail(i, namesProblem);
    const tick = r.tick === 'hkex' ? 'hkex' : num('tick');
    const lotSize = num('lotSize');
    if (!Number.isInteger(lotSize)) fail(i, 'lotSize must be whole');
    const listedOn = r.listedOn;
    if (
      listedOn !== undefined &&
      (typeof listedOn !== 'string' ||
        !/^\d{4}-\d\d-\d\d$/.test(listedOn) ||
        new Date(`${listedOn}T00:00:00Z`).toISOString().slice(0, 10) !== listedOn)
    ) {
      fail(i, 'listedOn must be a YYYY-MM-DD date');
    }
    return {
      code,
      market,
      board,
      st: r.st === true,
      name: str('name'),
      nameEn: str('nameEn'),
      names: r.names as LocalNames,
      pinyin: str('pinyin').toUpperCase(),
      currency,
      lotSize,
      tick,
      referencePrice: num('referencePrice'),
      volatility: num('volatility'),
      avgDailyVolume: num('avgDailyVolume'),
      ...(listedOn === undefined ? {} : { listedOn }),
    };
  });
}

export function loadCatalogue(file: URL = new URL('./catalogue.json', import.meta.url)): Instrument[] {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}

export type IndexRegion = 'cn' | 'hk' | 'us';

/** A market index: quoted in points, computed by the same seeded engine (no lots, no limits). */
export interface IndexDef {
  code: string;
  region: IndexRegion;
  name: string;
  nameEn: string;
  names: LocalNames;
  pinyin: string;
  referencePrice: number;
  volatility: number;
}

/** A futures product's main continuous contract. Sessions are local Shanghai time, "HH:MM-HH:MM". */
export interface FuturesDef {
  code: string;
  exchange: 'CFFEX' | 'SHFE' | 'DCE' | 'INE' | 'CZCE';
  name: string;
  nameEn: string;
  names: LocalNames;
  pinyin: string;
  referencePrice: number;
  /** Contract multiplier: units of the underlying per contract (e.g. 300 yuan per CSI 300 point). */
  multiplier: number;
  unit: string;
  tick: number;
  /** Daily price limit as a fraction of the previous settlement. */
  limit: number;
  volatility: number;
  sessions: string[];
}

export interface CatalogueData {
  version: number;
  instruments: Instrument[];
  indexes: IndexDef[];
  futures: FuturesDef[];
}

const REGIONS: readonly IndexRegion[] = ['cn', 'hk', 'us'];
const EXCHANGES: readonly FuturesDef['exchange'][] = ['CFFEX', 'SHFE', 'DCE', 'INE', 'CZCE'];

function need(ok: boolean, what: string, index: number, message: string): void {
  if (!ok) throw new Error(`catalogue.json: ${what} #${index}: ${message}`);
}

/** Checks the whole data file: version, stocks, indexes and futures; codes are unique across all three. */
export function parseCatalogueData(raw: unknown): CatalogueData {
  const r = raw as { version?: unknown; indexes?: unknown; futures?: unknown } | null;
  if (typeof r?.version !== 'number' || !Number.isInteger(r.version) || r.version < 1) {
    throw new Error('catalogue.json: "version" must be a positive whole number');
  }
  const instruments = parseCatalogue(raw);
  const codes = new Set(instruments.map((i) => i.code));
  const text = (o: Record<string, unknown>, k: string) => typeof o[k] === 'string' && o[k] !== '';
  const positive = (o: Record<string, unknown>, k: string) =>
    typeof o[k] === 'number' && Number.isFinite(o[k]) && o[k] > 0;
  if (!Array.isArray(r.indexes)) throw new Error('catalogue.json: "indexes" must be an array');
  if (!Array.isArray(r.futures)) throw new Error('catalogue.json: "futures" must be an array');
  const indexes = (r.indexes as Record<string, unknown>[]).map((o, i): IndexDef => {
    for (const k of ['code', 'name', 'nameEn', 'pinyin']) need(text(o, k), 'index', i, `${k} must be text`);
    for (const k of ['referencePrice', 'volatility']) need(positive(o, k), 'index', i, `${k} must be > 0`);
    need(REGIONS.includes(o.region as IndexRegion), 'index', i, 'unknown region');
    need(badNames(o.names) === null, 'index', i, badNames(o.names) ?? '');
    need(/^[A-Z0-9]{1,10}$/.test(o.code as string), 'index', i, 'bad code');
    need(!codes.has(o.code as string), 'index', i, `duplicate code ${String(o.code)}`);
    codes.add(o.code as string);
    return o as unknown as IndexDef;
  });
  const futures = (r.futures as Record<string, unknown>[]).map((o, i): FuturesDef => {
    for (const k of ['code', 'name', 'nameEn', 'pinyin', 'unit'])
      need(text(o, k), 'futures', i, `${k} must be text`);
    for (const k of ['referencePrice', 'multiplier', 'tick', 'limit', 'volatility']) {
      need(positive(o, k), 'futures', i, `${k} must be > 0`);
    }
    need(EXCHANGES.includes(o.exchange as FuturesDef['exchange']), 'futures', i, 'unknown exchange');
    need(badNames(o.names) === null, 'futures', i, badNames(o.names) ?? '');
    need(/^[A-Z0-9]{1,10}$/.test(o.code as string), 'futures', i, 'bad code');
    need(!codes.has(o.code as string), 'futures', i, `duplicate code ${String(o.code)}`);
    codes.add(o.code as string);
    const sessions = o.sessions;
    need(
      Array.isArray(sessions) &&
        sessions.length > 0 &&
        sessions.every((s) => typeof s === 'string' && /^\d\d:\d\d-\d\d:\d\d$/.test(s)),
      'futures',
      i,
      'sessions must be "HH:MM-HH:MM" texts',
    );
    return o as unknown as FuturesDef;
  });
  return { version: r.version, instruments, indexes, futures };
}

export function loadCatalogueData(file: URL = new URL('./catalogue.json', import.meta.url)): CatalogueData {
  return parseCatalogueData(JSON.parse(readFileSync(file, 'utf8')));
}
