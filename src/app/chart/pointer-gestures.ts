/**
 * What the chart's pointers mean, without the DOM (pointer-forwarding.ts feeds it the canvas' events): one
 * finger or the mouse drags (pan) and moves the crosshair, a second finger turns the drag into a pinch
 * (zoom), the wheel zooms. Positions are in the canvas' CSS pixels; each gesture becomes the messages the
 * worker's echarts understands.
 */
import type { PointerMessage } from '../../worker/kline-types';

/** A pinch step smaller than this is noise, not a zoom. */
export const PINCH_STEP = 0.04;

/** One pointer event: its pointer, where it is on the canvas, and what kind of pointer it is. */
export interface PointerInput {
  id: number;
  x: number;
  y: number;
  kind: 'mouse' | 'touch' | 'pen';
}

export class PointerGestures {
  private readonly active = new Map<number, { x: number; y: number }>();
  private pinchDistance = 0;

  constructor(private readonly send: (message: PointerMessage) => void) {}

  /** How many pointers are down. */
  get pressed(): number {
    return this.active.size;
  }

  down({ id, x, y, kind }: PointerInput): void {
    this.active.set(id, { x, y });
    if (this.active.size === 1) this.send({ type: 'mousedown', x, y, touch: kind === 'touch' });
    else if (this.active.size === 2) {
      // The first finger's drag ends where the pinch begins.
      this.send({ type: 'mouseup', x, y, touch: true });
      this.pinchDistance = this.spread().distance;
    }
  }

  move({ id, x, y, kind }: PointerInput): void {
    if (this.active.has(id)) this.active.set(id, { x, y });
    if (this.active.size >= 2) {
      const { distance, centre } = this.spread();
      if (this.pinchDistance > 0 && Math.abs(distance / this.pinchDistance - 1) >= PINCH_STEP) {
        this.send({ type: 'pinch', ...centre, scale: distance / this.pinchDistance });
        this.pinchDistance = distance;
      }
      return;
    }
    this.send({ type: 'mousemove', x, y, touch: kind === 'touch' });
  }

  /** A pointer lifted or cancelled: a one-pointer drag ends there. */
  up({ id, x, y, kind }: PointerInput): void {
    const wasDragging = this.active.size === 1;
    this.active.delete(id);
    if (wasDragging) this.send({ type: 'mouseup', x, y, touch: kind === 'touch' });
  }

  /** The mouse left the canvas with no button down: the crosshair goes. */
  leave({ kind }: Pick<PointerInput, 'kind'>): void {
    if (this.active.size === 0 && kind === 'mouse') this.send({ type: 'leave' });
  }

  /** A wheel turn; `deltaY` as the browser reports it (one notch is 120, down is positive). */
  wheel(x: number, y: number, deltaY: number): void {
    this.send({ type: 'mousewheel', x, y, delta: -deltaY / 120 });
  }

  private spread() {
    const [a, b] = [...this.active.values()];
    return {
      distance: Math.hypot(a!.x - b!.x, a!.y - b!.y),
      centre: { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 },
    };
  }
}
