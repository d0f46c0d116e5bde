/**
 * The page's only way to the K-line worker (CONVENTIONS: the squoosh bridge). It imports the worker's
 * types only, starts the worker on first use, sends one call at a time from a queue (a call whose
 * AbortSignal fires while it waits is never sent), transfers bar columns instead of copying them, and ends
 * the worker after a while with no open chart and no work.
 */
import * as Comlink from 'comlink';
import type { Bar } from '../../shared/api/types';
import type { KlineServices } from '../../worker/kline.worker';
import type { EquitySummary } from '../../worker/equity-option';
import type { EquityPoint } from '../../shared/api/competitions';
import type {
  BarColumns,
  ChartMode,
  ChartPalette,
  ChartSize,
  ChartView,
  KlinePatch,
  KlineSummary,
  KlineViewRange,
  LabelStyle,
  LiveBar,
  PointerMessage,
  UpDownColors,
} from '../../worker/kline-types';

export type { EquitySummary } from '../../worker/equity-option';
export type {
  ChartPalette,
  ChartSize,
  ChartView,
  KlinePatch,
  KlineSummary,
  KlineViewRange,
  LineKey,
  Overlay,
  PointerMessage,
  SubChart,
} from '../../worker/kline-types';

/** An idle worker is ended after this long; the next chart starts a new one. */
export const WORKER_IDLE_MS = 30_000;

let worker: Worker | null = null;
let remote: Comlink.Remote<KlineServices> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** Calls queued or running, and sessions open in the worker: the worker is idle when both are 0. */
let pendingCalls = 0;
let openSessions = 0;
let queueTail: Promise<unknown> = Promise.resolve();
let nextSessionId = 1;

function services(): Comlink.Remote<KlineServices> {
  if (!remote) {
    worker = new Worker(new URL('../../worker/kline.worker.ts', import.meta.url), { type: 'module' });
    remote = Comlink.wrap<KlineServices>(worker);
  }
  return remote;
}

/**
 * Starts the worker ahead of the first chart call, so that starting it (and its loading echarts, off the
 * main thread) is not part of the task that hands over a canvas. Ended again after a while if no chart
 * comes.
 */
export function warmUpKlineWorker(): void {
  services();
  armIdleTimer();
}

function endWorker(): void {
  remote?.[Comlink.releaseProxy]();
  worker?.terminate();
  remote = null;
  worker = null;
}

function armIdleTimer(): void {
  clearTimeout(idleTimer);
  if (pendingCalls === 0 && openSessions === 0 && remote) idleTimer = setTimeout(endWorker, WORKER_IDLE_MS);
}

function abortError(): DOMException {
  return new DOMException('The chart request was aborted', 'AbortError');
}

/** Rejects as soon as the signal fires; the worker's answer, if it still comes, is dropped. */
function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs `task` after every call queued before it; skipped (AbortError) when aborted while waiting. */
function enqueue<T>(
  task: (s: Comlink.Remote<KlineServices>) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortError());
  clearTimeout(idleTimer);
  pendingCalls += 1;
  const run = queueTail.then(() => {
    if (signal?.aborted) throw abortError();
    return task(services());
  });
  queueTail = run.catch(() => undefined);
  void run
    .catch(() => undefined)
    .finally(() => {
      pendingCalls -= 1;
      armIdleTimer();
    });
  return untilAborted(run, signal);
}

/** API bars (rows) as columns of Float64Array, one buffer per column; intraday rows add `avg`. */
export function toColumns(bars: readonly Bar[]): BarColumns {
  const n = bars.length;
  const columns: BarColumns = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  const hasAverage = bars.some((bar) => bar.length > 6);
  const avg = hasAverage ? new Float64Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const bar = bars[i]!;
    const [time, open, high, low, close, volume] = bar;
    columns.time[i] = time;
    columns.open[i] = open;
    columns.high[i] = high;
    columns.low[i] = low;
    columns.close[i] = close;
    columns.volume[i] = volume;
    if (avg) avg[i] = bar[6] ?? Number.NaN;
  }
  if (avg) columns.avg = avg;
  return columns;
}

