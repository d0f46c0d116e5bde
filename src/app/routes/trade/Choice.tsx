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
      <div className="chips" role="radiogroup" aria-label={label} data-testid={testId}>
        {options.map((option) => (
          <button
            key={option.key}
            type="button"
            role="radio"
            aria-checked={option.key === value}
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
