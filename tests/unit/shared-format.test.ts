import { describe, expect, it } from 'vitest';
import {
  formatAsOf,
  exchangeZoneOf,
  formatDateTime,
  formatExchangeTime,
  formatMoney,
  formatPct,
  formatBigNumber,
  formatRate,
} from '../../src/shared/format';

describe('spec §9 number and time formats', () => {
  it('formats money with thousands separators and 2 decimals', () => {
    expect(formatMoney(1234567.8)).toBe('1,234,567.80');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(-1234.567, 'en')).toBe('-1,234.57');
  });

  it("writes market caps and share counts in the units of the reader's market", () => {
    expect(formatBigNumber(2_671_570_200_000, 'zh-CN')).toBe('2.67万亿');
    expect(formatBigNumber(115_308_036_800, 'zh-CN')).toBe('1153.08亿');
    expect(formatBigNumber(52_000, 'zh-CN')).toBe('5.2万');
    expect(formatBigNumber(115_308_036_800, 'zh-TW')).toBe('1153.08億');
    expect(formatBigNumber(2_671_570_200_000, 'zh-TW')).toBe('2.67兆');
    expect(formatBigNumber(2_671_570_200_000, 'en')).toBe('2.67T');
    expect(formatBigNumber(356_030_000, 'en')).toBe('356.03M');
    expect(formatBigNumber(10_960_840_000, 'vi')).toBe('10,96\u00a0T');
    // Small numbers stay as they are; one decimal when asked.
    expect(formatBigNumber(999, 'en')).toBe('999');
    expect(formatBigNumber(1_250_000_000, 'en', 1)).toBe('1.3B');
  });

  it("formats an unsigned rate from a fraction with the locale's decimal mark", () => {
    expect(formatRate(0.001456)).toBe('0.15%');
    expect(formatRate(0.020247, 'vi')).toBe('2,02%');
    expect(formatRate(0, 'en')).toBe('0.00%');
  });

  it('formats a signed percentage from a fraction', () => {
    expect(formatPct(0.0123)).toBe('+1.23%');
    expect(formatPct(-0.05)).toBe('-5.00%');
    expect(formatPct(0)).toBe('0.00%');
    // A move that rounds to nothing has no sign.
    expect(formatPct(-0.00001)).toBe('0.00%');
  });

  it('writes percentages with the reader’s decimal separator', () => {
    expect(formatPct(0.0123, 'vi')).toBe('+1,23%');
    expect(formatPct(-0.05, 'en')).toBe('-5.00%');
    expect(formatRate(0.003, 'vi')).toBe('0,30%');
    expect(formatRate(0.003, 'th')).toBe('0.30%');
    expect(formatRate(0.0005)).toBe('0.05%');
  });

  it('formats epoch ms as yyyy-MM-dd HH:mm:ss in a given zone', () => {
    const ms = Date.UTC(2026, 0, 2, 1, 2, 3);
    expect(formatDateTime(ms, 'UTC')).toBe('2026-01-02 01:02:03');
    expect(formatDateTime(ms, 'Asia/Shanghai')).toBe('2026-01-02 09:02:03');
    expect(formatDateTime(Date.UTC(2026, 5, 30, 23, 59, 59), 'UTC')).toBe('2026-06-30 23:59:59');
  });
});

describe('exchange times in the exchange time zone', () => {
  // 2025-03-18 09:30 in Shanghai is 01:30 UTC: the A-share open a T+1 position becomes sellable.
  const aShareOpen = Date.UTC(2025, 2, 18, 1, 30, 0);

  it('shows an A-share sellable-from as 09:30 Beijing time, whatever the viewer zone', () => {
    expect(formatExchangeTime(aShareOpen, 'beijing', 'Beijing')).toBe('2025-03-18 09:30 Beijing');
    expect(formatExchangeTime(aShareOpen, 'beijing', '北京', true)).toBe('09:30 北京');
    // The phone's zone plays no part: the same instant read in other zones is another wall time.
    expect(formatDateTime(aShareOpen, 'Europe/London')).toBe('2025-03-18 01:30:00');
    expect(formatDateTime(aShareOpen, 'America/Los_Angeles')).toBe('2025-03-17 18:30:00');
  });

  it('shows Hong Kong and New York opens on their own clocks, daylight saving included', () => {
    expect(formatExchangeTime(Date.UTC(2025, 2, 18, 1, 30), 'hongKong', 'Hong Kong', true)).toBe(
      '09:30 Hong Kong',
    );
    // New York is on EDT (UTC−4) from 9 March 2025 and on EST (UTC−5) in January.
    expect(formatExchangeTime(Date.UTC(2025, 2, 18, 13, 30), 'newYork', 'New York', true)).toBe(
      '09:30 New York',
    );
    expect(formatExchangeTime(Date.UTC(2025, 0, 15, 14, 30), 'newYork', 'New York')).toBe(
      '2025-01-15 09:30 New York',
    );
  });

  it('picks the zone by market, and by currency for indexes and futures', () => {
    expect(exchangeZoneOf('a')).toBe('beijing');
    expect(exchangeZoneOf('star')).toBe('beijing');
    expect(exchangeZoneOf('hk')).toBe('hongKong');
    expect(exchangeZoneOf('us')).toBe('newYork');
    expect(exchangeZoneOf('index', 'HKD')).toBe('hongKong');
    expect(exchangeZoneOf('index', 'USD')).toBe('newYork');
    expect(exchangeZoneOf('futures', 'CNY')).toBe('beijing');
  });
});

describe('"as of" a stored answer', () => {
  it('says the time alone for today, the date with it for another day, the year for another year', () => {
    const now = new Date(2026, 10, 26, 18, 5).getTime();
    expect(formatAsOf(new Date(2026, 10, 26, 9, 7).getTime(), now, 'en')).toBe('09:07');
    expect(formatAsOf(new Date(2026, 10, 23, 16, 24).getTime(), now, 'en-GB')).toBe('23 Nov 16:24');
    expect(formatAsOf(new Date(2025, 11, 30, 8, 0).getTime(), now, 'en-GB')).toBe('30 Dec 2025 08:00');
    // In the reader's language.
    expect(formatAsOf(new Date(2026, 10, 23, 16, 24).getTime(), now, 'zh-CN')).toBe('11月23日 16:24');
  });
});
