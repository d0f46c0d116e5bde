/**
 * Spreads a screen's first render over several frames: a part that calls `useRevealedInTurn()` first
 * renders its placeholder, and is revealed (re-rendered as a transition) after the screen's frame is
 * painted; parts waiting at the same time are revealed one per frame, in the order they mounted. So a
 * low-end phone never has to render, lay out and paint a whole screen in one task (the detail screen: its
 * quote first, then the order book, then the chart).
 */
import { startTransition, useEffect, useState } from 'react';

type Reveal = () => void;

const waiting: Reveal[] = [];
/** The part being revealed: the next one waits until its reveal has been committed. */
let active: Reveal | null = null;
let pumping = false;

/**
 * Calls `then` once the next frame is painted: a `requestAnimationFrame` runs just before that paint and a
 * timeout set there runs just after it, in a task of its own.
 */
function afterNextPaint(then: () => void): void {
  requestAnimationFrame(() => {
    setTimeout(then, 0);
  });
}

function pump(): void {
  if (pumping || active || waiting.length === 0) return;
  pumping = true;
  afterNextPaint(() => {
    pumping = false;
    if (active) return;
    const next = waiting.shift();
    if (!next) return;
    active = next;
    next();
  });
}

/** The part's reveal is on the screen (or the part is gone): the next part's turn comes after a paint. */
function finished(reveal: Reveal): void {
  const at = waiting.indexOf(reveal);
  if (at >= 0) waiting.splice(at, 1);
  if (active === reveal) {
    active = null;
    pump();
  }
}

/** False on the first render; true from the render that reveals this part, in its turn. */
export function useRevealedInTurn(): boolean {
  const [revealed, setRevealed] = useState(false);
  const [reveal] = useState<Reveal>(() => () => startTransition(() => setRevealed(true)));
  useEffect(() => {
    waiting.push(reveal);
    pump();
    return () => finished(reveal);
  }, [reveal]);
  useEffect(() => {
    if (revealed) finished(reveal);
  }, [revealed, reveal]);
  return revealed;
}
