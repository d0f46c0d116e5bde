import { describe, expect, it } from 'vitest';
import { barsInView, mergeRows } from '../../src/app/chart/bars-in-view';
import type { Bar } from '../../src/shared/api/types';
import { VISIBLE_BARS } from '../../src/shared/chart-lines';

const DAY = 86_400_000;
/** `n` day bars from day 0, each closing at its index (so a bar is known by its close). */
const days = (n: number): Bar[] => Array.from({ length: n }, (_, i) => [i * DAY, i, i + 1, i - 1, i, 100]);
const range = (first: number, last: number) => ({
  first,
  last,
  firstTime: first * DAY,
  lastTime: last * DAY,
});

describe('the bars in the chart view (the text summary and the table)', () => {
  it('lists the bars of the reported window, first to last, after a zoom or a pan', () => {
    const shown = barsInView(days(500), 'day', range(120, 150));
    expect(shown.map((bar) => bar[4])).toEqual(Array.from({ length: 31 }, (_, i) => 120 + i));
  });

  it('opens with the latest VISIBLE_BARS bars, or the whole intraday session, before any window is reported', () => {
    const rows = days(500);
    expect(barsInView(rows, 'day', null)).toEqual(rows.slice(-VISIBLE_BARS));
    expect(barsInView(rows, 'intraday', null)).toBe(rows);
  });

  it("ignores a window of another history (its first bar's time is not among these bars)", () => {
    const rows = days(500).map((bar): Bar => [
      bar[0] + 3_600_000,
      ...(bar.slice(1) as [number, number, number, number, number]),
    ]);
    expect(barsInView(rows, 'week', range(10, 40))).toEqual(rows.slice(-VISIBLE_BARS));
  });

  it('takes in a live bar appended at the end of the window', () => {
    const rows = days(100);
    const live = mergeRows(rows, [[100 * DAY, 99, 101, 98, 100.5, 10]]);
    expect(barsInView(live, 'day', range(90, 100)).map((bar) => bar[4])).toEqual([
      90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100.5,
    ]);
  });
});

describe('the page copy of the history as live rows arrive', () => {
  it('replaces the last bar at the same time, appends a later one and skips older ones', () => {
    const rows = days(3);
    const merged = mergeRows(rows, [
      [1 * DAY, 9, 9, 9, 9, 9],
      [2 * DAY, 2, 4, 1, 3.5, 150],
      [3 * DAY, 3.5, 4, 3, 3.8, 20],
    ]);
    expect(merged.map((bar) => bar[4])).toEqual([0, 1, 3.5, 3.8]);
    expect(rows.map((bar) => bar[4])).toEqual([0, 1, 2]);
  });
});
