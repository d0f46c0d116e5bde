/**
 * Currency flash exchange (spec §2 /exchange, /exchangeLog): CNY, HKD and USD between the main, hk and us
 * accounts at the simulated rate less the spread, which the user sees before confirming.
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { AccountType, Currency } from '../../../shared/api/types';
import { formatDateTime, formatMoney, formatRate } from '../../../shared/format';
import { checkMoneyAmount } from '../../../shared/validation';
import { exchangedAmount } from '../../../shared/flash-exchange';
import { toMajor, toMinor } from '../../../shared/money';
import { useStationMutation, useStationPages, useStationQuery } from '../../api/station-query';
import { RATES_READ } from '../../api/reads';
import { EXCHANGE_FIRST_PAIR, spreadRead } from './wallet-reads';
import { FormField } from '../../components/FormField';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { Sheet } from '../../components/Sheet';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import {
  cleanAmountInput,
  CURRENCIES,
  InfoRow,
  PagedList,
  useFreshUser,
  useMoneyText,
} from '../../components/record-parts';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** DOMAIN.md: the account that keeps each currency. */
export const CURRENCY_ACCOUNT: Record<Currency, AccountType> = { CNY: 'main', HKD: 'hk', USD: 'us' };

/** /exchange. */
export function ExchangeScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <ExchangeForm />;
}

