/**
 * Draws one chart with echarts on an OffscreenCanvas the page handed over, so building options, laying out
 * and painting never block the page. The page forwards its pointer events here; the crosshair's bar goes
 * back to the page for the readout.
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

export class ChartRenderer {
  private readonly chart: EChartsType;
  private hoverIndex: number | null = null;

  constructor(canvas: OffscreenCanvas, size: ChartSize, onHover: (index: number | null) => void) {
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
    this.chart.dispose();
  }
}
