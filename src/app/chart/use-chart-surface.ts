import { startTransition, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  createKlineChart,
  type ChartSize,
  type KlineChartHandle,
  type KlinePatch,
  type KlineViewRange,
} from './bridge';
import { forwardPointers } from './pointer-forwarding';

/** What the mount gives the loads: the chart, and when the worker has its canvas (draws wait for it). */
export interface MountedChart {
  chart: KlineChartHandle;
  attached: Promise<void>;
}

export interface ChartSurface {
  /** The element the canvas goes into; its size is the chart's. */
  hostRef: RefObject<HTMLDivElement | null>;
  chartRef: RefObject<MountedChart | null>;
  /** The bar under the crosshair, null when there is none. */
  hoverBar: KlinePatch | null;
  /** The bars the chart shows, as the worker last reported them (after a draw, a zoom or a pan). */
  viewRange: KlineViewRange | null;
  /** Why the canvas could not go to the worker, if it could not. */
  attachFailure: Error | null;
  /** Forgets the crosshair's bar and the view: a new history is on its way. */
  resetView: () => void;
}

/** The chart's size: the host's content box as its last resize observation saw it, and the pixel ratio. */
function sizeOf(entry: ResizeObserverEntry): ChartSize {
  const box = entry.contentBoxSize[0];
  const width = box ? box.inlineSize : entry.contentRect.width;
  const height = box ? box.blockSize : entry.contentRect.height;
  return { width: width || 1, height: height || 1, dpr: window.devicePixelRatio || 1 };
}

/**
 * The chart's canvas, handed to the worker once; the page keeps forwarding its size and pointer events, and
 * hears back the crosshair's bar and the bars in view. The size comes from the resize observer, which
 * reports it after the browser's own layout: reading it here would force the whole new screen's layout into
 * this task.
 */
export function useChartSurface(): ChartSurface {
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<MountedChart | null>(null);
  const [hoverBar, setHoverBar] = useState<KlinePatch | null>(null);
  const [viewRange, setViewRange] = useState<KlineViewRange | null>(null);
  const [attachFailure, setAttachFailure] = useState<Error | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const chart = createKlineChart();
    const canvas = document.createElement('canvas');
    canvas.className = 'kline-surface';
    host.append(canvas);
    /** The host's latest size; undefined until the first resize observation. */
    let size: ChartSize | undefined;
    let attach: () => void = () => undefined;
    const attached = new Promise<void>((resolve, reject) => {
      attach = () => {
        const given = size!;
        chart
          .attach(
            canvas,
            given,
            (bar) => setHoverBar(bar),
            (range) => startTransition(() => setViewRange(range)),
          )
          .then(() => {
            // A resize while the canvas was on its way was not seen by the worker: send the latest size.
            if (size !== given) chart.resize(size!);
            resolve();
          }, reject);
      };
    });
    attached.catch((error: unknown) => {
      setAttachFailure(error instanceof Error ? error : new Error(String(error)));
    });
    chartRef.current = { chart, attached };
    const stopForwarding = forwardPointers(canvas, (message) => chart.pointer(message));
    let frame = 0;
    let attaching = false;
    let attachTimer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      if (!entry) return;
      const latest = sizeOf(entry);
      size = latest;
      if (!attaching) {
        // Handing over the canvas (and the worker's first message) waits for a task of its own, after
        // this frame's paint.
        attachTimer ??= setTimeout(() => {
          attaching = true;
          attach();
        }, 0);
        return;
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => chart.resize(latest));
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(attachTimer);
      stopForwarding();
      chart.close();
      canvas.remove();
      chartRef.current = null;
    };
  }, []);

  const resetView = useCallback(() => {
    setHoverBar(null);
    setViewRange(null);
  }, []);

  return { hostRef, chartRef, hoverBar, viewRange, attachFailure, resetView };
}
