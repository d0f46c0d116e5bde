import {
  memo,
  startTransition,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { Adjust, Bar, Market, Quote } from '../../shared/api/types';
import {
  INTRADAY_LINES,
  lineColorsFor,
  OVERLAY_LINES,
  VISIBLE_BARS,
  OVERLAYS,
  SUB_CHARTS,
  SUB_READOUT,
  type Overlay,
  type SubChart,
} from '../../shared/chart-lines';
import { formatMoney, formatPct } from '../../shared/format';
import { toApiError } from '../api/client';
import { isAbortError } from '../api/errors';
import { streamCarries, subscribeQuotes } from '../api/live-quotes';
import { effectivePriceColors, priceColors$ } from '../state/price-colors';
import { theme$ } from '../state/theme';
import { paletteFor } from '../theme/themes';
import {
  BarGapError,
  createKlineChart,
  warmUpKlineWorker,
  type ChartPalette,
  type ChartSize,
  type KlineChartHandle,
  type KlinePatch,
  type KlineViewRange,
} from './bridge';
import {
  ADJUSTS,
  CHART_PERIODS,
  LIVE_REFRESH_MS,
  isDayPeriod,
  labelStyleOf,
  hasAdjustment,
  loadBars,
  loadLatestBars,
  PERIOD_LABEL_KEY,
  type ChartPeriod,
} from './kline-data';
import { planTick } from './live-bars';
import { useRevealedInTurn } from './reveal-in-turn';
import { forwardPointers } from './pointer-forwarding';
import './kline-chart.css';

interface Loaded {
  /** code|period|adjust: a new key is a new history (the zoom resets), the same key a live update. */
  key: string;
  mode: 'kline' | 'intraday';
  count: number;
  last: KlinePatch | null;
  version: number;
}

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

/** Resolves in a later task (a zero timeout); rejects with an AbortError when `signal` fires first. */
function nextTask(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, 0);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('The chart load was aborted', 'AbortError'));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The chart's size: the host's content box as its last resize observation saw it, and the pixel ratio. */
function sizeOf(entry: ResizeObserverEntry): ChartSize {
  const box = entry.contentBoxSize[0];
  const width = box ? box.inlineSize : entry.contentRect.width;
  const height = box ? box.blockSize : entry.contentRect.height;
  return { width: width || 1, height: height || 1, dpr: window.devicePixelRatio || 1 };
}

