/**
 * Draws one chart with echarts on an OffscreenCanvas the page handed over, so building options, laying out
 * and painting never block the page. The page forwards its pointer events here; the crosshair's bar goes
 * back to the page for the readout, and the bars in view (after each draw and once a zoom or pan settles)
 * for the text summary and the table.
 */
import type { EChartsType } from 'echarts/core';
import { init } from './echarts-setup';
import { buildKlineOption, initialZoom } from './kline-option';
import type { ChartPalette, ChartSize, ChartView, KlineSeries, PointerMessage } from './kline-types';

/** zrender's handler, which echarts' zoom, pan and crosshair listen to (its DOM proxy is absent in a worker). */
interface ZrHandler {
  dispatch(eventName: string, event: object): void;
  dispatchToElement(target: object, eventName: string, event: object): void;
}

/** zrender stops the events it consumes; a forwarded event has nothing left to stop. */
const inert = { preventDefault() {}, stopPropagation() {}, stopImmediatePropagation() {} };

/**
 * How long a zoom or pan rests before the bars in view go to the page: a drag moves the window every
 * frame, and the page's table and summary need only where it stops.
 */
export const VIEW_SETTLE_MS = 150;

/** The first and last index of the bars in view. */
export interface ViewWindow {
  first: number;
  last: number;
}

/** The category axis' window as echarts worked it out (whole bar indices), from its option. */
function windowOf(chart: EChartsType): ViewWindow | null {
  const zoom = (chart.getOption() as { dataZoom?: { startValue?: unknown; endValue?: unknown }[] })
    .dataZoom?.[0];
  const first = zoom?.startValue;
  const last = zoom?.endValue;
  if (typeof first !== 'number' || typeof last !== 'number') return null;
  return { first: Math.max(0, Math.ceil(first)), last: Math.floor(last) };
}

export class ChartRenderer {
  private readonly chart: EChartsType;
  private hoverIndex: number | null = null;
  private viewTimer: ReturnType<typeof setTimeout> | undefined;
  private reported: ViewWindow | null = null;

  constructor(
    canvas: OffscreenCanvas,
    size: ChartSize,
    onHover: (index: number | null) => void,
    private readonly onView: (window: ViewWindow) => void,
  ) {
    this.chart = init(canvas as unknown as Parameters<typeof init>[0], undefined, {
      renderer: 'canvas',
      width: size.width,
      height: size.height,
      devicePixelRatio: size.dpr,
    });
    this.chart.on('updateAxisPointer', (event) => {
      const info = (event as { axesInfo?: { axisDim: string; value: number }[] }).axesInfo;
      const x = info?.find((a) => a.axisDim === 'x');
      const index = x && Number.isInteger(x.value) ? x.value : null;
      if (index === this.hoverIndex) return;
      this.hoverIndex = index;
      onHover(index);
    });
    this.chart.on('datazoom', () => {
      clearTimeout(this.viewTimer);
      this.viewTimer = setTimeout(() => this.reportView(), VIEW_SETTLE_MS);
    });
  }

  /** Tells the page the bars in view, when they changed since it was last told. */
  private reportView(): void {
    clearTimeout(this.viewTimer);
    const window = windowOf(this.chart);
    if (!window) return;
    if (this.reported && this.reported.first === window.first && this.reported.last === window.last) return;
    this.reported = window;
    this.onView(window);
  }

  /** Redraws; `resetZoom` for a new history (the latest bars in view), else the user's zoom stays. */
  draw(series: KlineSeries, view: ChartView, palette: ChartPalette, resetZoom: boolean): void {
    const option = buildKlineOption(
      series,
      view,
      palette,
      resetZoom ? initialZoom(series.labels.length, series.mode) : undefined,
    );
    this.chart.setOption(option, resetZoom ? { notMerge: true } : { replaceMerge: ['series'] });
    // A new history starts a new view (whatever its indices); a live bar may widen the window.
    if (resetZoom) this.reported = null;
    this.reportView();
  }

  resize(size: ChartSize): void {
    this.chart.resize({ width: size.width, height: size.height });
  }

  pointer(message: PointerMessage): void {
    const handler = this.chart.getZr().handler as unknown as ZrHandler;
    switch (message.type) {
      case 'mousedown':
      case 'mousemove':
      case 'mouseup':
        handler.dispatch(message.type, { ...inert, zrX: message.x, zrY: message.y, which: 1 });
        break;
      case 'mousewheel':
        handler.dispatch('mousewheel', { ...inert, zrX: message.x, zrY: message.y, zrDelta: message.delta });
        break;
      case 'pinch':
        handler.dispatchToElement({}, 'pinch', {
          ...inert,
          zrX: message.x,
          zrY: message.y,
          pinchX: message.x,
          pinchY: message.y,
          pinchScale: message.scale,
          gestureEvent: 'pinch',
        });
        break;
      case 'leave':
        this.chart.dispatchAction({ type: 'hideTip' });
        this.chart.dispatchAction({ type: 'updateAxisPointer', currTrigger: 'leave' });
        break;
    }
  }

  dispose(): void {
    clearTimeout(this.viewTimer);
    this.chart.dispose();
  }
}
