/**
 * The risk gauge in plain words (DOMAIN.md "Risk ratio"), pure: where an account's (or a fund allocation's)
 * R stands against its lines, and how far its prices may fall, all together, before R reaches the warning
 * line. The screens say it; the engine decides on the same R (src/shared/risk.ts riskDecision).
 */
import { riskDecision, type RiskLines } from './risk';

/** What the gauge needs: R, what is borrowed, and the values a price fall moves (one currency's units). */
export interface RiskGaugeInput extends RiskLines {
  /** R = collateral ÷ borrowed; null when nothing is borrowed. */
  ratio: number | null;
  borrowed: number;
  /** Value of the long positions (the collateral that falls with prices). */
  longValue: number;
  /** Value of the short positions (the borrowed amount that falls with prices); 0 when absent. */
  shortValue?: number;
}

export type RiskLevel = 'safe' | 'warning' | 'liquidation';

export type RiskStanding =
  /** Nothing borrowed: no liquidation (DOMAIN.md). */
  | { level: 'none' }
  | {
      level: RiskLevel;
      ratio: number;
      /**
       * The uniform fall f of every price (0.12 = 12%) at which R reaches the warning line: the f with
       * (collateral − long·f) ÷ (borrowed − short·f) = warning line, i.e. (cash + MV·(1−f)) ÷ borrowed for
       * an account of longs. 0 at or below the warning line; null when no fall short of 100% reaches it
       * (nothing held that falls, or shorts gain more than longs lose).
       */
      fallToWarning: number | null;
    };

/** Where R stands and how far prices may fall before the warning line. */
export function riskStanding(input: RiskGaugeInput): RiskStanding {
  const { ratio, borrowed, longValue, warningLine } = input;
  if (ratio === null || borrowed <= 0) return { level: 'none' };
  const decision = riskDecision(ratio, input);
  const level: RiskLevel = decision === 'ok' ? 'safe' : decision === 'warn' ? 'warning' : 'liquidation';
  if (ratio <= warningLine) return { level, ratio, fallToWarning: 0 };
  const shortValue = input.shortValue ?? 0;
  const collateral = ratio * borrowed;
  // (collateral − long·f) = warningLine · (borrowed − short·f)  ⇒  f = (collateral − W·borrowed) ÷ (long − W·short)
  const slope = longValue - warningLine * shortValue;
  if (slope <= 0) return { level, ratio, fallToWarning: null };
  const fall = (collateral - warningLine * borrowed) / slope;
  return { level, ratio, fallToWarning: fall >= 1 ? null : fall };
}

/** A fall as the sentence says it: whole percent, rounded down (the user is told no more than is safe). */
export function fallPercent(fall: number): number {
  return Math.floor(fall * 100 + 1e-9);
}
