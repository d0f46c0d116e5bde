import { memo, startTransition, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { Adjust, Market } from '../../shared/api/types';
import { lineColorsFor, OVERLAYS, SUB_CHARTS, type Overlay, type SubChart } from '../../shared/chart-lines';
import { formatMoney } from '../../shared/format';
import { effectivePriceColors, priceColors$ } from '../state/price-colors';
import { theme$ } from '../state/theme';
import { paletteFor } from '../theme/themes';
import { barsInView } from './bars-in-view';
import { warmUpKlineWorker, type ChartPalette } from './bridge';
import { chartSummary } from './chart-summary';
import { ChartTable } from './ChartTable';
import { ChipGroup } from './ChipGroup';
import { KlineReadout } from './KlineReadout';
import { ADJUSTS, isDayPeriod, hasAdjustment, PERIOD_LABEL_KEY, type ChartPeriod } from './kline-data';
import { lineNamer } from './line-names';
import { PeriodTabs } from './PeriodTabs';
import { useRevealedInTurn } from './reveal-in-turn';
import { useChartSurface } from './use-chart-surface';
import { useKlineHistory } from './use-kline-history';
import './kline-chart.css';

export interface KlineChartProps {
  code: string;
  market: Market;
  timeZone?: string;
  /** The full-screen /kline view: a taller chart and no link to itself. */
  fullScreen?: boolean;
  initialPeriod?: ChartPeriod;
}

/**
 * The K-line of one stock, index or future: periods from intraday to month, price adjustment, an overlay
 * and a sub-chart, a crosshair readout, pinch and drag zoom, and live updates. Bars come from the API; the
 * worker (through the bridge) computes every indicator and draws with echarts on this chart's canvas,
 * handed over as an OffscreenCanvas, so the page's main thread only moves bars and pointer events. Memoised,
 * so the screen's price refresh does not re-render it; choices render as transitions, which React slices.
 *
 * A screen that opens with a chart first shows (lays out and paints) everything else with a placeholder of
 * the chart's size in its place; the chart's toolbar and canvas follow in a later task, as a transition, so
 * no single task of a low-end phone has to render, lay out and paint the whole screen at once.
 */
export const KlineChart = memo(function KlineChart(props: KlineChartProps) {
  const { LL } = useI18nContext();
  const shown = useRevealedInTurn();
  // The worker starts (and loads echarts off the main thread) while the rest of the screen is shown.
  useEffect(() => {
    const timer = setTimeout(warmUpKlineWorker, 0);
    return () => clearTimeout(timer);
  }, []);
  if (shown) return <KlineChartView {...props} />;
  return (
    <section
      className={`kline kline-pending${props.fullScreen ? ' kline-full' : ''}`}
      aria-busy="true"
      aria-label={`${LL.chart.title()} ${props.code}`}
    >
      <p className="kline-overlay" role="status">
        {LL.chart.loading()}
      </p>
    </section>
  );
});

/** The chart itself, once its turn to render has come: its choices, readout, canvas, summary and table. */
function KlineChartView({
  code,
  market,
  timeZone,
  fullScreen = false,
  initialPeriod = 'day',
}: KlineChartProps) {
  const { LL, locale } = useI18nContext();
  const theme = useSelector(theme$);
  // Candles, volume and MACD bars follow the user's up/down colours (red-up or green-up).
  const convention = useSelector(() => effectivePriceColors(priceColors$.get(), locale));
  const palette = paletteFor(theme, convention);
  const [period, setPeriod] = useState<ChartPeriod>(initialPeriod);
  const [adjust, setAdjust] = useState<Adjust>('none');
  const [overlay, setOverlay] = useState<Overlay>('ma');
  const [sub, setSub] = useState<SubChart>('vol');
  const summaryId = useId();
  const surface = useChartSurface();
  const { hostRef, chartRef, hoverBar, viewRange } = surface;

  const key = `${code}|${period}|${isDayPeriod(period) && hasAdjustment(market) ? adjust : 'none'}`;
  const { up, down, flat, text2, border, accent } = palette;
  const lineColors = lineColorsFor(theme === 'black');
  const chartPalette: ChartPalette = useMemo(
    () => ({ up, down, flat, text2, border, accent, lines: lineColors }),
    [up, down, flat, text2, border, accent, lineColors],
  );
  // The latest look, for the draw that follows a load (which must not wait for a re-render).
  const lookRef = useRef({ view: { overlay, sub }, palette: chartPalette });
  lookRef.current = { view: { overlay, sub }, palette: chartPalette };

  const { current, rows, failure } = useKlineHistory({
    surface,
    historyKey: key,
    code,
    market,
    period,
    timeZone,
    up: chartPalette.up,
    down: chartPalette.down,
    lookRef,
  });

  // A new overlay, sub-chart or theme redraws the same bars, keeping the zoom.
  const loadedKey = current?.key;
  useEffect(() => {
    const chart = chartRef.current?.chart;
    const host = hostRef.current;
    if (!chart || !host || !loadedKey) return;
    const controller = new AbortController();
    chart.draw({ overlay, sub }, chartPalette, false, controller.signal).then(
      () => {
        host.setAttribute('data-overlay', overlay);
        host.setAttribute('data-sub', sub);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [loadedKey, overlay, sub, chartPalette, chartRef, hostRef]);

  const lineName = useMemo(() => lineNamer(LL), [LL]);
  let overlayText: string | null = null;
  if (failure && !current) overlayText = `${LL.chart.failed()}: ${failure.message}`;
  else if (current && current.count === 0) overlayText = LL.chart.empty();
  else if (!current) overlayText = LL.chart.loading();

  const digits = market === 'hk' || market === 'us' ? 3 : 2;
  const fmt = (value: number | null | undefined, d = digits) =>
    value === null || value === undefined || !Number.isFinite(value) ? '--' : formatMoney(value, locale, d);
  const readoutBar = hoverBar ?? current?.last ?? null;

  // What is in view: the bars the worker reports after a zoom or pan, else those the chart opens with.
  const visible = useMemo(() => barsInView(rows, period, viewRange), [rows, period, viewRange]);
  const periodName = LL.chart.period[PERIOD_LABEL_KEY[period]]();
  const summary = current
    ? chartSummary({
        LL,
        locale,
        code,
        periodName,
        visible,
        mode: current.mode,
        last: current.last,
        overlay,
        sub,
        fmt,
        lineName,
      })
    : null;

  return (
    <section
      className={`kline${fullScreen ? ' kline-full' : ''}`}
      aria-label={`${LL.chart.title()} ${code}`}
      data-testid="kline-chart"
    >
      <div className="kline-periods">
        <PeriodTabs period={period} onChoose={(p) => startTransition(() => setPeriod(p))} />
        {!fullScreen && (
          <Link
            className="kline-chip kline-expand"
            to="/kline"
            search={market === 'index' || market === 'futures' ? { code, market } : { code }}
            data-testid="kline-fullscreen"
          >
            {LL.chart.fullScreen()}
          </Link>
        )}
      </div>
      <div className="kline-options">
        {isDayPeriod(period) && hasAdjustment(market) && (
          <ChipGroup
            label={LL.chart.adjustLabel()}
            choices={ADJUSTS}
            chosen={adjust}
            nameOf={(a) => LL.chart.adjust[a]()}
            testIdPrefix="kline-adjust-"
            onChoose={(a) => startTransition(() => setAdjust(a))}
          />
        )}
        {period !== 'intraday' && (
          <ChipGroup
            label={LL.chart.overlayLabel()}
            choices={OVERLAYS}
            chosen={overlay}
            nameOf={(o) => LL.chart.indicator[o]()}
            testIdPrefix="kline-overlay-"
            onChoose={(o) => startTransition(() => setOverlay(o))}
          />
        )}
      </div>
      {readoutBar && current && (
        <KlineReadout
          bar={readoutBar}
          intraday={current.mode === 'intraday'}
          overlay={overlay}
          sub={sub}
          fmt={fmt}
          lineName={lineName}
          lineColors={lineColors}
          labels={{
            open: LL.chart.readout.open(),
            high: LL.chart.readout.high(),
            low: LL.chart.readout.low(),
            close: LL.chart.readout.close(),
            price: LL.chart.readout.price(),
            volume: LL.chart.volume(),
          }}
          locale={locale}
        />
      )}
      {summary && (
        <p className="visually-hidden" id={summaryId} data-testid="kline-summary">
          {summary}
        </p>
      )}
      <div
        className="kline-canvas"
        ref={hostRef}
        data-testid="kline-canvas"
        role="img"
        aria-label={`${LL.chart.title()} ${code}`}
        aria-describedby={summary ? summaryId : undefined}
      />
      {period !== 'intraday' && (
        <ChipGroup
          className="kline-subs"
          label={LL.chart.subLabel()}
          choices={SUB_CHARTS}
          chosen={sub}
          nameOf={(s) => LL.chart.indicator[s]()}
          testIdPrefix="kline-sub-"
          onChoose={(s) => startTransition(() => setSub(s))}
        />
      )}
      <ChartTable
        code={code}
        periodName={periodName}
        rows={current ? visible : []}
        fmt={fmt}
        timeZone={timeZone}
        withTime={!isDayPeriod(period)}
      />
      {overlayText && (
        <p className="kline-overlay" role={failure ? 'alert' : 'status'}>
          {overlayText}
        </p>
      )}
    </section>
  );
}
