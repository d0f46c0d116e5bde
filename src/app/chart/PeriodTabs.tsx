import type { KeyboardEvent } from 'react';
import { useI18nContext } from '../../../locales/i18n-react';
import { CHART_PERIODS, PERIOD_LABEL_KEY, type ChartPeriod } from './kline-data';

/**
 * The chart's periods as WAI-ARIA tabs: one tab stop, the arrow keys (and Home, End) move between periods
 * and choose.
 */
export function PeriodTabs({
  period,
  onChoose,
}: {
  period: ChartPeriod;
  onChoose: (period: ChartPeriod) => void;
}) {
  const { LL } = useI18nContext();
  return (
    <div
      className="kline-group"
      role="tablist"
      aria-label={LL.chart.periodLabel()}
      onKeyDown={(event) => choosePeriodByKey(event, period, onChoose)}
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
          onClick={() => onChoose(p)}
        >
          {LL.chart.period[PERIOD_LABEL_KEY[p]]()}
        </button>
      ))}
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
