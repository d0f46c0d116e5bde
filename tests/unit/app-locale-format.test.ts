import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney } from '../../src/shared/format';

describe('numbers and times in each of the five languages', () => {
  it('groups thousands and keeps 2 decimals as each language writes them', () => {
    expect(formatMoney(1234567.8, 'zh-CN')).toBe('1,234,567.80');
    expect(formatMoney(1234567.8, 'zh-TW')).toBe('1,234,567.80');
    expect(formatMoney(1234567.8, 'en')).toBe('1,234,567.80');
    expect(formatMoney(1234567.8, 'th')).toBe('1,234,567.80');
    // Vietnamese groups with dots and writes the decimal comma.
    expect(formatMoney(1234567.8, 'vi')).toBe('1.234.567,80');
    expect(formatMoney(-0.5, 'vi')).toBe('-0,50');
  });

  it('writes timestamps as yyyy-MM-dd HH:mm:ss whatever the language', () => {
    expect(formatDateTime(Date.UTC(2025, 2, 12, 1, 2, 3), 'UTC')).toBe('2025-03-12 01:02:03');
  });
});
