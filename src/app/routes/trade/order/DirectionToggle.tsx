import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Direction } from '../../../../shared/api/types';
import { Choice } from '../Choice';

/** Long or short: shown only where the market's orders may be short (canShort). */
export function DirectionToggle({
  value,
  onChange,
  testId,
}: {
  value: Direction;
  onChange: (direction: Direction) => void;
  testId: string;
}) {
  const { LL } = useI18nContext();
  return (
    <Choice
      label={LL.trading.direction()}
      testId={testId}
      value={value}
      options={[
        { key: 'long', label: LL.trading.long() },
        { key: 'short', label: LL.trading.short() },
      ]}
      onChange={onChange}
    />
  );
}
