import { useId, useState } from 'react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { Bar } from '../../shared/api/types';
import { BarTable } from './BarTable';

/** The "show as table" control and, when pressed, the bars in view as a table. */
export function ChartTable({
  code,
  periodName,
  rows,
  fmt,
  timeZone,
  withTime,
}: {
  code: string;
  periodName: string;
  /** The bars in view, oldest first. */
  rows: readonly Bar[];
  fmt: (value: number | null | undefined, digits?: number) => string;
  timeZone?: string;
  withTime: boolean;
}) {
  const { LL, locale } = useI18nContext();
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  if (rows.length === 0) return null;
  return (
    <>
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
      {tableShown && (
        <BarTable
          id={tableId}
          rows={rows}
          caption={LL.chart.table.caption({ code, period: periodName, count: String(rows.length) })}
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
          withTime={withTime}
        />
      )}
    </>
  );
}
