import { useI18nContext } from '../../../../../locales/i18n-react';
import { Choice } from '../Choice';

/** The leverage multiples the instrument offers (leverageChoices), with the message when the one held is not. */
export function LeverageChips({
  leverages,
  value,
  onChange,
  testId,
  error,
}: {
  leverages: readonly number[];
  value: number;
  onChange: (leverage: number) => void;
  testId: string;
  error?: string | undefined;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <Choice
        label={LL.buy.leverage()}
        testId={testId}
        value={String(value)}
        options={leverages.map((n) => ({ key: String(n), label: LL.buy.leverageValue({ n }) }))}
        onChange={(key) => onChange(Number(key))}
      />
      {error && (
        <p className="field-error" data-testid="error-leverage">
          {error}
        </p>
      )}
    </>
  );
}