/** What the mount gives the loads: the chart, and when the worker has its canvas (draws wait for it). */
interface MountedChart {
  chart: KlineChartHandle;
  attached: Promise<void>;
}

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
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const [hoverBar, setHoverBar] = useState<KlinePatch | null>(null);
  /** The loaded history (for the text summary and the table), by the key it was loaded for. */
  const [history, setHistory] = useState<{ key: string; rows: readonly Bar[] } | null>(null);
  /** The bars the chart shows, as the worker last reported them (after a draw, a zoom or a pan). */
  const [viewRange, setViewRange] = useState<KlineViewRange | null>(null);
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const summaryId = useId();
  const [reloads, setReloads] = useState(0);
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<MountedChart | null>(null);

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

  // The chart's canvas goes to the worker once; the page keeps forwarding its size and pointer events. The
  // size comes from the resize observer, which reports it after the browser's own layout: reading it here
  // would force the whole new screen's layout into this task.
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
      setFailure(error instanceof Error ? error : new Error(String(error)));
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

  // Load the history into the worker and draw it, then keep its last bar live: streamed quotes go through
  // the worker's updateLastBar / appendBar; while the stream is not connected, the latest bars are read
  // every few seconds instead (the polling fallback).
  useEffect(() => {
    const mounted = chartRef.current;
    const host = hostRef.current;
    if (!mounted || !host) return;
    const { chart, attached } = mounted;
    const controller = new AbortController();
    const { signal } = controller;
    const [, , adjustOfKey] = key.split('|') as [string, ChartPeriod, Adjust];
    let timer: ReturnType<typeof setInterval> | undefined;
    let refreshing = false;
    let refreshAgain = false;
    let unsubscribe: (() => void) | undefined;
    let previousQuote: Quote | undefined;
    host.setAttribute('data-ready', 'false');
    host.setAttribute('data-live', 'off');
    setFailure(null);
    setHoverBar(null);
    setViewRange(null);

    // The page's copy of the history follows the live rows too (the text summary and the table read it).
    const keepRows = (rows: readonly Bar[]) =>
      setHistory((h) => (h && h.key === key ? { key, rows: mergeRows(h.rows, rows) } : h));

    const show = (patches: readonly KlinePatch[]) => {
      const last = patches.at(-1);
      if (last) {
        setLoaded((l) =>
          l && l.key === key ? { ...l, count: last.index + 1, last, version: l.version + 1 } : l,
        );
      }
    };
    const onFailure = (error: unknown) => {
      // Bars went missing while the page was away: load the history again. Any other failure keeps the
      // chart as it is, and the next tick or refresh tries again.
      if (error instanceof BarGapError) setReloads((n) => n + 1);
    };

    // Reads the latest bars and feeds them; a request made while one runs is served by one more read.
    const refresh = async () => {
      if (document.visibilityState !== 'visible' || signal.aborted) return;
      if (refreshing) {
        refreshAgain = true;
        return;
      }
      refreshing = true;
      try {
        do {
          refreshAgain = false;
          const rows = await loadLatestBars(code, market, period, adjustOfKey, signal);
          keepRows(rows);
          show(await chart.feed(rows, signal));
        } while (refreshAgain && !signal.aborted);
      } catch (error) {
        onFailure(error);
      } finally {
        refreshing = false;
      }
    };

    const onQuote = async (quote: Quote) => {
      const plan = planTick(period, adjustOfKey, timeZone, previousQuote, quote);
      previousQuote = quote;
      if (plan.kind === 'none') return;
      if (plan.kind === 'refresh') return refresh();
      try {
        const result = await chart.feedTick((last) => {
          const next = plan.next(last);
          if (Array.isArray(next)) keepRows([next]);
          return next;
        }, signal);
        if (result === 'refresh') await refresh();
        else show(result);
      } catch (error) {
        onFailure(error);
      }
    };

    const setPolling = (on: boolean) => {
      if (on && timer === undefined) timer = setInterval(() => void refresh(), LIVE_REFRESH_MS);
      if (!on && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };

    void (async () => {
      try {
        // The request starts in a task of its own: a fetch costs the main thread a few milliseconds, which
        // should not add to the render (or the mount) that asked for it.
        await nextTask(signal);
        const rows = await loadBars(code, market, period, adjustOfKey, signal);
        setHistory({ key, rows });
        const summary = await chart.load(rows, {
          mode: period === 'intraday' ? 'intraday' : 'kline',
          labelStyle: labelStyleOf(period),
          timeZone,
          colors: { up: chartPalette.up, down: chartPalette.down },
          signal,
        });
        await attached;
        const look = lookRef.current;
        await chart.draw(look.view, look.palette, true, signal);
        setLoaded({ key, mode: summary.mode, count: summary.count, last: summary.last, version: 0 });
        if (signal.aborted) return;
        if (!streamCarries(market)) {
          host.setAttribute('data-live', 'polling');
          setPolling(true);
          return;
        }
        unsubscribe = subscribeQuotes(code, {
          quote: (tick) => void onQuote(tick.quote),
          status: (status) => {
            host.setAttribute('data-live', status === 'live' ? 'stream' : 'polling');
            // Polling only while the stream is not connected (a hidden page does neither).
            setPolling(status !== 'live' && status !== 'paused');
          },
          gap: () => void refresh(),
        });
      } catch (error) {
        if (!isAbortError(error)) setFailure(error instanceof Error ? error : toApiError(error));
      }
    })();

    return () => {
      controller.abort();
      unsubscribe?.();
      setPolling(false);
    };
  }, [key, code, market, period, timeZone, chartPalette.up, chartPalette.down, reloads]);

  // A new overlay, sub-chart or theme redraws the same bars, keeping the zoom.
  const current = loaded && loaded.key === key ? loaded : null;
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
  }, [loadedKey, overlay, sub, chartPalette]);

  // What the tests and the bench wait for: the drawn period, its bars and its last candle.
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !current) return;
    host.setAttribute('data-period', key.split('|')[1]!);
    host.setAttribute('data-adjust', key.split('|')[2]!);
    host.setAttribute('data-bars', String(current.count));
    host.setAttribute('data-last-candle', current.last ? current.last.candle.join(',') : '');
    host.setAttribute('data-version', String(current.version));
    host.setAttribute('data-ready', 'true');
  }, [current, key]);

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
  const visible = useMemo(
    () => barsInView(history && current && history.key === key ? history.rows : [], period, viewRange),
    [history, current, key, period, viewRange],
  );
  const periodName = LL.chart.period[PERIOD_LABEL_KEY[period]]();
  let summary: string | null = null;
  const lastRow = visible.at(-1);
  if (lastRow && current) {
    const close = lastRow[4];
    const before = visible.at(-2)?.[4] ?? lastRow[1];
    const change = close - before;
    const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
    const lineKeys =
      current.mode === 'intraday'
        ? INTRADAY_LINES.slice(1)
        : [...OVERLAY_LINES[overlay], ...SUB_READOUT[sub]];
    const last = current.last;
    summary = [
      LL.chart.summary({ code, period: periodName, price: fmt(close) }),
      LL.chart.summaryChange({
        direction: LL.priceMove[direction](),
        change: `${change > 0 ? '+' : ''}${fmt(change)}`,
        pct: before ? formatPct(change / before, locale) : '--',
      }),
      LL.chart.summaryRange({
        high: fmt(Math.max(...visible.map((row) => row[2]))),
        low: fmt(Math.min(...visible.map((row) => row[3]))),
        count: String(visible.length),
      }),
    ].join(', ');
    if (last) {
      const values = lineKeys
        .map((k) => `${lineName(k)} ${fmt(last.lines[k], k.startsWith('volMa') ? 0 : undefined)}`)
        .join(', ');
      if (values) summary += `. ${LL.chart.summaryLines({ lines: values })}`;
    }
  }

  return (
    <section
      className={`kline${fullScreen ? ' kline-full' : ''}`}
      aria-label={`${LL.chart.title()} ${code}`}
      data-testid="kline-chart"
    >
      <div className="kline-periods">
        {/* WAI-ARIA tabs: one tab stop, the arrow keys (and Home, End) move between periods and choose. */}
        <div
          className="kline-group"
          role="tablist"
          aria-label={LL.chart.periodLabel()}
          onKeyDown={(event) => choosePeriodByKey(event, period, (p) => startTransition(() => setPeriod(p)))}
        >
          {CHART_PERIODS.map((p) => (
            <button
              key={p}
              type="button"
              role="tab"
              aria-selected={p === period}
              tabIndex={p === period ? 0 : -1}
              className={`kline-chip${p === period ? ' selected' : ''}`}
              data-testid={`kline-period-${p}`}
              onClick={() => startTransition(() => setPeriod(p))}
            >
              {LL.chart.period[PERIOD_LABEL_KEY[p]]()}
            </button>
          ))}
        </div>
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
          <div className="kline-group" role="group" aria-label={LL.chart.adjustLabel()}>
            {ADJUSTS.map((a) => (
              <button
                key={a}
                type="button"
                aria-pressed={a === adjust}
                className={`kline-chip small${a === adjust ? ' selected' : ''}`}
                data-testid={`kline-adjust-${a}`}
                onClick={() => startTransition(() => setAdjust(a))}
              >
                {LL.chart.adjust[a]()}
              </button>
            ))}
          </div>
        )}
        {period !== 'intraday' && (
          <div className="kline-group" role="group" aria-label={LL.chart.overlayLabel()}>
            {OVERLAYS.map((o) => (
              <button
                key={o}
                type="button"
                aria-pressed={o === overlay}
                className={`kline-chip small${o === overlay ? ' selected' : ''}`}
                data-testid={`kline-overlay-${o}`}
                onClick={() => startTransition(() => setOverlay(o))}
              >
                {LL.chart.indicator[o]()}
              </button>
            ))}
          </div>
        )}
      </div>
      {readoutBar && current && (
        <Readout
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
        <div className="kline-group kline-subs" role="group" aria-label={LL.chart.subLabel()}>
          {SUB_CHARTS.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={s === sub}
              className={`kline-chip small${s === sub ? ' selected' : ''}`}
              data-testid={`kline-sub-${s}`}
              onClick={() => startTransition(() => setSub(s))}
            >
              {LL.chart.indicator[s]()}
            </button>
          ))}
        </div>
      )}
      {visible.length > 0 && (
        <div className="kline-table-toggle">
          <button
            type="button"
            className="kline-chip small"
            aria-expanded={tableShown}
            aria-controls={tableId}
            data-testid="kline-table-toggle"
            onClick={() => setTableShown((shown) => !shown)}
          >
            {tableShown ? LL.chart.hideTable() : LL.chart.showTable()}
          </button>
        </div>
      )}
      {tableShown && visible.length > 0 && (
        <BarTable
          id={tableId}
          rows={visible}
          caption={LL.chart.table.caption({ code, period: periodName, count: String(visible.length) })}
          labels={{
            time: LL.chart.table.time(),
            open: LL.chart.table.open(),
            high: LL.chart.table.high(),
            low: LL.chart.table.low(),
            close: LL.chart.table.close(),
            volume: LL.chart.volume(),
          }}
          fmt={fmt}
          locale={locale}
          timeZone={timeZone}
          withTime={!isDayPeriod(period)}
        />
      )}
      {overlayText && (
        <p className="kline-overlay" role={failure ? 'alert' : 'status'}>
          {overlayText}
        </p>
      )}
    </section>
  );
}

