import { useEffect, useRef, useState } from 'react';
import type { EChartsType } from 'echarts/core';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { toApiError } from '../api/client';
import { isAbortError, type ApiError } from '../api/errors';
import { useCall } from '../api/use-call';
import { theme$ } from '../state/theme';
import { PALETTES } from '../theme/themes';
import { shapeBars, type KlineSeries } from './bridge';
import { buildKlineOption, MA_COLORS } from './kline-option';

/** DOMAIN.md indicators: the chart's first MA lines. */
const MA_PERIODS = [5, 10, 20];
const DAY_BARS = 120;

/**
 * The day K-line of one instrument. Bars come from the API, the worker turns them into series, and
 * this component only hands the result to `chart.setOption`. echarts is loaded when the chart mounts.
 */
export function KlineChart({ code, timeZone }: { code: string; timeZone?: string }) {
  const { LL, locale } = useI18nContext();
  const theme = useSelector(theme$);
  const bars = useCall('GET /api/stock/getDayK.do', { code, period: 'day', adjust: 'none', limit: DAY_BARS });
  const [shaped, setShaped] = useState<{ bars: unknown; series: KlineSeries } | null>(null);
  const [shapeError, setShapeError] = useState<ApiError | Error | null>(null);
  const [chartFailed, setChartFailed] = useState(false);
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const [chartReady, setChartReady] = useState(false);

  const barRows = bars.data?.bars;
  useEffect(() => {
    if (!barRows) return;
    const controller = new AbortController();
    shapeBars(barRows, { maPeriods: MA_PERIODS, timeZone, signal: controller.signal }).then(
      (series) => {
        setShapeError(null);
        setShaped({ bars: barRows, series });
      },
      (error: unknown) => {
        if (!isAbortError(error)) setShapeError(error instanceof Error ? error : toApiError(error));
      },
    );
    return () => controller.abort();
  }, [barRows, timeZone]);

  useEffect(() => {
    let disposed = false;
    let chart: EChartsType | null = null;
    let observer: ResizeObserver | null = null;
    import('./echarts-setup').then(
      ({ init }) => {
        const host = hostRef.current;
        if (disposed || !host) return;
        chart = init(host, undefined, { renderer: 'canvas' });
        chartRef.current = chart;
        const target = chart;
        // Resize on the next frame, not inside the observer's callback, so a resize cannot loop.
        let frame = 0;
        observer = new ResizeObserver(() => {
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(() => {
            if (!target.isDisposed()) target.resize();
          });
        });
        observer.observe(host);
        setChartReady(true);
      },
      () => {
        if (!disposed) setChartFailed(true);
      },
    );
    return () => {
      disposed = true;
      observer?.disconnect();
      chart?.dispose();
      chartRef.current = null;
    };
  }, []);

  const series = shaped && shaped.bars === barRows ? shaped.series : null;
  useEffect(() => {
    const chart = chartRef.current;
    if (!chartReady || !chart || !series) return;
    chart.setOption(
      buildKlineOption(series, PALETTES[theme], {
        candles: LL.chart.candles(),
        volume: LL.chart.volume(),
        ma: (period) => LL.chart.ma({ period }),
      }),
      { notMerge: true },
    );
  }, [chartReady, series, theme, LL]);

  const failure = bars.error ?? shapeError ?? (chartFailed ? new Error(LL.chart.failed()) : null);
  let overlay: string | null = null;
  if (failure && !series) overlay = `${LL.chart.failed()}: ${failure.message}`;
  else if (bars.data && bars.data.bars.length === 0) overlay = LL.chart.empty();
  else if (!series || !chartReady) overlay = LL.chart.loading();

  return (
    <section className="kline" aria-label={`${LL.chart.dayK()} ${code}`} data-testid="kline-chart">
      <div className="kline-toolbar">
        <span className="segment selected">{LL.chart.dayK()}</span>
        <div className="ma-legend">
          {series?.ma.map((line, i) => (
            <span key={line.period} style={{ color: MA_COLORS[i % MA_COLORS.length] }} className="num">
              {LL.chart.ma({ period: line.period })}{' '}
              {line.last === null ? '--' : line.last.toLocaleString(locale, { maximumFractionDigits: 3 })}
            </span>
          ))}
        </div>
      </div>
      <div className="kline-canvas" ref={hostRef} data-ready={chartReady && series ? 'true' : 'false'} />
      {overlay && (
        <p className="kline-overlay" role={failure ? 'alert' : 'status'}>
          {overlay}
        </p>
      )}
    </section>
  );
}
