import type { Bar } from '../shared/api/types';

/** The most bars one chart keeps offline: two years of days, or the minute call's five days of 1-minute bars. */
export const MAX_STORED_BARS = 2000;

/**
 * Merges newly received bars into the stored ones by their time (a bar's first field): a new bar replaces
 * a stored bar of the same time (the current bar grows during its period), the result is in time order and
 * keeps the newest `max` bars.
 */
export function mergeBars(stored: readonly Bar[], incoming: readonly Bar[], max = MAX_STORED_BARS): Bar[] {
  const byTime = new Map<number, Bar>();
  for (const bar of stored) byTime.set(bar[0], bar);
  for (const bar of incoming) byTime.set(bar[0], bar);
  const merged = [...byTime.values()].sort((a, b) => a[0] - b[0]);
  return merged.length > max ? merged.slice(merged.length - max) : merged;
}

/** The stored bars a call with `before` (exclusive time) and `limit` would have answered. */
export function sliceBars(bars: readonly Bar[], before?: number, limit?: number): Bar[] {
  const upTo = before === undefined ? bars.length : bars.findIndex((bar) => bar[0] >= before);
  const end = upTo === -1 ? bars.length : upTo;
  const start = limit === undefined ? 0 : Math.max(0, end - limit);
  return bars.slice(start, end);
}