export function toLiveBar(bar: Bar): LiveBar {
  const [time, open, high, low, close, volume] = bar;
  return bar.length > 6
    ? { time, open, high, low, close, volume, avg: bar[6] }
    : { time, open, high, low, close, volume };
}

export interface LoadKlineOptions {
  mode: ChartMode;
  labelStyle: LabelStyle;
  timeZone?: string;
  colors: UpDownColors;
  signal?: AbortSignal;
}

/** One chart on the page: its canvas, bars and indicator state all live in the worker. */
export interface KlineChartHandle {
  /**
   * Hands the canvas to the worker, which draws there from now on; `onBar` gets the crosshair's bar,
   * `onView` the bars in view after each draw and each zoom or pan (once it settles).
   */
  attach(
    canvas: HTMLCanvasElement,
    size: ChartSize,
    onBar: (bar: KlinePatch | null) => void,
    onView: (range: KlineViewRange) => void,
  ): Promise<void>;
  /** Shapes the bars and computes every indicator in the worker (replacing the chart's history). */
  load(bars: readonly Bar[], options: LoadKlineOptions): Promise<KlineSummary>;
  /** Draws the loaded bars: `resetZoom` after a load, else the user's zoom stays. */
  draw(view: ChartView, palette: ChartPalette, resetZoom: boolean, signal?: AbortSignal): Promise<void>;
  /**
   * Feeds the latest rows of a refresh: a row with the last bar's time updates it (`updateLastBar`), a
   * later row is appended (`appendBar`); older and unchanged rows are skipped. Resolves with the patches
   * the worker computed and drew, oldest first. Rejects with a `BarGapError` when the rows start after the
   * chart's last bar (bars in between are missing): the chart should load its history again.
   */
  feed(rows: readonly Bar[], signal?: AbortSignal): Promise<KlinePatch[]>;
  /**
   * A live tick: `next` gets the chart's last bar when the call's turn comes (after every feed queued before
   * it) and answers the new last row, `null` to leave the chart as it is, or `'refresh'` when the tick
   * starts a bar it cannot build (the chart should read the latest bars), which this call resolves with.
   */
  feedTick(
    next: (last: Bar | undefined) => Bar | 'refresh' | null,
    signal?: AbortSignal,
  ): Promise<KlinePatch[] | 'refresh'>;
  resize(size: ChartSize): void;
  /** Forwards a pointer event; not queued, so a drag or a pinch follows the finger. */
  pointer(message: PointerMessage): void;
  close(): void;
}

/** A refresh's bars do not join the chart's history: bars are missing in between. */
export class BarGapError extends Error {
  constructor() {
    super('the latest bars do not join the chart: reload its history');
    this.name = 'BarGapError';
  }
}

