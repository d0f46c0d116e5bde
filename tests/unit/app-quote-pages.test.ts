import { describe, expect, it } from 'vitest';
import { mergeQuotePages } from '../../src/app/routes/market/quote-pages';
import type { Quote } from '../../src/shared/api/types';

const quote = (code: string, changePct: number): Quote =>
  ({ code, name: code, market: 'a', price: 10, change: changePct / 10, changePct }) as unknown as Quote;

describe("the market list's pages (a list sorted by a live figure)", () => {
  it('shows a stock that moved into the refreshed first window once, where the first window puts it', () => {
    // Page 2 was loaded when B ranked 3rd; since then B rose into the first window.
    const first = [quote('A', 9), quote('B', 8)];
    const page2 = [quote('B', 7), quote('C', 6), quote('D', 5)];
    const rows = mergeQuotePages(first, page2);
    expect(rows.map((q) => q.code)).toEqual(['A', 'B', 'C', 'D']);
    expect(rows[1]!.changePct).toBe(8);
  });

  it('keeps every row, in order, when nothing moved', () => {
    const rows = mergeQuotePages([quote('A', 3), quote('B', 2)], [quote('C', 1), quote('D', 0)]);
    expect(rows.map((q) => q.code)).toEqual(['A', 'B', 'C', 'D']);
  });

  it("keeps the earlier page's row when two later pages both hold a stock", () => {
    const rows = mergeQuotePages([quote('A', 3)], [quote('B', 2), quote('C', 1), quote('B', 0)]);
    expect(rows.map((q) => `${q.code}${q.changePct}`)).toEqual(['A3', 'B2', 'C1']);
  });
});
