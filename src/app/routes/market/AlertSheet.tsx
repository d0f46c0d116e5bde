/**
 * An instrument's price alerts (spec-level feature "price alerts"): the bell beside the watchlist star opens
 * a sheet with the form to set one (price above or below, change today above or below) and the alerts
 * already set on it. Notification permission is asked once, when the user sets their first alert; an alert
 * reaches the user as a toast, a system notification while the app is in the background, and a message.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { PRICE_ALERT_KINDS, type PriceAlertKind } from '../../../shared/api/alerts';
import type { Market } from '../../../shared/api/types';
import { formatMoney, formatPct } from '../../../shared/format';
import { alertMet, checkAlertValue } from '../../../shared/price-alerts';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { priceDigits } from '../../components/market-info';
import { Sheet } from '../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import { showAlert } from '../../state/alert';
import { showLoginPrompt } from '../../state/login-prompt';
import { useLoggedIn } from '../../state/use-logged-in';
import { AlertRow, isChangeKind } from './alert-parts';
import { askNotificationPermission } from './notification-permission';
import './alerts.css';

interface AlertTarget {
  code: string;
  name: string;
  market: Market;
  price: number;
  changePct: number;
}

export function AlertButton({ target }: { target: AlertTarget }) {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button small ghost"
        data-testid="alert-button"
        aria-label={LL.alerts.open({ name: target.name })}
        onClick={() => (loggedIn ? setOpen(true) : showLoginPrompt())}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <Sheet
        open={open}
        title={LL.alerts.sheetTitle({ name: target.name })}
        onClose={() => setOpen(false)}
        testId="alert-sheet"
      >
        {open && <AlertSheetBody target={target} />}
      </Sheet>
    </>
  );
}

function AlertSheetBody({ target }: { target: AlertTarget }) {
  const { LL } = useI18nContext();
  const mine = useStationQuery('GET /user/alert/list.do', { code: target.code });
  return (
    <div className="wallet-screen">
      <AlertForm target={target} firstAlert={mine.data?.length === 0} />
      <h3 className="section-title">{LL.alerts.onThis()}</h3>
      {mine.loading ? (
        <Loading />
      ) : !mine.data ? (
        mine.error && <ErrorState error={mine.error} onRetry={mine.reload} />
      ) : mine.data.length === 0 ? (
        <Empty text={LL.alerts.noneHere()} />
      ) : (
        <ul className="record-list" data-testid="alert-list">
          {mine.data.map((alert) => (
            <AlertRow key={alert.id} alert={alert} showName={false} />
          ))}
        </ul>
      )}
      <p className="muted small">
        <Link to="/alerts" data-testid="all-alerts-link">
          {LL.alerts.all()}
        </Link>
      </p>
    </div>
  );
}

/** The value as the station takes it: a price, or a change typed in per cent as a fraction. */
const stationValue = (kind: PriceAlertKind, text: string) =>
  isChangeKind(kind) ? Number(text) / 100 : Number(text);

function AlertForm({ target, firstAlert }: { target: AlertTarget; firstAlert: boolean }) {
  const { LL, locale } = useI18nContext();
  const [kind, setKind] = useState<PriceAlertKind>('priceAbove');
  const add = useStationMutation('POST /user/alert/add.do', {
    onSuccess: () => {
      form.reset();
      showAlert(LL.alerts.added(), 'success');
      // Asked only once the user has set their first alert, never on opening the app.
      if (firstAlert) void askNotificationPermission();
    },
    onError: (error) => form.showRefusal(error),
  });
  const form = useForm<'value'>({
    initial: { value: '' },
    validate: ({ value }) => {
      const text = value.trim();
      if (text === '') return { value: LL.alerts.valueEmpty() };
      const n = stationValue(kind, text);
      const problem = checkAlertValue(kind, n) ?? (alertMet(kind, n, target) ? 'alertAlreadyMet' : null);
      return { value: validationMessage(LL, problem) };
    },
    sending: add.isPending,
  });
  const change = isChangeKind(kind);
  const digits = priceDigits(target.market, target.price, target.code);
  const onSubmit = form.handleSubmit(({ value }) =>
    add.mutate({ code: target.code, kind, value: stationValue(kind, value.trim()) }),
  );
  return (
    <form className="wallet-form" onSubmit={onSubmit} noValidate data-testid="alert-form">
      <fieldset className="alert-kinds">
        <legend className="muted small">{LL.alerts.when()}</legend>
        {PRICE_ALERT_KINDS.map((k) => (
          <label key={k}>
            <input
              type="radio"
              name="kind"
              value={k}
              checked={kind === k}
              data-testid={`alert-kind-${k}`}
              onChange={() => {
                setKind(k);
                form.setError('value', undefined);
              }}
            />
            {LL.alerts.kinds[k]()}
          </label>
        ))}
      </fieldset>
      <FormField
        label={change ? LL.alerts.changeLabel() : LL.alerts.priceLabel()}
        name="value"
        inputMode="decimal"
        autoComplete="off"
        value={form.values.value}
        error={form.errors.value}
        hint={
          change
            ? LL.alerts.changeNow({ pct: formatPct(target.changePct, locale) })
            : LL.alerts.priceNow({ price: formatMoney(target.price, locale, digits) })
        }
        onChange={(event) => form.setValue('value', event.target.value.replace(/[^\d.-]/g, '').slice(0, 16))}
      />
      <FormSubmit formError={form.formError} busy={form.busy} label={LL.alerts.set()} testId="alert-submit" />
    </form>
  );
}
