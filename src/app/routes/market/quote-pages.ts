import type { Quote } from '../../../shared/api/types';

/**
 * The market list's rows: the refreshed first window, then the pages loaded after it. In a list sorted by a
 * live figure (change, price, turnover) a stock can move between the first window, refreshed every few seconds,
 * and a later page loaded before it moved: it is shown once, where the fresher answer (the first window, then
 * the earlier page) puts it.
 */
export function mergeQuotePages(first: readonly Quote[], later: readonly Quote[]): Quote[] {
  const seen = new Set<string>();
  const rows: Quote[] = [];
  for (const quote of [...first, ...later]) {
    if (seen.has(quote.code)) continue;
    seen.add(quote.code);
    rows.push(quote);
  }
  return rows;
}
