/**
 * Which chunks of a long list are in the page (QuoteList): the screen's, and up to AHEAD more either side,
 * built one at a time in idle time so that a fling only moves rows already laid out. A row of Chinese names
 * costs a slow phone a few milliseconds of style and layout the first time it is shown; built a chunk at a time
 * between frames, that cost never lands in a frame of the fling itself.
 */

/** A span of chunks, `from` included, `to` not. */
export interface Span {
  from: number;
  to: number;
}

/** Chunks built ahead of each edge of the screen. */
export const AHEAD = 16;
/** Chunks kept beyond AHEAD before they leave the page (a short scroll back rebuilds none). */
export const KEEP = 8;

/** Where the built span should be for a screen showing `screen`, in a list of `chunks` chunks. */
export function targetSpan(screen: Span, chunks: number): Span {
  return { from: Math.max(0, screen.from - AHEAD), to: Math.min(chunks, screen.to + AHEAD) };
}

/**
 * The chunks to render now: those built, widened to the screen's (`want`) if it reached beyond them; the
 * built span is given up only when the screen lands away from it (a jump). The same object when it covers.
 */
export function coverSpan(built: Span, want: Span): Span {
  if (built.from <= want.from && built.to >= want.to) return built;
  if (built.to < want.from || built.from > want.to) return want;
  return { from: Math.min(built.from, want.from), to: Math.max(built.to, want.to) };
}

/**
 * The next span, one chunk at a time: one more towards `target` (first in the direction the list last moved),
 * and one less at an end more than KEEP chunks beyond it. Null: the span is where it should be.
 */
export function nextSpan(built: Span, target: Span, down: boolean): Span | null {
  let { from, to } = built;
  if (down ? to < target.to : from <= target.from && to < target.to) to += 1;
  else if (from > target.from) from -= 1;
  if (from < target.from - KEEP) from += 1;
  if (to > target.to + KEEP) to -= 1;
  return from === built.from && to === built.to ? null : { from, to };
}
