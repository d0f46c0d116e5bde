/**
 * Corporate actions of the simulation: about once a year a cash dividend, rarely a bonus issue (split). On
 * the ex-date the limits and the change are measured from the ex-rights reference price.
 */
import type { TickRule } from './catalogue';
import { hashSeed, mulberry32 } from './prng';
import type { CorporateAction, SeriesSpec } from './series-spec';
import { roundToTick } from './ticks';

/** The ex-rights reference price after an action (the base for the day's change and limits). */
export function exRightsPrice(
  prevClose: number,
  action: CorporateAction | undefined,
  rule: TickRule,
): number {
  if (!action) return prevClose;
  return roundToTick((prevClose - action.cash) / (1 + action.bonus), rule);
}

/** The corporate actions of one calendar year (deterministic): dated, not yet moved to trading days. */
export function actionsOfYear(
  spec: SeriesSpec,
  year: number,
): { date: number; cash: number; bonus: number }[] {
  if (spec.corporateLife === false) return [];
  const uniform = mulberry32(hashSeed(spec.seed, spec.instrument.code, year, 'actions'));
  const out: { date: number; cash: number; bonus: number }[] = [];
  if (uniform() < 0.75) {
    // One dividend, paid between late May and late August, of 0.5–3.5% of the reference price.
    const date = Date.UTC(year, 4, 20) / 86_400_000 + Math.floor(uniform() * 95);
    const cash = Math.round(spec.instrument.referencePrice * (0.005 + 0.03 * uniform()) * 1000) / 1000;
    const bonus = uniform() < 0.12 ? [0.2, 0.3, 0.5, 1][Math.floor(uniform() * 4)]! : 0;
    out.push({ date, cash, bonus });
  }
  return out;
}
