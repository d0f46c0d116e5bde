/**
 * The K-line worker: shapes bars, computes indicators and draws the chart off the main thread (design
 * card). It exposes one services object through Comlink; the page reaches it only through
 * src/app/chart/bridge.ts. Each chart on the page has a slot here with its bars and indicator state (so a
 * live bar costs one bar's work, not the history's) and, once the page hands over its canvas, the echarts
 * instance that draws it.
 */
import * as Comlink from 'comlink';
import type { EChartsType } from 'echarts/core';
import { ChartRenderer } from './chart-render';
import { init } from './echarts-setup';
import { buildEquityOption, equitySummary, type EquityRequest, type EquitySummary } from './equity-option';
import { applyPatches, KlineSession } from './kline-shape';
import type {
  ChartPalette,
  ChartSize,
  ChartView,
  KlinePatch,
  KlineSeries,
  KlineSummary,
  KlineViewRange,
  LiveBar,
  OpenSeriesRequest,
  PointerMessage,
} from './kline-types';

interface ChartSlot {
  session: KlineSession | null;
  series: KlineSeries | null;
  renderer: ChartRenderer | null;
  look: { view: ChartView; palette: ChartPalette } | null;
  onBar: ((bar: KlinePatch | null) => void) | null;
  onView: ((range: KlineViewRange) => void) | null;
}

const charts = new Map<number, ChartSlot>();
/** The equity curves on the page (a competition's), by chart id: each an echarts instance on its canvas. */
const equityCharts = new Map<number, EChartsType>();

function slot(id: number): ChartSlot {
  let found = charts.get(id);
  if (!found) {
    found = { session: null, series: null, renderer: null, look: null, onBar: null, onView: null };
    charts.set(id, found);
  }
  return found;
}

function sessionOf(id: number): KlineSession {
  const session = charts.get(id)?.session;
  if (!session) throw new Error(`K-line chart ${id} has no bars`);
  return session;
}

function live(id: number, patch: KlinePatch): KlinePatch {
  const chart = slot(id);
  if (chart.series) applyPatches(chart.series, [patch]);
  if (chart.series && chart.renderer && chart.look) {
    chart.renderer.draw(chart.series, chart.look.view, chart.look.palette, false);
  }
  return patch;
}

const services = {
  /**
   * Takes over the page's canvas for chart `id`; `onBar` receives the values of the bar under the
   * crosshair (null when it leaves), `onView` the bars in view after each draw and each settled zoom or pan.
   */
  attachCanvas(
    id: number,
    canvas: OffscreenCanvas,
    size: ChartSize,
    onBar: (bar: KlinePatch | null) => void,
    onView: (range: KlineViewRange) => void,
  ): void {
    const chart = slot(id);
    chart.renderer?.dispose();
    chart.onBar = onBar;
    chart.onView = onView;
    chart.renderer = new ChartRenderer(
      canvas,
      size,
      (index) => {
        chart.onBar?.(index === null ? null : (chart.session?.barAt(index) ?? null));
      },
      ({ first, last }) => {
        const firstTime = chart.session?.timeAt(first);
        const lastTime = chart.session?.timeAt(Math.min(last, (chart.session?.length ?? 0) - 1));
        if (firstTime == null || lastTime == null) return;
        chart.onView?.({ first, last, firstTime, lastTime });
      },
    );
  },
  /** Loads (or replaces) chart `id`'s bars from transferred columns and computes every indicator. */
  openSeries(id: number, request: OpenSeriesRequest): KlineSummary {
    const chart = slot(id);
    const session = new KlineSession(request);
    chart.session = session;
    chart.series = session.series();
    return { mode: session.mode, count: session.length, last: session.barAt(session.length - 1) };
  },
  /** Draws chart `id` on its canvas: a new history (`resetZoom`), or a new overlay, sub-chart or theme. */
  draw(id: number, view: ChartView, palette: ChartPalette, resetZoom: boolean): void {
    const chart = slot(id);
    chart.look = { view, palette };
    if (chart.series && chart.renderer) chart.renderer.draw(chart.series, view, palette, resetZoom);
  },
  /** A new latest bar: computes and redraws that bar only. */
  appendBar(id: number, bar: LiveBar): KlinePatch {
    return live(id, sessionOf(id).appendBar(bar));
  },
  /** The latest bar changed (a live tick): recomputes and redraws that bar only. */
  updateLastBar(id: number, bar: LiveBar): KlinePatch {
    return live(id, sessionOf(id).updateLastBar(bar));
  },
  resize(id: number, size: ChartSize): void {
    charts.get(id)?.renderer?.resize(size);
  },
  pointer(id: number, message: PointerMessage): void {
    const chart = charts.get(id);
    chart?.renderer?.pointer(message);
    if (message.type === 'leave') chart?.onBar?.(null);
  },
  /** Takes over the page's canvas for equity curve `id`. */
  attachEquityCanvas(id: number, canvas: OffscreenCanvas, size: ChartSize): void {
    equityCharts.get(id)?.dispose();
    equityCharts.set(
      id,
      init(canvas as unknown as Parameters<typeof init>[0], undefined, {
        renderer: 'canvas',
        width: size.width,
        height: size.height,
        devicePixelRatio: size.dpr,
      }),
    );
  },
  /** Shapes and draws equity curve `id` (when its canvas is attached); answers the figures of its summary. */
  drawEquity(id: number, request: EquityRequest, palette: ChartPalette): EquitySummary {
    equityCharts.get(id)?.setOption(buildEquityOption(request, palette), { notMerge: true });
    return equitySummary(request);
  },
  resizeEquity(id: number, size: ChartSize): void {
    equityCharts.get(id)?.resize({ width: size.width, height: size.height });
  },
  closeEquity(id: number): void {
    equityCharts.get(id)?.dispose();
    equityCharts.delete(id);
  },
  closeChart(id: number): void {
    const chart = charts.get(id);
    chart?.renderer?.dispose();
    // The callbacks are Comlink proxies of the page's functions: release their ports.
    for (const callback of [chart?.onBar, chart?.onView]) {
      (callback as { [Comlink.releaseProxy]?: () => void } | null | undefined)?.[Comlink.releaseProxy]?.();
    }
    charts.delete(id);
  },
};

Comlink.expose(services);

export type KlineServices = typeof services;
