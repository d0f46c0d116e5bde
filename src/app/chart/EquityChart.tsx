import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { EquityPoint } from '../../shared/api/competitions';
import { lineColorsFor } from '../../shared/chart-lines';
import { formatMoney, formatPct } from '../../shared/format';
import { effectivePriceColors, priceColors$ } from '../state/price-colors';
import { theme$ } from '../state/theme';
import { paletteFor } from '../theme/themes';
import {
  createEquityChart,
  type ChartPalette,
  type ChartSize,
  type EquityChartHandle,
  type EquitySummary,
} from './bridge';
import './kline-chart.css';

/** The canvas' size from a resize observation: the host's content box and the pixel ratio. */
function sizeOf(entry: ResizeObserverEntry): ChartSize {
  const box = entry.contentBoxSize[0];
  return {
    width: (box ? box.inlineSize : entry.contentRect.width) || 1,
    height: (box ? box.blockSize : entry.contentRect.height) || 1,
    dpr: window.devicePixelRatio || 1,
  };
}

/**
 * The canvas of one equity curve, handed to the chart worker once its size is known (a resize
 * observation, after the browser's own layout); later sizes follow it.
 */
function useEquitySurface() {
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<{ chart: EquityChartHandle; attached: Promise<void> } | null>(null);
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const chart = createEquityChart();
    const canvas = document.createElement('canvas');
    canvas.className = 'kline-surface';
    host.append(canvas);
    let attach: (size: ChartSize) => void = () => undefined;
    const attached = new Promise<void>((resolve, reject) => {
      attach = (size) => void chart.attach(canvas, size).then(resolve, reject);
    });
    attached.catch(() => undefined);
    chartRef.current = { chart, attached };
    let first = true;
    const observer = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      if (!entry) return;
      if (first) attach(sizeOf(entry));
      else chart.resize(sizeOf(entry));
      first = false;
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      chart.close();
      canvas.remove();
      chartRef.current = null;
    };
  }, []);
  return { hostRef, chartRef };
}

/**
 * A competition entrant's daily equity curve: drawn by the chart worker on this canvas (which also works out
 * the figures of its text summary: the page does no chart maths), with the summary as the canvas'
 * description and the days as a table on request.
 */
export function EquityChart({ points, name }: { points: readonly EquityPoint[]; name: string }) {
  const { LL, locale } = useI18nContext();
  const theme = useSelector(theme$);
  const convention = useSelector(() => effectivePriceColors(priceColors$.get(), locale));
  const { up, down, flat, text2, border, accent } = paletteFor(theme, convention);
  const lineColors = lineColorsFor(theme === 'black');
  const palette: ChartPalette = useMemo(
    () => ({ up, down, flat, text2, border, accent, lines: lineColors }),
    [up, down, flat, text2, border, accent, lineColors],
  );
  const { hostRef, chartRef } = useEquitySurface();
  const [summary, setSummary] = useState<EquitySummary | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const summaryId = useId();

  useEffect(() => {
    const mounted = chartRef.current;
    const host = hostRef.current;
    if (!mounted || !host) return;
    const controller = new AbortController();
    mounted.attached
      .then(() => mounted.chart.draw(points, palette, controller.signal))
      .then(
        (figures) => {
          setSummary(figures);
          setFailure(null);
          host.setAttribute('data-points', String(figures.count));
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setFailure(error instanceof Error ? error : new Error(String(error)));
        },
      );
    return () => controller.abort();
  }, [points, palette, chartRef, hostRef]);

  const money = (value: number | null) => (value === null ? '--' : formatMoney(value, locale));
  const text =
    summary && summary.count > 0
      ? LL.compTrade.equitySummary({
          count: summary.count,
          first: summary.firstDay ?? '',
          last: summary.lastDay ?? '',
          total: money(summary.last),
          pct: summary.lastReturn === null ? '--' : formatPct(summary.lastReturn, locale),
          high: money(summary.high),
          low: money(summary.low),
        })
      : null;
  return (
    <>
      {text && (
        <p className="muted small equity-summary" id={summaryId} data-testid="equity-summary">
          {text}
        </p>
      )}
      <div
        className="kline-canvas equity-canvas"
        ref={hostRef}
        data-testid="equity-canvas"
        role="img"
        aria-label={`${LL.compTrade.equityTitle()} ${name}`}
        aria-describedby={text ? summaryId : undefined}
      />
      {failure && (
        <p className="inline-error" role="alert">
          {`${LL.chart.failed()}: ${failure.message}`}
        </p>
      )}
      <EquityTable points={points} name={name} />
    </>
  );
}

/** The "show as table" control and, when pressed, every day of the curve, newest first. */
function EquityTable({ points, name }: { points: readonly EquityPoint[]; name: string }) {
  const { LL, locale } = useI18nContext();
  const [shown, setShown] = useState(false);
  const tableId = useId();
  return (
    <>
      <div className="kline-table-toggle">
        <button
          type="button"
          className="kline-chip small"
          aria-expanded={shown}
          aria-controls={tableId}
          data-testid="equity-table-toggle"
          onClick={() => setShown((now) => !now)}
        >
          {shown ? LL.chart.hideTable() : LL.chart.showTable()}
        </button>
      </div>
      {shown && (
        <div className="kline-table-wrap">
          <table className="kline-table num" id={tableId} data-testid="equity-table">
            <caption>{LL.compTrade.equityTable.caption({ name, count: points.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{LL.compTrade.equityTable.day()}</th>
                <th scope="col">{LL.compTrade.equityTable.totalAssets()}</th>
                <th scope="col">{LL.compTrade.equityTable.returnPct()}</th>
              </tr>
            </thead>
            <tbody>
              {points
                .slice()
                .reverse()
                .map((point) => (
                  <tr key={point.day} data-testid="equity-row">
                    <th scope="row">{point.day}</th>
                    <td data-value={String(point.totalAssets)}>{formatMoney(point.totalAssets, locale)}</td>
                    <td>{formatPct(point.returnPct, locale)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