type Translations = ReturnType<typeof useI18nContext>['LL'];

/** A line's name in the readout and the crosshair: "MA5", "DIF", "RSI6", "Avg price". */
function lineNamer(LL: Translations): (key: string) => string {
  return (key) => {
    const match = /^([a-zA-Z]+?)(\d+)$/.exec(key);
    if (match) {
      const [, base, n] = match;
      if (base === 'ma') return LL.chart.line.ma({ n: n! });
      if (base === 'ema') return LL.chart.line.ema({ n: n! });
      if (base === 'rsi') return LL.chart.line.rsi({ n: n! });
      if (base === 'volMa') return LL.chart.line.volMa({ n: n! });
    }
    switch (key) {
      case 'bollMid':
        return LL.chart.line.bollMid();
      case 'bollUpper':
        return LL.chart.line.bollUpper();
      case 'bollLower':
        return LL.chart.line.bollLower();
      case 'avg':
        return LL.chart.line.avg();
      case 'price':
        return LL.chart.readout.price();
      default:
        return key.toUpperCase();
    }
  };
}

interface ReadoutProps {
  bar: KlinePatch;
  intraday: boolean;
  overlay: Overlay;
  sub: SubChart;
  fmt: (value: number | null | undefined, digits?: number) => string;
  lineName: (key: string) => string;
  lineColors: readonly string[];
  labels: Record<'open' | 'high' | 'low' | 'close' | 'price' | 'volume', string>;
  locale: string;
}

