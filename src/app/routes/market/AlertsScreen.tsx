/** /alerts: every price alert of the user, the newest first, armed and fired, with delete and re-arm. */
import { useI18nContext } from '../../../../locales/i18n-react';
import { useStationQuery } from '../../api/station-query';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { AlertRow } from './alert-parts';
import '../../components/wallet.css';
import './alerts.css';

export function AlertsScreen() {
  const { LL } = useI18nContext();
  const alerts = useStationQuery('GET /user/alert/list.do', {});
  return (
    <div className="wallet-screen" data-testid="alerts-screen">
      <p className="guide-text">{LL.alerts.intro()}</p>
      {alerts.loading ? (
        <Loading />
      ) : !alerts.data ? (
        alerts.error && <ErrorState error={alerts.error} onRetry={alerts.reload} />
      ) : alerts.data.length === 0 ? (
        <Empty text={LL.alerts.none()} />
      ) : (
        <ul className="record-list" data-testid="alert-list">
          {alerts.data.map((alert) => (
            <AlertRow key={alert.id} alert={alert} showName />
          ))}
        </ul>
      )}
    </div>
  );
}
