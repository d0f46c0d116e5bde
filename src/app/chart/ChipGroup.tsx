/**
 * A row of small toggle chips of which one is chosen (aria-pressed): the price adjustment, the overlay and
 * the sub-chart.
 */
export function ChipGroup<T extends string>({
  label,
  choices,
  chosen,
  nameOf,
  testIdPrefix,
  onChoose,
  className = '',
}: {
  /** The group's accessible name. */
  label: string;
  choices: readonly T[];
  chosen: T;
  nameOf: (choice: T) => string;
  /** Each chip's test id is this and its choice: `kline-adjust-` → `kline-adjust-forward`. */
  testIdPrefix: string;
  onChoose: (choice: T) => void;
  className?: string;
}) {
  return (
    <div className={`kline-group${className ? ` ${className}` : ''}`} role="group" aria-label={label}>
      {choices.map((choice) => (
        <button
          key={choice}
          type="button"
          aria-pressed={choice === chosen}
          className={`kline-chip small${choice === chosen ? ' selected' : ''}`}
          data-testid={`${testIdPrefix}${choice}`}
          onClick={() => onChoose(choice)}
        >
          {nameOf(choice)}
        </button>
      ))}
    </div>
  );
}
