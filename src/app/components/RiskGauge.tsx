import { useI18nContext } from '../../../locales/i18n-react';
import { formatMoney } from '../../shared/format';
import { fallPercent, riskStanding, type RiskGaugeInput, type RiskStanding } from '../../shared/risk-gauge';
import './risk-gauge.css';

/**
 * Where the meter's scale starts and ends, around the lines: from one gap (warning − liquidation) below the
 * liquidation line to half the warning line above it, so a fresh 5× position (R ≈ 1.25) sits well inside.
 */
function scaleOf(lines: { warningLine: number; liquidationLine: number }): { min: number; max: number } {
  const gap = Math.max(lines.warningLine - lines.liquidationLine, 0.01);
  return { min: lines.liquidationLine - gap, max: lines.warningLine * 1.5 };
}

const share = (value: number, min: number, max: number) =>
  `${(Math.min(Math.max((value - min) / (max - min), 0), 1) * 100).toFixed(2)}%`;

/** The sentence of a standing: how far prices may fall before the warning line, or why that does not apply. */
export function useRiskSentence(): (standing: RiskStanding) => string {
  const { LL } = useI18nContext();
  return (standing) => {
    if (standing.level === 'none') return LL.risk.nothingBorrowed();
    if (standing.level === 'liquidation') return LL.risk.atLiquidation();
    if (standing.level === 'warning') return LL.risk.belowWarning();
    const fall = standing.fallToWarning;
    if (fall === null) return LL.risk.noFall();
    const pct = fallPercent(fall);
    return pct < 1 ? LL.risk.fallUnderOne() : LL.risk.fall({ pct });
  };
}

/**
 * The risk gauge of an account or a fund allocation (DOMAIN.md "Risk ratio"): safe → warning → liquidation
 * with the level in words (WCAG 1.4.1: never colour alone), the ratio on a meter, and one sentence saying
 * how far prices may fall before the warning line (src/shared/risk-gauge.ts). The lines themselves are
 * explained once per page (RiskLinesNote), not on every gauge.
 */
export function RiskGauge({ input, testId }: { input: RiskGaugeInput; testId?: string }) {
  const { LL, locale } = useI18nContext();
  const sentence = useRiskSentence();
  const standing = riskStanding(input);
  if (standing.level === 'none') {
    return (
      <p className="risk-gauge risk-none muted small" data-testid={testId} data-level="none">
        <span data-testid="risk-sentence">{sentence(standing)}</span>
      </p>
    );
  }
  const { min, max } = scaleOf(input);
  const label = LL.risk.level[standing.level]();
  const ratioText = LL.risk.ratioValue({ ratio: formatMoney(standing.ratio, locale, 2) });
  return (
    <div className={`risk-gauge risk-${standing.level}`} data-testid={testId} data-level={standing.level}>
      <div className="risk-gauge-head">
        <span className="risk-level" data-testid="risk-level">
          {label}
        </span>
        <span className="num muted small">{ratioText}</span>
      </div>
      <div
        className="risk-meter"
        role="meter"
        aria-label={LL.risk.gaugeName()}
        aria-valuemin={min}
        aria-valuemax={max}
        aria-valuenow={Math.min(Math.max(standing.ratio, min), max)}
        aria-valuetext={`${label}, ${ratioText}`}
      >
        <span
          className="risk-zone zone-liquidation"
          style={{ width: share(input.liquidationLine, min, max) }}
        />
        <span
          className="risk-zone zone-warning"
          style={{
            left: share(input.liquidationLine, min, max),
            width: `calc(${share(input.warningLine, min, max)} - ${share(input.liquidationLine, min, max)})`,
          }}
        />
        <span
          className="risk-zone zone-safe"
          style={{ left: share(input.warningLine, min, max), right: 0 }}
        />
        <span className="risk-marker" style={{ left: share(standing.ratio, min, max) }} />
      </div>
      <p className="risk-sentence" data-testid="risk-sentence">
        {sentence(standing)}
      </p>
    </div>
  );
}

/** What the warning and liquidation lines mean, said once on a page that shows gauges. */
export function RiskLinesNote({
  warningLine,
  liquidationLine,
}: {
  warningLine: number;
  liquidationLine: number;
}) {
  const { LL, locale } = useI18nContext();
  return (
    <section className="risk-lines-note" data-testid="risk-lines-note" aria-labelledby="risk-lines-title">
      <h3 id="risk-lines-title">{LL.risk.linesTitle()}</h3>
      <p className="small">
        {LL.risk.linesNote({
          warningLine: formatMoney(warningLine, locale, 2),
          liquidationLine: formatMoney(liquidationLine, locale, 2),
        })}
      </p>
    </section>
  );
}
