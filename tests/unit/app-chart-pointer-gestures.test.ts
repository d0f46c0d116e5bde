import { describe, expect, it } from 'vitest';
import { PINCH_STEP, PointerGestures, type PointerInput } from '../../src/app/chart/pointer-gestures';
import type { PointerMessage } from '../../src/worker/kline-types';

/** Gestures whose messages (what the bridge forwards to the worker, unqueued) the test reads. */
function recorder() {
  const sent: PointerMessage[] = [];
  const gestures = new PointerGestures((message) => sent.push(message));
  /** The messages sent since the last call. */
  const take = () => sent.splice(0, sent.length);
  return { gestures, take };
}

const mouse = (x: number, y: number): PointerInput => ({ id: 1, x, y, kind: 'mouse' });
const finger = (id: number, x: number, y: number): PointerInput => ({ id, x, y, kind: 'touch' });

describe('the chart pointer forwarding (page side of the bridge)', () => {
  it('forwards a mouse drag as press, moves and release, at canvas positions', () => {
    const { gestures, take } = recorder();
    gestures.down(mouse(10, 20));
    gestures.move(mouse(30, 22));
    gestures.move(mouse(50, 25));
    gestures.up(mouse(50, 25));
    expect(take()).toEqual([
      { type: 'mousedown', x: 10, y: 20, touch: false },
      { type: 'mousemove', x: 30, y: 22, touch: false },
      { type: 'mousemove', x: 50, y: 25, touch: false },
      { type: 'mouseup', x: 50, y: 25, touch: false },
    ]);
    expect(gestures.pressed).toBe(0);
  });

  it('moves the crosshair on hover and hides it when the mouse leaves, not during a drag', () => {
    const { gestures, take } = recorder();
    gestures.move(mouse(5, 6));
    gestures.leave({ kind: 'mouse' });
    expect(take()).toEqual([{ type: 'mousemove', x: 5, y: 6, touch: false }, { type: 'leave' }]);

    gestures.down(mouse(1, 1));
    gestures.leave({ kind: 'mouse' });
    expect(take()).toEqual([{ type: 'mousedown', x: 1, y: 1, touch: false }]);
    // A finger lifted off the screen is not the mouse leaving: the crosshair stays where the finger was.
    gestures.up(mouse(1, 1));
    take();
    gestures.leave({ kind: 'touch' });
    expect(take()).toEqual([]);
  });

  it('turns a second finger into a pinch: the drag ends, then zoom steps about the midpoint', () => {
    const { gestures, take } = recorder();
    gestures.down(finger(1, 100, 100));
    gestures.move(finger(1, 110, 100));
    gestures.down(finger(2, 150, 100));
    expect(take()).toEqual([
      { type: 'mousedown', x: 100, y: 100, touch: true },
      { type: 'mousemove', x: 110, y: 100, touch: true },
      // The drag ends where the pinch begins (at the second finger).
      { type: 'mouseup', x: 150, y: 100, touch: true },
    ]);

    // The fingers 40 px apart move to 60 px apart: a 1.5× pinch centred between them.
    gestures.move(finger(2, 170, 100));
    expect(take()).toEqual([{ type: 'pinch', x: 140, y: 100, scale: 1.5 }]);

    // A change below the pinch step is noise: nothing is sent, and the next step counts from 60 px.
    const tiny = 60 * (1 + PINCH_STEP / 2);
    gestures.move(finger(2, 110 + tiny, 100));
    expect(take()).toEqual([]);
    gestures.move(finger(1, 140, 100));
    const [pinch] = take();
    expect(pinch).toMatchObject({ type: 'pinch', y: 100 });
    // Finger 1 (at 110) moves to 140: the fingers are now 110 + tiny − 140 apart, against 60 before.
    expect(pinch?.type === 'pinch' && pinch.scale).toBeCloseTo((110 + tiny - 140) / 60, 12);
    expect(pinch?.type === 'pinch' && pinch.x).toBeCloseTo((140 + 110 + tiny) / 2, 12);

    // Lifting one finger of a pinch sends no release; the last finger's lift does not either (no drag).
    gestures.up(finger(2, 170, 100));
    gestures.move(finger(1, 141, 100));
    gestures.up(finger(1, 141, 100));
    expect(take()).toEqual([
      { type: 'mousemove', x: 141, y: 100, touch: true },
      { type: 'mouseup', x: 141, y: 100, touch: true },
    ]);
    expect(gestures.pressed).toBe(0);
  });

  it('ignores moves of a third finger beyond the two that pinch', () => {
    const { gestures, take } = recorder();
    gestures.down(finger(1, 0, 0));
    gestures.down(finger(2, 100, 0));
    gestures.down(finger(3, 50, 50));
    take();
    gestures.move(finger(3, 60, 60));
    expect(take()).toEqual([]);
  });

  it('zooms with the wheel: one notch down is one step out', () => {
    const { gestures, take } = recorder();
    gestures.wheel(40, 50, 120);
    gestures.wheel(40, 50, -240);
    expect(take()).toEqual([
      { type: 'mousewheel', x: 40, y: 50, delta: -1 },
      { type: 'mousewheel', x: 40, y: 50, delta: 2 },
    ]);
  });
});
