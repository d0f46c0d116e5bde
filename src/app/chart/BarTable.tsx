import type { Bar } from '../../shared/api/types';

export interface BarTableProps {
  id: string;
  rows: readonly Bar[];
  caption: string;
  labels: Record<'time' | 'open' | 'high' | 'low' | 'close' | 'volume', string>;
  fmt: (value: number | null | undefined, digits?: number) => string;
  locale: string;
  timeZone?: string;
  withTime: boolean;
}

/** The chart as a table: the bars in view, newest first, for a screen reader or whoever prefers numbers. */
export function BarTable({ id, rows, caption, labels, fmt, locale, timeZone, withTime }: BarTableProps) {
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'short',
    ...(withTime ? { timeStyle: 'short' } : {}),
    ...(timeZone ? { timeZone } : {}),
  });
  return (
    <div className="kline-table-wrap">
      <table className="kline-table num" id={id} data-testid="kline-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{labels.time}</th>
            <th scope="col">{labels.open}</th>
            <th scope="col">{labels.high}</th>
            <th scope="col">{labels.low}</th>
            <th scope="col">{labels.close}</th>
            <th scope="col">{labels.volume}</th>
          </tr>
        </thead>
        <tbody>
          {rows
            .slice()
            .reverse()
            .map((row) => (
              <tr key={row[0]}>
                <th scope="row">{when.format(row[0])}</th>
                <td>{fmt(row[1])}</td>
                <td>{fmt(row[2])}</td>
                <td>{fmt(row[3])}</td>
                <td>{fmt(row[4])}</td>
                <td>{fmt(row[5], 0)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
