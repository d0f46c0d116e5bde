/** What an arrow key does in the group: the next option or the previous one. */
const ARROW_STEP: Record<string, number | undefined> = {
  ArrowRight: 1,
  ArrowDown: 1,
  ArrowLeft: -1,
  ArrowUp: -1,
};

/** A row of chips choosing one of a few options (direction, order type, leverage, kind). */
export function Choice<K extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: K;
  options: readonly { key: K; label: string }[];
  onChange: (key: K) => void;
  testId: string;
}) {
  return (
    <div className="field choice-field">
      <span className="choice-label">{label}</span>
      {/* WAI-ARIA radio group: one tab stop, the arrow keys choose the next or previous option. */}
      <div
        className="chips"
        role="radiogroup"
        aria-label={label}
        data-testid={testId}
        onKeyDown={(event) => {
          const step = ARROW_STEP[event.key];
          if (!step) return;
          event.preventDefault();
          const at = options.findIndex((option) => option.key === value);
          const to = (at + step + options.length) % options.length;
          onChange(options[to]!.key);
          event.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]')[to]?.focus();
        }}
      >
        {options.map((option) => (
          <button
            key={option.key}
            type="button"
            role="radio"
            aria-checked={option.key === value}
            tabIndex={option.key === value ? 0 : -1}
            className={option.key === value ? 'chip selected' : 'chip'}
            data-testid={`${testId}-${option.key}`}
            onClick={() => onChange(option.key)}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
