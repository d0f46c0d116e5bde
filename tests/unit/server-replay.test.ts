/**
 * The replay's parts without a station: REPLAY_FROM and REPLAY_SPEED read, the replay clock (speed, pause,
 * never backwards), and the engine's series playing imported bars: days as imported, a missing bar a
 * suspension, seeded minutes inside each day's range, imported minutes as they are, and the simulation
 * going on from the last close after the history ends.
 */
import { describe, expect, it } from 'vitest';
import { TEST_STOCK } from '../fixtures/test-stock';
import { ConfigError, loadConfig } from '../../server/config';
import { FixedClock } from '../../server/market/clock';
import type { Instrument } from '../../server/market/catalogue';
import { ReplayClock, replayedAt, type ReplayPoint } from '../../server/market/history/replay-clock';
import {
  InstrumentSeries,
  type ImportedBar,
  type ImportedMinute,
  type SeriesHistory,
  type SeriesSpec,
} from '../../server/market/price-engine';

describe('REPLAY_FROM and REPLAY_SPEED', () => {
  const replay = (env: Record<string, string>) => loadConfig({ MARKET_SOURCE: 'replay', ...env }).replay;

  it('is a simulation unless MARKET_SOURCE says replay', () => {
    expect(loadConfig({}).replay).toBeNull();
    expect(loadConfig({ REPLAY_FROM: '2015-07-08' }).replay).toBeNull();
  });

  it('starts a bare date at 09:00 in Beijing, and a time at that time; real time by default', () => {
    expect(replay({ REPLAY_FROM: '2015-07-08' })).toEqual({
      from: '2015-07-08',
      startAt: Date.UTC(2015, 6, 8, 1, 0),
      offsetMinutes: 480,
      speed: 1,
    });
    expect(replay({ REPLAY_FROM: '2015-07-08T09:30:00-04:00', REPLAY_SPEED: '600' })).toEqual({
      from: '2015-07-08T09:30:00-04:00',
      startAt: Date.UTC(2015, 6, 8, 13, 30),
      offsetMinutes: -240,
      speed: 600,
    });
    expect(replay({ REPLAY_FROM: '2020-03-09T13:30Z', REPLAY_SPEED: '0.5' })).toMatchObject({
      startAt: Date.UTC(2020, 2, 9, 13, 30),
      offsetMinutes: 0,
      speed: 0.5,
    });
  });

  it.each([
    [{}, /MARKET_SOURCE=replay needs REPLAY_FROM/],
    [{ REPLAY_FROM: '08/07/2015' }, /REPLAY_FROM must be a date/],
    [{ REPLAY_FROM: '2015-02-30' }, /not a real date/],
    [{ REPLAY_FROM: '2015-07-08T09:30' }, /REPLAY_FROM must be a date/],
    [{ REPLAY_FROM: '2015-07-08', REPLAY_SPEED: '0' }, /REPLAY_SPEED must be a number above 0/],
    [{ REPLAY_FROM: '2015-07-08', REPLAY_SPEED: 'fast' }, /REPLAY_SPEED/],
    [{ REPLAY_FROM: '2015-07-08', REPLAY_SPEED: '20000' }, /at most 10000/],
    [{ REPLAY_FROM: '2015-07-08', CLOCK_MODE: 'always-open' }, /use CLOCK_MODE=real/],
    [{ MARKET_SOURCE: 'csv' }, /MARKET_SOURCE must be one of simulation, replay/],
  ])('refuses %o with a message naming the setting', (env, message) => {
    const read = () => loadConfig({ MARKET_SOURCE: 'replay', ...env });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(message);
  });
});

describe('the replay clock', () => {
  const point: ReplayPoint = {
    from: '2015-07-08',
    speed: 600,
    marketMs: 1_000_000,
    wallMs: 50_000,
    paused: false,
  };

  it('runs REPLAY_SPEED times the wall clock from its origin, and stands still while paused', () => {
    expect(replayedAt(point, 50_000)).toBe(1_000_000);
    expect(replayedAt(point, 51_000)).toBe(1_600_000);
    expect(replayedAt({ ...point, paused: true }, 99_000)).toBe(1_000_000);
  });

  it('never goes back, even when a pause it had not read yet took effect earlier', () => {
    const wall = new FixedClock(50_000);
    const clock = new ReplayClock(wall, point);
    wall.advance(2000);
    expect(clock.now()).toBe(2_200_000);
    // The operator paused at wall 51 000 (1 600 000); this process reads it a second later.
    clock.update({ ...point, marketMs: 1_600_000, wallMs: 51_000, paused: true });
    expect(clock.now()).toBe(2_200_000);
    wall.advance(5000);
    expect(clock.now()).toBe(2_200_000);
    // Resumed at wall 60 000: on from the paused instant, and past what was shown once it gets there.
    clock.update({ ...point, marketMs: 1_600_000, wallMs: 60_000, paused: false });
    wall.set(61_000);
    expect(clock.now()).toBe(2_200_000);
    wall.set(62_000);
    expect(clock.now()).toBe(2_800_000);
  });
});

const stock: Instrument = TEST_STOCK;

