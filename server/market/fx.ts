/**
 * Simulated exchange rates between CNY, HKD and USD with a daily drift, seeded by MARKET_SEED: USD/CNY is a
 * mean-reverting log walk (about 0.25% a day) around 7.10; USD/HKD stays in the peg's band 7.75–7.85.
 * One rate per calendar day (UTC), the same for the same seed.
 */
import type { Currency, ExchangeRates } from '../../src/shared/api/types';
import { SeededRandom, hashSeed, mixSeed } from './prng';
import { DAY_MS } from './sessions';

const USDCNY_CENTRE = 7.1;
const USDHKD_CENTRE = 7.8;
const HKD_BAND: readonly [number, number] = [7.75, 7.85];

export interface DailyRates {
  day: number;
  /** Units of each currency for one US dollar. */
  perUsd: Record<Currency, number>;
}

export class FxSeries {
  private readonly usdCny: number[] = [];
  private readonly usdHkd: number[] = [];
  private readonly base: number;

  constructor(
    seed: string,
    private readonly anchorDay: number,
  ) {
    this.base = hashSeed(seed, 'fx');
  }

  rates(day: number): DailyRates {
    const index = Math.max(0, day - this.anchorDay);
    while (this.usdCny.length <= index) {
      const i = this.usdCny.length;
      const rng = new SeededRandom(mixSeed(this.base, this.anchorDay + i, 7));
      const prevCny = this.usdCny[i - 1] ?? USDCNY_CENTRE;
      const prevHkd = this.usdHkd[i - 1] ?? USDHKD_CENTRE;
      const cny = prevCny * Math.exp(0.02 * Math.log(USDCNY_CENTRE / prevCny) + 0.0025 * rng.normal());
      const hkd = prevHkd + 0.05 * (USDHKD_CENTRE - prevHkd) + 0.004 * rng.normal();
      this.usdCny.push(Math.round(cny * 10_000) / 10_000);
      this.usdHkd.push(Math.round(Math.min(HKD_BAND[1], Math.max(HKD_BAND[0], hkd)) * 10_000) / 10_000);
    }
    return { day, perUsd: { USD: 1, CNY: this.usdCny[index]!, HKD: this.usdHkd[index]! } };
  }

  /** The rates of the UTC day of `t`, per US dollar and per yuan (CNY per HKD to 6 decimals). */
  exchangeRates(t: number): ExchangeRates {
    const day = Math.floor(t / DAY_MS);
    const { perUsd } = this.rates(day);
    const cnyPer = { CNY: 1, HKD: Number((perUsd.CNY / perUsd.HKD).toFixed(6)), USD: perUsd.CNY };
    return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), time: t, perUsd, cnyPer };
  }
}
