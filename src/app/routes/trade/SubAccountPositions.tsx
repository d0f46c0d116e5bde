/**
 * The split account of a fund allocation as /holdorderlist2 shows it with `?applyId=`: its open and closed
 * positions, and a sell for an open one (the allocation's own cash, not the user's accounts).
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Position } from '../../../shared/api/types';
import { formatDateTime } from '../../../shared/format';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { PriceText } from '../../components/PriceText';
import { Sheet } from '../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { showAlert } from '../../state/alert';
import { InfoRow } from '../../components/record-parts';
import '../../components/wallet.css';
import '../../components/funds.css';

/** The sub-account's open or closed positions, with a sell for open ones (on /holdorderlist2?applyId=). */
export function SubAccountPositions({ applyId }: { applyId: number }) {
  const { LL } = useI18nContext();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const list = useStationQuery(
    'GET /user/funds/fundsList.do',
    { applyId, state, pageNum: 1, pageSize: 100 },
    { refetchInterval: 10_000 },
  );
  const [selling, setSelling] = useState<Position | null>(null);
  return (
    <div className="funds-screen" data-testid="sub-positions">
      <Tabs
        items={[
          { key: 'open', label: LL.positions.tabOpen(), testId: 'sub-tab-open' },
          { key: 'closed', label: LL.positions.tabClosed(), testId: 'sub-tab-closed' },
        ]}
        value={state}
        label={LL.fundsUi.positions()}
        onChange={setState}
      />
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.list.length === 0 ? (
        <Empty text={state === 'open' ? LL.positions.empty() : LL.positions.emptyClosed()} />
      ) : (
        <ul className="record-list">
          {list.data.list.map((p) => (
            <li key={p.id} className="record" data-testid={`sub-position-${p.id}`}>
              <strong>
                {p.name} <span className="muted small">{p.code}</span>
              </strong>
              <InfoRow label={LL.positions.lots()}>{LL.fundsUi.lotsValue({ lots: p.lots })}</InfoRow>
              <InfoRow label={LL.positions.openPrice()}>{p.openPrice}</InfoRow>
              <InfoRow label={state === 'open' ? LL.positions.currentPrice() : LL.positions.closePrice()}>
                {p.closePrice ?? p.currentPrice}
              </InfoRow>
              <InfoRow label={LL.positions.pnl()}>
                <PriceText value={p.pnl} change={p.pnl} signed />
              </InfoRow>
              {p.closeReason ? (
                <InfoRow label={LL.positions.closedAt()}>
                  <span data-testid="sub-close-reason">{LL.positions.closeReason[p.closeReason]()}</span> ·{' '}
                  {p.closedAt ? formatDateTime(p.closedAt) : ''}
                </InfoRow>
              ) : (
                <button
                  type="button"
                  className="button small"
                  data-testid={`sub-sell-${p.id}`}
                  onClick={() => setSelling(p)}
                >
                  {LL.positions.sell()}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <SellSheet applyId={applyId} position={selling} onClose={() => setSelling(null)} onDone={list.reload} />
    </div>
  );
}

function SellSheet(props: {
  applyId: number;
  position: Position | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { LL } = useI18nContext();
  const p = props.position;
  const sellFunds = useStationMutation('POST /user/funds/sellFunds.do', {
    onSuccess: () => {
      showAlert(LL.positions.sellSuccess(), 'success');
      props.onDone();
    },
    onError: (apiError) => showAlert(apiError.message, 'error'),
    onSettled: props.onClose,
  });
  const sell = () => {
    if (p) sellFunds.mutate({ applyId: props.applyId, positionId: p.id });
  };
  return (
    <Sheet open={p !== null} title={LL.positions.sellTitle()} onClose={props.onClose}>
      {p ? <p>{LL.positions.sellText({ shares: p.shares, name: p.name, code: p.code })}</p> : null}
      <button
        type="button"
        className="button primary block"
        disabled={sellFunds.isPending}
        data-testid="sub-sell-confirm"
        onClick={sell}
      >
        {sellFunds.isPending ? LL.common.submitting() : LL.positions.sellConfirm()}
      </button>
    </Sheet>
  );
}
