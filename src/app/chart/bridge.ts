/**
 * The page's only way to the K-line worker (CONVENTIONS: the squoosh bridge). It imports the worker's
 * types only, starts the worker on first use, transfers bar columns instead of copying them, and ends
 * the worker after a while without work.
 */
import * as Comlink from 'comlink';
import type { Bar } from '../../shared/api/types';
import type { KlineServices } from '../../worker/kline.worker';
import type { BarColumns, KlineSeries } from '../../worker/kline-types';

export type { KlineSeries, MaLine } from '../../worker/kline-types';

/** An idle worker is ended after this long; the next chart starts a new one. */
export const WORKER_IDLE_MS = 30_000;

let worker: Worker | null = null;
let remote: Comlink.Remote<KlineServices> | null = null;
let busy = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function services(): Comlink.Remote<KlineServices> {
  clearTimeout(idleTimer);
  if (!remote) {
    worker = new Worker(new URL('../../worker/kline.worker.ts', import.meta.url), { type: 'module' });
    remote = Comlink.wrap<KlineServices>(worker);
  }
  return remote;
}

function endWorker(): void {
  remote?.[Comlink.releaseProxy]();
  worker?.terminate();
  remote = null;
  worker = null;
}

function done(): void {
  busy -= 1;
  if (busy === 0) idleTimer = setTimeout(endWorker, WORKER_IDLE_MS);
}

/** API bars (rows) as columns of Float64Array, one buffer per column. */
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
  for (let i = 0; i < n; i++) {
    const [time, open, high, low, close, volume] = bars[i]!;
    columns.time[i] = time;
    columns.open[i] = open;
    columns.high[i] = high;
    columns.low[i] = low;
    columns.close[i] = close;
    columns.volume[i] = volume;
  }
  return columns;
}

function abortError(): DOMException {
  return new DOMException('The chart request was aborted', 'AbortError');
}

/** Candles, volume and MA lines for day bars, computed in the worker. */
export async function shapeBars(
  bars: readonly Bar[],
  options: { maPeriods: number[]; timeZone?: string; signal?: AbortSignal },
): Promise<KlineSeries> {
  const { signal } = options;
  if (signal?.aborted) throw abortError();
  const columns = toColumns(bars);
  const buffers = Object.values(columns).map((column: Float64Array) => column.buffer);
  busy += 1;
  try {
    const request = Comlink.transfer(
      { bars: columns, maPeriods: options.maPeriods, timeZone: options.timeZone },
      buffers,
    );
    const result = services().shapeKline(request);
    if (!signal) return await result;
    return await new Promise<KlineSeries>((resolve, reject) => {
      const onAbort = () => reject(abortError());
      signal.addEventListener('abort', onAbort, { once: true });
      result.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  } finally {
    done();
  }
}
