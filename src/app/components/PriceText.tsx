import { useI18nContext } from '../../../locales/i18n-react';
import { formatMoney, formatPct } from '../../shared/format';
import { moveClass } from './move-class';

/** Screens take the colour class of a move from here, beside the components that use it. */
export { moveClass };

interface NumberTextProps {
  value: number;
  /** The move that decides the colour; defaults to the value itself. */
  change?: number;
  digits?: number;
  /** Prefix positive values with "+". */
  signed?: boolean;
  className?: string;
  testId?: string;
}

/** A price or amount in tabular figures, coloured by its move. */
export function PriceText({ value, change, digits = 2, signed = false, className, testId }: NumberTextProps) {
  const { locale } = useI18nContext();
  const text = formatMoney(value, locale, digits);
  return (
    <span
      className={`num ${moveClass(change ?? value)} ${className ?? ''}`}
      data-testid={testId}
      data-value={String(value)}
    >
      {signed && value > 0 ? `+${text}` : text}
    </span>
  );
}

/** A change in percent from a fraction (0.0123 → +1.23%), coloured. */
export function PctText({ fraction, className }: { fraction: number; className?: string }) {
  return <span className={`num ${moveClass(fraction)} ${className ?? ''}`}>{formatPct(fraction)}</span>;
}
