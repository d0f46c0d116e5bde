/** The instrument catalogue of the simulated exchange, read from catalogue.json and checked at start. */
import { readFileSync } from 'node:fs';
import type { Currency, StockMarket } from '../../src/shared/api/types';

/** A fixed tick in major units, or the HKEX spread table (tick depends on the price). */
export type TickRule = number | 'hkex';

export interface Instrument {
  code: string;
  market: StockMarket;
  /** Chinese name. */
  name: string;
  nameEn: string;
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
    const tick = r.tick === 'hkex' ? 'hkex' : num('tick');
    const lotSize = num('lotSize');
    if (!Number.isInteger(lotSize)) fail(i, 'lotSize must be whole');
    return {
      code,
      market,
      name: str('name'),
      nameEn: str('nameEn'),
      pinyin: str('pinyin').toUpperCase(),
      currency,
      lotSize,
      tick,
      referencePrice: num('referencePrice'),
      volatility: num('volatility'),
      avgDailyVolume: num('avgDailyVolume'),
    };
  });
}

export function loadCatalogue(file: URL = new URL('./catalogue.json', import.meta.url)): Instrument[] {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}