function sameBar(a: Bar, b: Bar): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** A new chart slot in the worker (the worker starts with the first call). */
export function createKlineChart(): KlineChartHandle {
  const id = nextSessionId++;
  openSessions += 1;
  let closed = false;
  let lastRow: Bar | undefined;
  let lastTime = Number.NEGATIVE_INFINITY;
  const ifOpen = <T>(work: () => Promise<T>): Promise<T> =>
    closed ? Promise.reject(new Error('the chart is closed')) : work();
  /** Runs inside the queue: updates the last bar or appends, skipping older and unchanged rows. */
  const feedRows = async (s: Comlink.Remote<KlineServices>, rows: readonly Bar[]) => {
    if (rows.length > 0 && lastRow && rows[0]![0] > lastTime) throw new BarGapError();
    const patches: KlinePatch[] = [];
    for (const row of rows) {
      const time = row[0];
      if (time < lastTime || (lastRow && sameBar(row, lastRow))) continue;
      const bar = toLiveBar(row);
      patches.push(await (time === lastTime ? s.updateLastBar(id, bar) : s.appendBar(id, bar)));
      lastTime = time;
      lastRow = row;
    }
    return patches;
  };

  return {
    attach(canvas, size, onBar, onView) {
      return ifOpen(() => {
        const offscreen = canvas.transferControlToOffscreen();
        return enqueue((s) =>
          s.attachCanvas(
            id,
            Comlink.transfer(offscreen, [offscreen]),
            size,
            Comlink.proxy(onBar),
            Comlink.proxy(onView),
          ),
        );
      });
    },
    load(bars, options) {
      return ifOpen(async () => {
        const columns = toColumns(bars);
        const buffers = Object.values(columns).map((column: Float64Array) => column.buffer);
        const request = {
          bars: columns,
          mode: options.mode,
          labelStyle: options.labelStyle,
          timeZone: options.timeZone,
          colors: options.colors,
        };
        const summary = await enqueue(
          (s) => s.openSeries(id, Comlink.transfer(request, buffers)),
          options.signal,
        );
        lastRow = bars[bars.length - 1];
        lastTime = lastRow ? lastRow[0] : Number.NEGATIVE_INFINITY;
        return summary;
      });
    },
    draw(view, palette, resetZoom, signal) {
      return ifOpen(() => enqueue((s) => s.draw(id, view, palette, resetZoom), signal));
    },
    feed(rows, signal) {
      return ifOpen(() => enqueue((s) => feedRows(s, rows), signal));
    },
    feedTick(next, signal) {
      return ifOpen(() =>
        enqueue(async (s) => {
          const row = next(lastRow);
          if (row === 'refresh') return row;
          return row ? feedRows(s, [row]) : [];
        }, signal),
      );
    },
    resize(size) {
      if (!closed) void services().resize(id, size);
    },
    pointer(message) {
      if (!closed) void services().pointer(id, message);
    },
    close() {
      if (closed) return;
      closed = true;
      void enqueue((s) => s.closeChart(id)).finally(() => {
        openSessions -= 1;
        armIdleTimer();
      });
    },
  };
}

/** A competition's equity curve on the page: its canvas and drawing live in the worker. */
export interface EquityChartHandle {
  /** Hands the canvas to the worker, which draws there from now on. */
  attach(canvas: HTMLCanvasElement, size: ChartSize): Promise<void>;
  /** Draws the daily points (once attached); resolves with the figures of the curve's summary. */
  draw(points: readonly EquityPoint[], palette: ChartPalette, signal?: AbortSignal): Promise<EquitySummary>;
  resize(size: ChartSize): void;
  close(): void;
}

/** A new equity curve slot in the worker (the worker starts with the first call). */
export function createEquityChart(): EquityChartHandle {
  const id = nextSessionId++;
  openSessions += 1;
  let closed = false;
  const ifOpen = <T>(work: () => Promise<T>): Promise<T> =>
    closed ? Promise.reject(new Error('the chart is closed')) : work();
  return {
    attach(canvas, size) {
      return ifOpen(() => {
        const offscreen = canvas.transferControlToOffscreen();
        return enqueue((s) => s.attachEquityCanvas(id, Comlink.transfer(offscreen, [offscreen]), size));
      });
    },
    draw(points, palette, signal) {
      return ifOpen(() => {
        // The numbers as columns, transferred; the days as they are.
        const totalAssets = Float64Array.from(points, (p) => p.totalAssets);
        const returnPct = Float64Array.from(points, (p) => p.returnPct);
        const request = { days: points.map((p) => p.day), totalAssets, returnPct };
        return enqueue(
          (s) => s.drawEquity(id, Comlink.transfer(request, [totalAssets.buffer, returnPct.buffer]), palette),
          signal,
        );
      });
    },
    resize(size) {
      if (!closed) void services().resizeEquity(id, size);
    },
    close() {
      if (closed) return;
      closed = true;
      void enqueue((s) => s.closeEquity(id)).finally(() => {
        openSessions -= 1;
        armIdleTimer();
      });
    },
  };
}