/** The crosshair's bar (or the latest one): OHLC, or price and average intraday, and the indicator values. */
function Readout({ bar, intraday, overlay, sub, fmt, lineName, lineColors, labels, locale }: ReadoutProps) {
  const [open, close, low, high] = bar.candle;
  const row = (keys: readonly string[]) =>
    keys.map((key, i) => (
      <span key={key} style={{ color: lineColors[i % lineColors.length] }}>
        {lineName(key)} {fmt(bar.lines[key], key.startsWith('volMa') ? 0 : undefined)}
      </span>
    ));
  return (
    <div className="kline-readout num" data-testid="kline-readout">
      <div>
        <span className="muted">{bar.label}</span>
        {intraday ? (
          <>
            <span data-testid="kline-readout-close">
              {labels.price} {fmt(close)}
            </span>
            {row(INTRADAY_LINES.slice(1))}
          </>
        ) : (
          <>
            <span>
              {labels.open} {fmt(open)}
            </span>
            <span>
              {labels.high} {fmt(high)}
            </span>
            <span>
              {labels.low} {fmt(low)}
            </span>
            <span data-testid="kline-readout-close">
              {labels.close} {fmt(close)}
            </span>
          </>
        )}
        <span>
          {labels.volume} {formatMoney(bar.volume, locale, 0)}
        </span>
      </div>
      {!intraday && (
        <div>
          {row(OVERLAY_LINES[overlay])}
          {row(SUB_READOUT[sub])}
        </div>
      )}
    </div>
  );
}

