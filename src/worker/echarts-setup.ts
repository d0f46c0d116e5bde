/**
 * echarts' core build with only what the K-line chart draws: candlesticks, lines and bars on two grids,
 * an axis-pointer crosshair and inside (pinch and drag) zoom. It runs in the K-line worker on an
 * OffscreenCanvas, so neither its code nor its drawing ever occupies the page's main thread.
 */
// echarts' `use` registers chart parts; renamed so it does not read as a React hook.
import { init, setPlatformAPI, use as registerParts } from 'echarts/core';
import { BarChart, CandlestickChart, LineChart } from 'echarts/charts';
import { DataZoomInsideComponent, GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([
  CandlestickChart,
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  DataZoomInsideComponent,
  CanvasRenderer,
]);

// A worker has no document: echarts measures text on an OffscreenCanvas instead.
type PlatformApi = Parameters<typeof setPlatformAPI>[0];
setPlatformAPI({
  createCanvas: (() => new OffscreenCanvas(1, 1)) as unknown as NonNullable<PlatformApi['createCanvas']>,
});

export { init };
