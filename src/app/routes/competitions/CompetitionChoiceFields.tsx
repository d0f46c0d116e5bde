import type { ReactNode } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { COMPETITION_MARKETS, type CashMode, type CompetitionChoices } from './competition-form';

/**
 * The competition form's choices: how the starting cash is given (its amount fields come from the form),
 * the markets, short selling and the visibility.
 */
export function CompetitionChoiceFields({
  choices,
  onChange,
  marketsError,
  cash,
}: {
  choices: CompetitionChoices;
  onChange: (next: CompetitionChoices) => void;
  marketsError: string | undefined;
  cash: { perCurrency: ReactNode; inCny: ReactNode };
}) {
  const { LL } = useI18nContext();
  const set = (change: Partial<CompetitionChoices>) => onChange({ ...choices, ...change });
  const modes: readonly { mode: CashMode; label: string }[] = [
    { mode: 'perCurrency', label: LL.competitions.cashPerCurrency() },
    { mode: 'inCny', label: LL.competitions.cashInCny() },
  ];
  return (
    <>
      <fieldset className="competition-fieldset" data-testid="cash-mode">
        <legend>{LL.competitions.startingCash()}</legend>
        <div className="option-row">
          {modes.map(({ mode, label }) => (
            <label key={mode} className="option">
              <input
                type="radio"
                name="cashMode"
                value={mode}
                checked={choices.cashMode === mode}
                onChange={() => set({ cashMode: mode })}
                data-testid={`cash-mode-${mode}`}
              />
              <span>{label}</span>
            </label>
          ))}
        </div>
        {choices.cashMode === 'inCny' ? (
          <>
            {cash.inCny}
            <p className="field-hint">{LL.competitions.cashInCnyHint()}</p>
          </>
        ) : (
          cash.perCurrency
        )}
      </fieldset>
      <fieldset
        className="competition-fieldset"
        aria-describedby={marketsError ? 'markets-error' : undefined}
        data-testid="markets"
      >
        <legend>{LL.competitions.markets()}</legend>
        <div className="option-row">
          {COMPETITION_MARKETS.map((market) => (
            <label key={market} className="option">
              <input
                type="checkbox"
                name="markets"
                value={market}
                checked={choices.markets.includes(market)}
                onChange={(event) =>
                  set({
                    markets: event.target.checked
                      ? [...choices.markets, market]
                      : choices.markets.filter((m) => m !== market),
                  })
                }
                data-testid={`market-${market}`}
              />
              <span>{LL.competitions.market[market]()}</span>
            </label>
          ))}
        </div>
        {marketsError && (
          <p id="markets-error" className="field-error" data-testid="error-markets">
            {marketsError}
          </p>
        )}
      </fieldset>
      <label className="option">
        <input
          type="checkbox"
          name="allowShort"
          checked={choices.allowShort}
          onChange={(event) => set({ allowShort: event.target.checked })}
          data-testid="allow-short"
        />
        <span>{LL.competitions.shortLabel()}</span>
      </label>
      <fieldset className="competition-fieldset" data-testid="visibility">
        <legend>{LL.competitions.visibility()}</legend>
        <div className="option-row">
          {(['public', 'private'] as const).map((visibility) => (
            <label key={visibility} className="option">
              <input
                type="radio"
                name="visibility"
                value={visibility}
                checked={choices.visibility === visibility}
                onChange={() => set({ visibility })}
                data-testid={`visibility-${visibility}`}
              />
              <span>{LL.competitions.visibilityValue[visibility]()}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