/** Arrow keys, Home and End on the period tabs: the next or previous period is chosen and takes the focus. */
function choosePeriodByKey(
  event: KeyboardEvent<HTMLElement>,
  period: ChartPeriod,
  choose: (period: ChartPeriod) => void,
): void {
  const at = CHART_PERIODS.indexOf(period);
  const last = CHART_PERIODS.length - 1;
  const to =
    event.key === 'ArrowRight' || event.key === 'ArrowDown'
      ? at === last
        ? 0
        : at + 1
      : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
        ? at === 0
          ? last
          : at - 1
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? last
            : -1;
  if (to < 0) return;
  event.preventDefault();
  const next = CHART_PERIODS[to]!;
  choose(next);
  const tabs = event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]');
  tabs[to]?.focus();
}

/**
 * The bars in the chart's view: those from the reported range's first bar to its last, found by time; until
 * a range of this history is reported, those the chart opens with (the last VISIBLE_BARS, or the whole
 * intraday session).
 */
function barsInView(rows: readonly Bar[], period: ChartPeriod, range: KlineViewRange | null): readonly Bar[] {
  if (range) {
    const first = rows.findIndex((row) => row[0] === range.firstTime);
    if (first >= 0) {
      let last = first;
      while (last + 1 < rows.length && rows[last + 1]![0] <= range.lastTime) last += 1;
      return rows.slice(first, last + 1);
    }
  }
  return period === 'intraday' ? rows : rows.slice(-VISIBLE_BARS);
}

/** The history with later rows merged in as the worker's feed takes them: the same time replaces, later appends. */
function mergeRows(rows: readonly Bar[], later: readonly Bar[]): readonly Bar[] {
  let merged = rows;
  for (const row of later) {
    const tail = merged.at(-1);
    if (!tail || row[0] > tail[0]) merged = [...merged, row];
    else if (row[0] === tail[0]) merged = [...merged.slice(0, -1), row];
  }
  return merged;
}

interface BarTableProps {
  id: string;
  rows: readonly Bar[];
  caption: string;
  labels: Record<'time' | 'open' | 'high' | 'low' | 'close' | 'volume', string>;
  fmt: (value: number | null | undefined, digits?: number) => string;
  locale: string;
  timeZone?: string;
  withTime: boolean;
}

/** The chart as a table: the bars in view, newest first, for a screen reader or whoever prefers numbers. */
function BarTable({ id, rows, caption, labels, fmt, locale, timeZone, withTime }: BarTableProps) {
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'short',
    ...(withTime ? { timeStyle: 'short' } : {}),
    ...(timeZone ? { timeZone } : {}),
  });
  return (
    <div className="kline-table-wrap">
      <table className="kline-table num" id={id} data-testid="kline-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{labels.time}</th>
            <th scope="col">{labels.open}</th>
            <th scope="col">{labels.high}</th>
            <th scope="col">{labels.low}</th>
            <th scope="col">{labels.close}</th>
            <th scope="col">{labels.volume}</th>
          </tr>
        </thead>
        <tbody>
          {rows
            .slice()
            .reverse()
            .map((row) => (
              <tr key={row[0]}>
                <th scope="row">{when.format(row[0])}</th>
                <td>{fmt(row[1])}</td>
                <td>{fmt(row[2])}</td>
                <td>{fmt(row[3])}</td>
                <td>{fmt(row[4])}</td>
                <td>{fmt(row[5], 0)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
