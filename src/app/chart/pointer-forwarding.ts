/**
 * Turns the canvas' pointer events into the messages the worker's echarts understands: one finger or
 * the mouse drags (pan) and moves the crosshair, two fingers pinch (zoom), the wheel zooms.
 */
import type { PointerMessage } from './bridge';

/** A pinch step smaller than this is noise, not a zoom. */
const PINCH_STEP = 0.04;

export function forwardPointers(
  canvas: HTMLCanvasElement,
  send: (message: PointerMessage) => void,
): () => void {
  const active = new Map<number, { x: number; y: number }>();
  let pinchDistance = 0;
  const at = (event: PointerEvent | WheelEvent) => {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const spread = () => {
    const [a, b] = [...active.values()];
    return {
      distance: Math.hypot(a!.x - b!.x, a!.y - b!.y),
      centre: { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 },
    };
  };

  const down = (event: PointerEvent) => {
    const point = at(event);
    active.set(event.pointerId, point);
    canvas.setPointerCapture?.(event.pointerId);
    if (active.size === 1) send({ type: 'mousedown', ...point, touch: event.pointerType === 'touch' });
    else if (active.size === 2) {
      // The first finger's drag ends where the pinch begins.
      send({ type: 'mouseup', ...point, touch: true });
      pinchDistance = spread().distance;
    }
  };
  const move = (event: PointerEvent) => {
    const point = at(event);
    if (active.has(event.pointerId)) active.set(event.pointerId, point);
    if (active.size >= 2) {
      const { distance, centre } = spread();
      if (pinchDistance > 0 && Math.abs(distance / pinchDistance - 1) >= PINCH_STEP) {
        send({ type: 'pinch', ...centre, scale: distance / pinchDistance });
        pinchDistance = distance;
      }
      return;
    }
    send({ type: 'mousemove', ...point, touch: event.pointerType === 'touch' });
  };
  const up = (event: PointerEvent) => {
    const wasDragging = active.size === 1;
    active.delete(event.pointerId);
    if (wasDragging) send({ type: 'mouseup', ...at(event), touch: event.pointerType === 'touch' });
  };
  const leave = (event: PointerEvent) => {
    if (active.size === 0 && event.pointerType === 'mouse') send({ type: 'leave' });
  };
  const wheel = (event: WheelEvent) => {
    event.preventDefault();
    send({ type: 'mousewheel', ...at(event), delta: -event.deltaY / 120 });
  };

  canvas.addEventListener('pointerdown', down);
  canvas.addEventListener('pointermove', move);
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('pointerleave', leave);
  canvas.addEventListener('wheel', wheel, { passive: false });
  return () => {
    canvas.removeEventListener('pointerdown', down);
    canvas.removeEventListener('pointermove', move);
    canvas.removeEventListener('pointerup', up);
    canvas.removeEventListener('pointercancel', up);
    canvas.removeEventListener('pointerleave', leave);
    canvas.removeEventListener('wheel', wheel);
  };
}
