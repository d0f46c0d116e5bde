/**
 * What the alert screens share: an alert's condition and state in words, and its row with delete and
 * re-arm (the instrument's sheet and the /alerts list show the same row).
 */
import { useI18nContext } from '../../../../locales/i18n-react';
import type { PriceAlert, PriceAlertKind } from '../../../shared/api/alerts';
import { formatDateTime, formatMoney, formatPct } from '../../../shared/format';
import { useStationMutation } from '../../api/station-query';
import { priceDigits } from '../../components/market-info';
import { showAlert } from '../../state/alert';

export const isChangeKind = (kind: PriceAlertKind) => kind === 'changeAbove' || kind === 'changeBelow';

/** "Price ≥ 350.00", "Change today ≤ −5.00%". */
export function useConditionText(): (
  alert: Pick<PriceAlert, 'kind' | 'value' | 'market' | 'code'>,
) => string {
  const { LL, locale } = useI18nContext();
  return ({ kind, value, market, code }) => {
    const shown = isChangeKind(kind)
      ? formatPct(value, locale)
      : formatMoney(value, locale, priceDigits(market, value, code));
    return LL.alerts.condition[kind]({ value: shown });
  };
}

export function AlertRow({ alert, showName }: { alert: PriceAlert; showName: boolean }) {
  const { LL, locale } = useI18nContext();
  const condition = useConditionText();
  const remove = useStationMutation('POST /user/alert/del.do', {
    onSuccess: () => showAlert(LL.alerts.deleted(), 'success'),
    onError: (error) => showAlert(error.message, 'error'),
  });
  const rearm = useStationMutation('POST /user/alert/rearm.do', {
    onSuccess: () => showAlert(LL.alerts.rearmed(), 'success'),
    onError: (error) => showAlert(error.message, 'error'),
  });
  const fired = alert.firedAt !== null;
  const digits = priceDigits(alert.market, alert.firedPrice ?? alert.value, alert.code);
  return (
    <li className="record" data-testid="alert-row" data-state={fired ? 'fired' : 'armed'}>
      <div className="record-head">
        <strong>
          {showName ? (
            <>
              {alert.name} <span className="muted num">{alert.code}</span>{' '}
            </>
          ) : null}
          <span data-testid="alert-condition">{condition(alert)}</span>
        </strong>
        <span className={`status-tag ${fired ? 'status-success' : 'status-pending'}`}>
          {fired ? LL.alerts.firedTag() : LL.alerts.armedTag()}
        </span>
      </div>
      {fired && (
        <p className="muted small" data-testid="alert-fired">
          {LL.alerts.firedAt({
            price: formatMoney(alert.firedPrice ?? 0, locale, digits),
            time: formatDateTime(alert.firedAt!),
          })}
        </p>
      )}
      <div className="record-actions">
        {fired && (
          <button
            type="button"
            className="button ghost small"
            data-testid="alert-rearm"
            disabled={rearm.isPending}
            onClick={() => rearm.mutate({ id: alert.id })}
          >
            {LL.alerts.rearm()}
          </button>
        )}
        <button
          type="button"
          className="button ghost small"
          data-testid="alert-delete"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ id: alert.id })}
        >
          {LL.alerts.delete()}
        </button>
      </div>
    </li>
  );
}
