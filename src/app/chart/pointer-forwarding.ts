/**
 * Forwards the canvas' pointer events to the worker's echarts (through the bridge, unqueued): the canvas
 * belongs to the worker, so the page only turns its events into gestures (pointer-gestures.ts).
 */
import type { PointerMessage } from './bridge';
import { PointerGestures, type PointerInput } from './pointer-gestures';

export function forwardPointers(
  canvas: HTMLCanvasElement,
  send: (message: PointerMessage) => void,
): () => void {
  const gestures = new PointerGestures(send);
  const at = (event: PointerEvent | WheelEvent) => {
    const box = canvas.getBoundingClientRect();
    // The full-screen chart held upright is turned a quarter clockwise (kline-chart.css): the chart's x
    // runs down the screen and its y from right to left.
    if (turnedQuarter(canvas)) return { x: event.clientY - box.top, y: box.right - event.clientX };
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const input = (event: PointerEvent): PointerInput => ({
    id: event.pointerId,
    ...at(event),
    kind: event.pointerType === 'touch' ? 'touch' : event.pointerType === 'pen' ? 'pen' : 'mouse',
  });

  const down = (event: PointerEvent) => {
    canvas.setPointerCapture?.(event.pointerId);
    gestures.down(input(event));
  };
  const move = (event: PointerEvent) => gestures.move(input(event));
  const up = (event: PointerEvent) => gestures.up(input(event));
  const leave = (event: PointerEvent) => gestures.leave(input(event));
  const wheel = (event: WheelEvent) => {
    event.preventDefault();
    const { x, y } = at(event);
    gestures.wheel(x, y, event.deltaY);
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

/** Whether the canvas is in the full-screen view while the phone is upright (the view is turned then). */
function turnedQuarter(canvas: HTMLCanvasElement): boolean {
  return canvas.closest('.kline-screen') !== null && matchMedia('(orientation: portrait)').matches;
}
