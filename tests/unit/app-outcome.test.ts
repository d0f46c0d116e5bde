import { describe, expect, it } from 'vitest';
import { INTENT_WINDOW_MS, intentKey, requestIdFor, settleIntent } from '../../src/app/api/request-id';

describe('the requestId belongs to the order (outcome.ts)', () => {
  const order = { code: 'AAPL', lots: 1, leverage: 2, direction: 'long' };

  it('names an order by its call and fields, whatever their order and without its requestId', () => {
    const key = intentKey('POST /user/buy.do', order);
    expect(intentKey('POST /user/buy.do', { direction: 'long', leverage: 2, lots: 1, code: 'AAPL' })).toBe(
      key,
    );
    expect(intentKey('POST /user/buy.do', { ...order, requestId: 'x'.repeat(16) })).toBe(key);
    expect(intentKey('POST /user/buy.do', { ...order, lots: 2 })).not.toBe(key);
    expect(intentKey('POST /user/buyIndex.do', order)).not.toBe(key);
  });

  it('keeps the id within the window of its last use, a new one after it or once the station answered', () => {
    const key = intentKey('POST /user/buy.do', { ...order, code: 'MSFT' });
    const t0 = 1_000_000;
    const first = requestIdFor(key, t0);
    expect(requestIdFor(key, t0 + INTENT_WINDOW_MS - 1)).toBe(first);
    // Each use starts the window again.
    expect(requestIdFor(key, t0 + 2 * INTENT_WINDOW_MS - 2)).toBe(first);
    const later = requestIdFor(key, t0 + 4 * INTENT_WINDOW_MS);
    expect(later).not.toBe(first);
    settleIntent(key);
    expect(requestIdFor(key, t0 + 4 * INTENT_WINDOW_MS + 1)).not.toBe(later);
    // Another order has its own id.
    expect(requestIdFor(intentKey('POST /user/buy.do', order), t0 + 4 * INTENT_WINDOW_MS)).not.toBe(later);
  });
});
