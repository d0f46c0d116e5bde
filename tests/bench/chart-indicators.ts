/**
 * Bench: every K-line indicator of the worker over 10,000 and 100,000 bars (targets: under 15 ms and
 * 150 ms), the cost of one live bar through appendBar / updateLastBar, and shaping 10,000 bars for echarts.
 */
import { performance } from 'node:perf_hooks';
import { computeIndicators, IndicatorEngine, type BarColumnsIn } from '../../src/worker/indicator-engine';
import { KlineSession } from '../../src/worker/kline-shape';

function bars(n: number, seed = 42): BarColumnsIn {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const columns: BarColumnsIn = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  let price = 100;
  for (let i = 0; i < n; i++) {
    const open = price;
    price = Math.max(0.01, price * (1 + (next() - 0.5) * 0.04));
    columns.time[i] = Date.UTC(1990, 0, 1) + i * 60_000;
    columns.open[i] = open;
    columns.close[i] = price;
    columns.high[i] = Math.max(open, price) * (1 + next() * 0.01);
    columns.low[i] = Math.min(open, price) * (1 - next() * 0.01);
    columns.volume[i] = Math.round(next() * 1e6);
  }
  return columns;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(runs: number, work: () => void): { median: number; min: number } {
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return { median: median(samples), min: Math.min(...samples) };
}

export function benchChartIndicators(): void {
  console.log(
    '\nK-line indicators (MA5/10/20/30/60, EMA12/26, MACD, KDJ, RSI6/12/24, BOLL, VOL MA5/10, avg price):',
  );
  for (const [n, target, runs] of [
    [10_000, 15, 41],
    [100_000, 150, 11],
  ] as const) {
    const input = bars(n);
    // Warm the JIT as a chart's worker would be after its first chart.
    for (let i = 0; i < 5; i++) computeIndicators(input);
    const t = time(runs, () => computeIndicators(input));
    const verdict = t.median < target ? 'within' : 'OVER';
    console.log(
      `  ${n.toLocaleString('en')} bars: median ${t.median.toFixed(1)} ms, best ${t.min.toFixed(1)} ms (target < ${target} ms: ${verdict})`,
    );
  }

  const history = bars(100_001);
  const engine = new IndicatorEngine();
  const head: BarColumnsIn = {
    time: history.time.subarray(0, 100_000),
    open: history.open.subarray(0, 100_000),
    high: history.high.subarray(0, 100_000),
    low: history.low.subarray(0, 100_000),
    close: history.close.subarray(0, 100_000),
    volume: history.volume.subarray(0, 100_000),
  };
  engine.load(head);
  const i = 100_000;
  const bar = {
    time: history.time[i]!,
    open: history.open[i]!,
    high: history.high[i]!,
    low: history.low[i]!,
    close: history.close[i]!,
    volume: history.volume[i]!,
  };
  engine.appendBar(bar);
  const ticks = 10_000;
  const start = performance.now();
  for (let k = 0; k < ticks; k++) engine.updateLastBar({ ...bar, close: bar.close + (k % 7) * 0.01 });
  const perTick = ((performance.now() - start) / ticks) * 1000;
  console.log(`  one live tick (updateLastBar) on 100,001 bars: ${perTick.toFixed(2)} µs`);

  const shapeInput = bars(10_000);
  const shape = time(5, () => {
    const copy = Object.fromEntries(
      Object.entries(shapeInput).map(([k, v]) => [k, v.slice()]),
    ) as unknown as BarColumnsIn;
    new KlineSession({
      bars: copy,
      mode: 'kline',
      labelStyle: 'minute',
      timeZone: 'Asia/Shanghai',
      colors: { up: 'r', down: 'g' },
    }).series();
  });
  console.log(
    `  indicators + echarts series with labels for 10,000 bars: median ${shape.median.toFixed(1)} ms`,
  );
}
