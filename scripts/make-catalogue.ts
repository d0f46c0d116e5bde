/**
 * Builds server/market/catalogue.json from the hand-kept lists in scripts/catalogue/*.txt (real codes, names in
 * Chinese and English, pinyin initials, a recent real price level; Hong Kong rows carry their board lot) and
 * scripts/catalogue/names.txt (each code's traditional Chinese name, and a Thai or Vietnamese one where common).
 * The simulation parameters (volatility, average daily volume) are derived here by rule, so the data file is
 * reproducible: `npx tsx scripts/make-catalogue.ts`. Bump CATALOGUE_VERSION when the list changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';

const CATALOGUE_VERSION = 5;
const dir = new URL('./catalogue/', import.meta.url);

function rows(file: string): string[][] {
  return readFileSync(new URL(file, dir), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
}

/** Each code's names in the other languages: zh-TW always; th and vi only where a local name is common. */
const LOCAL_NAMES = new Map(
  rows('names.txt').map(([code, zhTW, th, vi]) => [
    code!,
    { 'zh-TW': zhTW!, ...(th ? { th } : {}), ...(vi ? { vi } : {}) },
  ]),
);

function namesOf(code: string) {
  const names = LOCAL_NAMES.get(code);
  if (!names?.['zh-TW']) throw new Error(`names.txt: no zh-TW name for ${code}`);
  return names;
}

/** The skeleton's 30 instruments keep their tuned parameters, so existing tests and demos see the same market. */
const TUNED: Record<string, [volatility: number, avgDailyVolume: number]> = {
  '600519': [0.25, 3000000],
  '601318': [0.28, 40000000],
  '600036': [0.24, 50000000],
  '000858': [0.3, 15000000],
  '000001': [0.22, 100000000],
  '601398': [0.18, 250000000],
  '600900': [0.16, 60000000],
  '000333': [0.26, 20000000],
  '600030': [0.32, 120000000],
  '601012': [0.45, 100000000],
  '688981': [0.55, 60000000],
  '688111': [0.45, 3000000],
  '688599': [0.5, 30000000],
  '688041': [0.55, 15000000],
  '688012': [0.5, 8000000],
  '00700': [0.32, 18000000],
  '09988': [0.45, 80000000],
  '03690': [0.5, 40000000],
  '01810': [0.5, 150000000],
  '00005': [0.2, 20000000],
  '02318': [0.3, 30000000],
  '00941': [0.18, 15000000],
  '01299': [0.28, 25000000],
  AAPL: [0.28, 50000000],
  MSFT: [0.25, 20000000],
  NVDA: [0.5, 180000000],
  TSLA: [0.6, 90000000],
  AMZN: [0.32, 40000000],
  GOOGL: [0.3, 30000000],
  AMD: [0.55, 45000000],
};

/**
 * New listings inside the simulated window (a simulation input, as the ST flags are: these companies listed
 * earlier in reality). Each date is an SSE/SZSE trading day; the others have traded since before the
 * history starts. Kept away from the tuned instruments the tests and demos lean on.
 */
const LISTINGS: Record<string, string> = {
  '300896': '2025-03-10',
  '002568': '2025-03-14',
  '688819': '2025-06-18',
  '603868': '2025-09-24',
  '688800': '2026-01-15',
  '002648': '2026-04-22',
};

/** Typical daily turnover per market in its currency, spread over the instruments by price. */
const TURNOVER = { a: 6e8, star: 8e8, hk: 4e8, us: 3e9 } as const;
const VOLATILITY = { a: 0.3, star: 0.5, hk: 0.35, us: 0.35 } as const;

type Market = keyof typeof TURNOVER;

function stock(market: Market, r: string[], lotSize: number) {
  const [code, name, nameEn, pinyin, price] = r as [string, string, string, string, string];
  const referencePrice = Number(price);
  const st = /^\*?ST/.test(name);
  const board =
    market === 'a' ? 'main' : market === 'star' ? (code.startsWith('688') ? 'star' : 'chinext') : market;
  const tuned = TUNED[code];
  const volume = Math.max(lotSize, Math.round(TURNOVER[market] / referencePrice / lotSize) * lotSize);
  return {
    code,
    market,
    board,
    ...(st ? { st: true } : {}),
    name,
    nameEn,
    names: namesOf(code),
    pinyin,
    currency: market === 'hk' ? 'HKD' : market === 'us' ? 'USD' : 'CNY',
    lotSize,
    tick: market === 'hk' ? 'hkex' : 0.01,
    referencePrice,
    volatility: tuned ? tuned[0] : st ? 0.45 : VOLATILITY[market],
    avgDailyVolume: tuned ? tuned[1] : volume,
    ...(LISTINGS[code] ? { listedOn: LISTINGS[code] } : {}),
  };
}

const instruments = [
  ...rows('a-shares.txt').map((r) => stock('a', r, 100)),
  // ETFs trade as A-shares at market prices with A-share fees (not at NAV): an index fund's volatility and
  // the exchange's 0.001 fund tick.
  ...rows('etfs.txt').map((r) => ({ ...stock('a', r, 100), tick: 0.001, volatility: 0.2 })),
  ...rows('star-chinext.txt').map((r) => stock('star', r, 100)),
  ...rows('hk.txt').map((r) => stock('hk', r, Number(r[5]))),
  ...rows('us.txt').map((r) => stock('us', r, 1)),
];

for (const code of Object.keys(LISTINGS)) {
  if (!instruments.some((i) => i.code === code)) throw new Error(`LISTINGS: ${code} is not in the lists`);
}

const indexes = rows('indexes.txt').map(([code, region, name, nameEn, pinyin, level, volatility]) => ({
  code,
  region,
  name,
  nameEn,
  names: namesOf(code!),
  pinyin,
  referencePrice: Number(level),
  volatility: Number(volatility),
}));

const futures = rows('futures.txt').map(
  ([code, exchange, name, nameEn, pinyin, price, multiplier, unit, tick, limit, volatility, sessions]) => ({
    code,
    exchange,
    name,
    nameEn,
    names: namesOf(code!),
    pinyin,
    referencePrice: Number(price),
    multiplier: Number(multiplier),
    unit,
    tick: Number(tick),
    limit: Number(limit),
    volatility: Number(volatility),
    sessions: sessions!.split(','),
  }),
);

const data = {
  $comment:
    'Generated by scripts/make-catalogue.ts from scripts/catalogue/*.txt; do not edit by hand. Real codes and names (names: traditional Chinese, and Thai or Vietnamese where a local name is common; English otherwise); referencePrice is a recent real price level the seeded walk reverts to; volatility is annual; lotSize is the board lot (HK real board lots; A-share 100; US 1); tick "hkex" means the HKEX spread table. ST flags are as listed in the source table (a simulation input, not a live status); listedOn marks a simulated new listing inside the history (no bars before it, no price limit for its first five trading days). Futures are main continuous contracts; sessions are Shanghai local time.',
  version: CATALOGUE_VERSION,
  instruments,
  indexes,
  futures,
};

const out = new URL('../server/market/catalogue.json', import.meta.url);
writeFileSync(out, await prettier.format(JSON.stringify(data), { parser: 'json', printWidth: 110 }));
console.log(
  `catalogue v${CATALOGUE_VERSION}: ${instruments.length} stocks, ${indexes.length} indexes, ${futures.length} futures`,
);
