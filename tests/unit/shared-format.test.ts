import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney, formatPct } from '../../src/shared/format';

describe('spec §9 number and time formats', () => {
  it('formats money with thousands separators and 2 decimals', () => {
    expect(formatMoney(1234567.8)).toBe('1,234,567.80');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(-1234.567, 'en')).toBe('-1,234.57');
  });

  it('formats a signed percentage from a fraction', () => {
    expect(formatPct(0.0123)).toBe('+1.23%');
    expect(formatPct(-0.05)).toBe('-5.00%');
    expect(formatPct(0)).toBe('0.00%');
  });

  it('formats epoch ms as yyyy-MM-dd HH:mm:ss in a given zone', () => {
    const ms = Date.UTC(2026, 0, 2, 1, 2, 3);
    expect(formatDateTime(ms, 'UTC')).toBe('2026-01-02 01:02:03');
    expect(formatDateTime(ms, 'Asia/Shanghai')).toBe('2026-01-02 09:02:03');
    expect(formatDateTime(Date.UTC(2026, 5, 30, 23, 59, 59), 'UTC')).toBe('2026-06-30 23:59:59');
  });
});