function ExchangeForm() {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const { user, loading, error, reload } = useFreshUser();
  const [source, setSource] = useState<Currency>(EXCHANGE_FIRST_PAIR.source);
  const [target, setTarget] = useState<Currency>(EXCHANGE_FIRST_PAIR.target);
  const pair = spreadRead(source, target);
  const spread = useStationQuery(pair.key, pair.input);
  // The day's rates: the preview is the station's own rule on them (src/shared/flash-exchange.ts).
  const rates = useStationQuery(RATES_READ.key, RATES_READ.input);
  const exchange = useStationMutation('POST /api/user/exchange.do');
  const [confirming, setConfirming] = useState(false);
  const available = user?.accounts.find((a) => a.type === CURRENCY_ACCOUNT[source])?.available ?? 0;
  const form = useForm<'amount'>({
    initial: { amount: '' },
    validate: (values) => ({
      amount:
        validationMessage(LL, checkMoneyAmount(values.amount.trim())) ??
        (Number(values.amount) > available ? LL.wallet.insufficient() : null),
    }),
    sending: exchange.isPending,
  });
  const amount = form.values.amount;
  // A refusal is read where the user is, in the open sheet (an amount's also stays under the field).
  const sheetError = form.formError ?? form.errors.amount ?? null;

  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;
  const rate = spread.data?.rate ?? null;
  const amountNumber = Number(amount);
  // What arrives, by the rule the station credits with (rounded down to the cent), not the rate × amount
  // rounded to the nearest cent, which could show a cent more than arrives.
  const receive =
    rate !== null && rates.data && spread.data && !checkMoneyAmount(amount)
      ? toMajor(
          exchangedAmount(toMinor(amountNumber), rates.data.cnyPer, source, target, spread.data.spreadRate),
        )
      : null;

  const pick = (side: 'source' | 'target', value: Currency) => {
    if (side === 'source') {
      setSource(value);
      if (value === target) setTarget(CURRENCIES.find((c) => c !== value) ?? 'HKD');
    } else {
      setTarget(value);
      if (value === source) setSource(CURRENCIES.find((c) => c !== value) ?? 'CNY');
    }
  };

  const onReview = form.handleSubmit(() => {
    if (rate !== null) setConfirming(true);
  });

  const onConfirm = () => {
    form.setFormError(null);
    form.setError('amount', undefined);
    exchange.mutate(
      { amount: amountNumber, source, target },
      {
        onSuccess: (record) => {
          setConfirming(false);
          form.reset();
          showAlert(
            LL.wallet.exchangeDone({ received: money(record.targetAmount, record.target) }),
            'success',
          );
        },
        onError: form.showRefusal,
      },
    );
  };

  const currencySelect = (id: string, value: Currency, side: 'source' | 'target') => (
    <select id={id} data-testid={id} value={value} onChange={(e) => pick(side, e.target.value as Currency)}>
      {CURRENCIES.map((c) => (
        <option key={c} value={c}>
          {LL.wallet.currency[c]()}
        </option>
      ))}
    </select>
  );

  return (
    <form className="wallet-screen wallet-form" onSubmit={onReview} noValidate>
      <div className="transfer-pair">
        <div className="field">
          <label htmlFor="exchange-source">{LL.wallet.sell()}</label>
          {currencySelect('exchange-source', source, 'source')}
          <p className="muted small num" data-testid="source-available">
            {LL.user.available()} {money(available, source)}
          </p>
        </div>
        <button
          type="button"
          className="icon-button swap"
          aria-label={LL.wallet.swap()}
          onClick={() => {
            setSource(target);
            setTarget(source);
          }}
        >
          ⇄
        </button>
        <div className="field">
          <label htmlFor="exchange-target">{LL.wallet.receive()}</label>
          {currencySelect('exchange-target', target, 'target')}
        </div>
      </div>
      <section className="summary-card" data-testid="exchange-rate">
        {spread.data && spread.data.midRate !== null && spread.data.rate !== null ? (
          <>
            <InfoRow label={LL.wallet.midRate()}>
              <span className="num">
                1 {source} = {formatMoney(spread.data.midRate, locale, 4)} {target}
              </span>
            </InfoRow>
            <InfoRow label={LL.wallet.spread()} testId="spread-rate">
              <span className="num">{formatRate(spread.data.spreadRate, locale)}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.rate()}>
              <span className="num">
                1 {source} = {formatMoney(spread.data.rate, locale, 4)} {target}
              </span>
            </InfoRow>
          </>
        ) : spread.error ? (
          <ErrorState error={spread.error} onRetry={spread.reload} />
        ) : (
          <Loading />
        )}
      </section>
      <FormField
        label={LL.wallet.amount()}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        error={form.errors.amount}
        onChange={(event) => form.setValue('amount', cleanAmountInput(event.target.value))}
        hint={receive !== null ? LL.wallet.youReceive({ amount: money(receive, target) }) : undefined}
      />
      <button
        type="submit"
        className="button primary block"
        disabled={rate === null}
        data-testid="exchange-review"
      >
        {LL.wallet.next()}
      </button>
      <Sheet
        open={confirming}
        title={LL.wallet.confirmExchange()}
        onClose={() => setConfirming(false)}
        testId="exchange-confirm-sheet"
      >
        <div className="summary-card">
          <InfoRow label={LL.wallet.sell()}>
            <span className="num">{money(amountNumber, source)}</span>
          </InfoRow>
          {spread.data && (
            <InfoRow label={LL.wallet.spread()} testId="confirm-spread">
              <span className="num">{formatRate(spread.data.spreadRate, locale)}</span>
            </InfoRow>
          )}
          {rate !== null && (
            <InfoRow label={LL.wallet.rate()}>
              <span className="num">{formatMoney(rate, locale, 4)}</span>
            </InfoRow>
          )}
          {receive !== null && (
            <InfoRow label={LL.wallet.receive()} testId="confirm-receive">
              <strong className="num">{money(receive, target)}</strong>
            </InfoRow>
          )}
        </div>
        <p className="muted small">{LL.wallet.rateNote()}</p>
        {sheetError && (
          <p className="form-error" role="alert" data-testid="form-error">
            {sheetError}
          </p>
        )}
        <button
          type="button"
          className="button primary block"
          disabled={form.busy}
          data-testid="exchange-confirm"
          onClick={onConfirm}
        >
          {form.busy ? LL.common.submitting() : LL.common.confirm()}
        </button>
      </Sheet>
    </form>
  );
}

/** /exchangeLog: every exchange, newest first. */
export function ExchangeLogScreen() {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const pages = useStationPages('GET /api/user/exchangeLog.do', { pageSize: 20 });
  return (
    <div className="wallet-screen">
      <PagedList pages={pages} emptyText={LL.wallet.noExchanges()} testId="exchange-list">
        {(record) => (
          <li key={record.id} className="record" data-testid="exchange-row">
            <div className="record-head">
              <strong className="num">
                {money(record.sourceAmount, record.source)} → {money(record.targetAmount, record.target)}
              </strong>
            </div>
            <InfoRow label={LL.wallet.midRate()}>
              <span className="num">{formatMoney(record.midRate, locale, 4)}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.spread()}>
              <span className="num">{formatRate(record.spreadRate, locale)}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.time()}>
              <span className="num">{formatDateTime(record.createdAt)}</span>
            </InfoRow>
          </li>
        )}
      </PagedList>
    </div>
  );
}
