import { describe, expect, it } from 'vitest';
import type { Bar } from '../../src/shared/api/types';
import { CONTENT_LANGS } from '../../src/shared/content';
import { loadCatalogue } from '../../server/market/catalogue';
import type { DayRecord } from '../../server/market/series-spec';
import { ALWAYS_OPEN_HOURS, DAY_MS, REAL_HOURS, isTradingDay } from '../../server/market/sessions';
import { fundamentalsOf, stockFigures } from '../../server/market/stock-figures';
import {
  lastReportingDay,
  parseStockNewsId,
  stockNewsId,
  writeStockNews,
} from '../../server/market/stock-news';

const stocks = loadCatalogue();
const byCode = (code: string) => stocks.find((s) => s.code === code)!;

describe("a stock's seeded fundamentals", () => {
  it('are the same for the same seed and code, and another seed gives others', () => {
    const spdb = byCode('600000');
    expect(fundamentalsOf(spdb, 'seed-a')).toEqual(fundamentalsOf(spdb, 'seed-a'));
    expect(fundamentalsOf(spdb, 'seed-b')).not.toEqual(fundamentalsOf(spdb, 'seed-a'));
  });

  it('are plausible for every stock of the catalogue: its size, its board, a minority of loss-makers', () => {
    let losses = 0;
    for (const stock of stocks) {
      const f = fundamentalsOf(stock, 'paperdesk');
      expect(f.baseShares % 10_000).toBe(0);
      expect(f.baseFloatShares).toBeLessThanOrEqual(f.baseShares);
      // The catalogue's average day trades 0.1% to 4% of the float.
      const turnover = stock.avgDailyVolume / f.baseFloatShares;
      expect(turnover).toBeGreaterThan(0.0009);
      expect(turnover).toBeLessThan(0.041);
      expect(f.baseEps).not.toBe(0);
      const pe = stock.referencePrice / f.baseEps;
      if (f.baseEps < 0) {
        losses++;
        expect(pe).toBeLessThan(-14);
      } else {
        expect(pe).toBeGreaterThan(3.9);
        expect(pe).toBeLessThan(121);
      }
    }
    expect(losses).toBeGreaterThan(stocks.length * 0.04);
    expect(losses).toBeLessThan(stocks.length * 0.3);
  });
});

describe("a stock's figures at a moment", () => {
  const f = { baseShares: 1_000_000_000, baseFloatShares: 800_000_000, baseEps: 0.5 };
  const bars: Bar[] = [
    [1, 10, 12.5, 9.5, 11, 100],
    [2, 11, 11.8, 8.75, 9, 100],
  ];
  const inputs = {
    price: 10,
    volume: 8_000_000,
    bars52w: bars,
    windowStart: 0,
    dividendsTtm: 0.3,
    bonusFactor: 1,
    time: 5,
  };
  const stock = { code: '600000', currency: 'CNY' as const };

  it('price the seeded shares and earnings, and take the 52-week range from the bars', () => {
    const out = stockFigures(stock, f, inputs);
    expect(out.marketCap).toBe(10_000_000_000);
    expect(out.peTtm).toBe(20);
    expect(out.turnoverRate).toBe(0.01);
    expect(out.high52w).toBe(12.5);
    expect(out.low52w).toBe(8.75);
    expect(out.dividendYield).toBe(0.03);
    expect(stockFigures(stock, f, { ...inputs, price: 12 }).marketCap).toBe(12_000_000_000);
  });

  it('give a loss-maker no P/E, and spread shares and earnings over a bonus issue', () => {
    expect(stockFigures(stock, { ...f, baseEps: -0.2 }, inputs).peTtm).toBeNull();
    const split = stockFigures(stock, f, { ...inputs, bonusFactor: 2, price: 5 });
    expect(split.sharesOutstanding).toBe(2_000_000_000);
    expect(split.epsTtm).toBe(0.25);
    expect(split.marketCap).toBe(10_000_000_000);
    expect(split.peTtm).toBe(20);
  });

  it('fall back to the price for the range of a stock without bars yet', () => {
    const out = stockFigures(stock, f, { ...inputs, bars52w: [] });
    expect([out.high52w, out.low52w]).toEqual([10, 10]);
  });
});

describe("a stock's own news", () => {
  const record: DayRecord = {
    day: Date.UTC(2025, 2, 11) / DAY_MS,
    prevClose: 10,
    open: 10.1,
    high: 10.6,
    low: 9.9,
    close: 10.5,
    volume: 1234,
    sigma: 0.01,
    trading: true,
    suspended: false,
    resumed: false,
    listed: true,
    action: { day: Date.UTC(2025, 2, 11) / DAY_MS, cash: 0.25, bonus: 0.3 },
    limits: null,
    factor: 1,
  };
  const day = { instrument: byCode('600000'), record, epsTtm: 0.3167, sharesOutstanding: 1_000_000 };

  it('has stable ids that name the code, the date and the kind', () => {
    const id = stockNewsId('600000', record.day, 'close');
    expect(id).toBe('600000-20250311-close');
    expect(parseStockNewsId(id)).toEqual({ code: '600000', day: record.day, kind: 'close' });
    expect(parseStockNewsId('600000-20250230-close')).toBeNull();
    expect(parseStockNewsId('600000-20250311-rumour')).toBeNull();
  });

  it('is written in each of the five languages from the same facts', () => {
    const titles = new Set<string>();
    for (const lang of CONTENT_LANGS) {
      const close = writeStockNews('close', day, lang, ALWAYS_OPEN_HOURS);
      expect(close.lang).toBe(lang);
      expect(close.title).toContain('5.00');
      expect(close.content).toContain('10.50');
      titles.add(close.title);
      const dividend = writeStockNews('dividend', day, lang, ALWAYS_OPEN_HOURS);
      expect(dividend.title).toContain('0.250');
      expect(dividend.title).toContain('3');
      const results = writeStockNews('results', day, lang, ALWAYS_OPEN_HOURS);
      expect(results.title).toContain('0.3167');
    }
    expect(titles.size).toBe(5);
    expect(writeStockNews('close', day, 'zh-CN', ALWAYS_OPEN_HOURS).title).toBe(
      '浦发银行大涨5.00%，报10.50元',
    );
    expect(writeStockNews('results', { ...day, epsTtm: -0.12 }, 'en', ALWAYS_OPEN_HOURS).title).toBe(
      'Shanghai Pudong Development Bank reports a loss: 0.12 CNY per share over the last twelve months',
    );
  });

  it('reports results once a quarter, on a trading day', () => {
    const hours = REAL_HOURS.a;
    const today = Date.UTC(2025, 2, 11) / DAY_MS;
    const last = lastReportingDay('paperdesk', '600000', today, hours);
    expect(last).toBeLessThanOrEqual(today);
    expect(today - last).toBeLessThan(91 + 10);
    expect(isTradingDay(last, hours)).toBe(true);
    const previous = lastReportingDay('paperdesk', '600000', last - 1 - 10, hours);
    expect(last - previous).toBeGreaterThan(80);
  });
});