const ANCHOR = 16_000;
const FIRST = 16_100;
/** Imported days FIRST … FIRST+9 except FIRST+4 (a day without a bar); weekends do not exist here. */
const BARS = new Map<number, ImportedBar>(
  [...Array(10).keys()]
    .filter((i) => i !== 4)
    .map((i) => {
      const open = 10 + i * 0.1;
      const close = Math.round((open + (i % 2 ? -0.05 : 0.2)) * 100) / 100;
      return [
        FIRST + i,
        {
          open: Math.round(open * 100) / 100,
          high: Math.round((Math.max(open, close) + 0.3) * 100) / 100,
          low: Math.round((Math.min(open, close) - 0.25) * 100) / 100,
          close,
          volume: 500_000 + i,
        },
      ];
    }),
);
const LAST = FIRST + 9;
/** The last day's 240 minutes are imported: 11.00 rising a cent a minute for the first 30, then flat. */
const MINUTES: ImportedMinute[] = [...Array(30).keys()].map((i) => ({
  k: i + 1,
  open: 11 + i * 0.01,
  high: 11 + (i + 1) * 0.01,
  low: 11 + i * 0.01,
  close: 11 + (i + 1) * 0.01,
  volume: 1000,
}));

function history(): SeriesHistory {
  const days = new Map(BARS);
  days.set(LAST, { open: 11, high: 11.3, low: 11, close: 11.3, volume: 30_000 });
  return {
    firstDay: FIRST,
    lastDay: LAST,
    firstOpen: BARS.get(FIRST)!.open,
    lastClose: 11.3,
    dailySigma: 0.02,
    day: (d) => days.get(d),
    minutes: (d) => (d === LAST ? MINUTES : undefined),
  };
}

function series(): InstrumentSeries {
  const spec: SeriesSpec = {
    seed: 'unit',
    instrument: stock,
    limit: 0.1,
    anchorDay: ANCHOR,
    isTradingDay: () => true,
    minutesPerDay: 240,
    tradingDaysPerYear: 252,
    history: history(),
  };
  return new InstrumentSeries(spec);
}

describe('a series replaying imported bars', () => {
  it('does not trade before its history, then trades each imported bar as it is', () => {
    const s = series();
    expect(s.record(FIRST - 1)).toMatchObject({ listed: false, volume: 0, close: BARS.get(FIRST)!.open });
    for (const [day, bar] of BARS) {
      // The last day has imported minutes: its bar is theirs (below).
      if (day === LAST) continue;
      expect(s.record(day), `day ${day}`).toMatchObject({
        ...bar,
        trading: true,
        suspended: false,
        listed: true,
      });
      expect(s.daySummary(day)).toMatchObject({ ...bar, day });
    }
    // Each day's change and limits are measured from the day before's close.
    expect(s.record(FIRST + 1).prevClose).toBe(BARS.get(FIRST)!.close);
    expect(s.record(FIRST + 1).limits).toEqual({ up: 11.22, down: 9.18 });
  });

  it('suspends a trading day without a bar, flat at the last close, and resumes after it', () => {
    const s = series();
    const close = BARS.get(FIRST + 3)!.close;
    expect(s.record(FIRST + 4)).toMatchObject({ suspended: true, close, volume: 0 });
    expect(s.record(FIRST + 5)).toMatchObject({ resumed: true, prevClose: close });
  });

  it('draws seeded minutes inside each imported day, from its open to its close', () => {
    const s = series();
    for (const day of [FIRST, FIRST + 2, FIRST + 7]) {
      const bar = BARS.get(day)!;
      const path = s.path(day);
      expect(path.prices[0]).toBe(bar.open);
      expect(path.prices[240]).toBe(bar.close);
      expect(Math.max(...path.highs.slice(1))).toBe(bar.high);
      expect(Math.min(...path.lows.slice(1))).toBe(bar.low);
      expect(path.runVolume[240]).toBe(bar.volume);
    }
    // The same seed draws the same minutes.
    expect([...series().path(FIRST + 2).prices]).toEqual([...s.path(FIRST + 2).prices]);
  });

  it('plays imported minutes as they are, flat where none was imported', () => {
    const path = series().path(LAST);
    expect(path.prices[0]).toBe(11);
    expect(path.prices[10]).toBeCloseTo(11.1, 10);
    expect(path.prices[30]).toBeCloseTo(11.3, 10);
    expect(path.prices[240]).toBeCloseTo(11.3, 10);
    expect(path.volumes[31]).toBe(0);
    expect(path.runVolume[240]).toBe(30_000);
    expect(series().daySummary(LAST)).toMatchObject({
      open: 11,
      high: 11.3,
      low: 11,
      close: 11.3,
      volume: 30_000,
    });
  });

  it('simulates after its history from the last close, moving by about the volatility the bars showed', () => {
    const s = series();
    const after = [...Array(60).keys()].map((i) => s.record(LAST + 1 + i));
    expect(after[0]!.prevClose).toBe(11.3);
    expect(after.every((r) => r.trading && r.volume > 0)).toBe(true);
    const moves = after.map((r) => Math.log(r.close / r.prevClose));
    const rms = Math.sqrt(moves.reduce((sum, m) => sum + m * m, 0) / moves.length);
    expect(rms).toBeGreaterThan(0.005);
    expect(rms).toBeLessThan(0.06);
  });
});
