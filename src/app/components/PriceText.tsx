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
  const moveWord = useMoveWord()(change ?? value);
  const text = formatMoney(value, locale, digits);
  return (
    <span
      className={`num ${moveClass(change ?? value)} ${signed ? moveWord.className : ''} ${className ?? ''}`}
      data-move={signed ? moveWord['data-move'] : undefined}
      data-testid={testId}
      data-value={String(value)}
    >
      {signed && value > 0 ? `+${text}` : text}
    </span>
  );
}

/**
 * The direction of a move in words, for assistive technology: colour is never the only signal (WCAG 1.4.1;
 * the sign is shown to everyone). Spread onto the span that shows the move: the word is read after it
 * (a visually hidden ::after, global.css), and the span's text stays the number alone.
 */
export function useMoveWord(): (move: number) => { 'data-move': string; className: string } {
  const { LL } = useI18nContext();
  return (move) => ({
    'data-move': move > 0 ? LL.priceMove.up() : move < 0 ? LL.priceMove.down() : LL.priceMove.flat(),
    className: 'says-move',
  });
}

/** A change in percent from a fraction (0.0123 → +1.23%), coloured. */
export function PctText({ fraction, className }: { fraction: number; className?: string }) {
  const { locale } = useI18nContext();
  const moveWord = useMoveWord()(fraction);
  return (
    <span
      className={`num ${moveClass(fraction)} ${moveWord.className} ${className ?? ''}`}
      data-move={moveWord['data-move']}
    >
      {formatPct(fraction, locale)}
    </span>
  );
}
