import { describe, expect, it } from 'vitest';
import {
  AHEAD,
  KEEP,
  coverSpan,
  nextSpan,
  targetSpan,
  type Span,
} from '../../src/app/routes/market/row-span';

describe('the rows a long list builds ahead (QuoteList)', () => {
  it('renders what is built while it covers the screen, widens it when the screen reaches past it, and starts again after a jump', () => {
    const built = { from: 10, to: 30 };
    expect(coverSpan(built, { from: 12, to: 20 })).toBe(built);
    expect(coverSpan(built, { from: 25, to: 34 })).toEqual({ from: 10, to: 34 });
    expect(coverSpan(built, { from: 5, to: 12 })).toEqual({ from: 5, to: 30 });
    expect(coverSpan(built, { from: 100, to: 109 })).toEqual({ from: 100, to: 109 });
  });

  it('builds one chunk at a time, first in the direction the list moves', () => {
    const target = targetSpan({ from: 20, to: 29 }, 200);
    expect(target).toEqual({ from: 20 - AHEAD, to: 29 + AHEAD });
    const built = { from: 18, to: 31 };
    expect(nextSpan(built, target, true)).toEqual({ from: 18, to: 32 });
    expect(nextSpan(built, target, false)).toEqual({ from: 17, to: 31 });
    // Done below: the other side comes next, whatever the direction.
    expect(nextSpan({ from: 18, to: target.to }, target, true)).toEqual({ from: 17, to: target.to });
    expect(nextSpan(target, target, true)).toBeNull();
  });

  it('keeps up to KEEP chunks beyond the target, then lets them go one at a time', () => {
    const target = { from: 40, to: 80 };
    expect(nextSpan({ from: 40 - KEEP, to: 80 + KEEP }, target, true)).toBeNull();
    expect(nextSpan({ from: 40 - KEEP - 3, to: 80 }, target, true)).toEqual({ from: 40 - KEEP - 2, to: 80 });
    expect(nextSpan({ from: 40, to: 80 + KEEP + 1 }, target, false)).toEqual({ from: 40, to: 80 + KEEP });
  });

  it('stops at the ends of the list', () => {
    expect(nextSpan({ from: 0, to: 12 }, targetSpan({ from: 0, to: 9 }, 12), true)).toBeNull();
    expect(targetSpan({ from: 0, to: 5 }, 5)).toEqual({ from: 0, to: 5 });
  });

  it('through a whole fling with one chunk built per chunk scrolled, stays ahead of the screen and bounded', () => {
    const chunks = 262;
    const height = 9;
    let built: Span = { from: 0, to: height };
    // The list at rest first: the idle time builds the chunks ahead.
    for (let next = nextSpan(built, targetSpan({ from: 0, to: height }, chunks), true); next;) {
      built = next;
      next = nextSpan(built, targetSpan({ from: 0, to: height }, chunks), true);
    }
    for (let at = 1; at + height <= chunks; at++) {
      const screen = { from: at, to: at + height };
      expect(coverSpan(built, screen)).toBe(built);
      built = nextSpan(built, targetSpan(screen, chunks), true) ?? built;
      expect(built.to - built.from).toBeLessThanOrEqual(height + 2 * AHEAD + KEEP + 1);
    }
    expect(built.to).toBe(chunks);
  });
});
