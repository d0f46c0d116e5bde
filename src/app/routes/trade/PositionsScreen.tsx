import { useRef, useState } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Position } from '../../../shared/api/types';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { call, toApiError } from '../../api/client';
import { newRequestId } from '../../api/request-id';
import { useCall } from '../../api/use-call';
import { PctText, PriceText } from '../../components/PriceText';
import { Sheet } from '../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { showAlert } from '../../state/alert';
import { PRICE_REFRESH_MS, priceDigits } from '../market/market-info';

const route = getRouteApi('/warehouse');

type PositionState = 'open' | 'closed';
/** API.md "Paging": at most 100 per page. */
const PAGE_SIZE = 100;

/** /warehouse: open and closed positions; an open one can be sold after a confirmation. */
export function PositionsScreen() {
  const { LL } = useI18nContext();
  const { state = 'open' } = route.useSearch();
  const navigate = useNavigate();
  const positions = useCall(
    'GET /user/position/list.do',
    { state, pageNum: 1, pageSize: PAGE_SIZE },
    state === 'open' ? { refreshMs: PRICE_REFRESH_MS } : {},
  );
  const [selling, setSelling] = useState<Position | null>(null);

  const tabs: readonly { key: PositionState; label: string; testId: string }[] = [
    { key: 'open', label: LL.positions.tabOpen(), testId: 'positions-tab-open' },
    { key: 'closed', label: LL.positions.tabClosed(), testId: 'positions-tab-closed' },
  ];

  let body;
  if (positions.loading) body = <Loading />;
  else if (!positions.data)
    body = positions.error ? <ErrorState error={positions.error} onRetry={positions.reload} /> : null;
  else if (positions.data.list.length === 0)
    body = <Empty text={state === 'open' ? LL.positions.empty() : LL.positions.emptyClosed()} />;
  else
    body = (
      <ul className="position-list" data-testid={`positions-${state}`}>
        {positions.data.list.map((position) => (
          <li key={position.id}>
            <PositionRow
              position={position}
              onSell={state === 'open' ? () => setSelling(position) : undefined}
            />
          </li>
        ))}
      </ul>
    );

  return (
    <div className="positions-screen">
      <Tabs
        items={tabs}
        value={state}
        label={LL.titles.warehouse()}
        onChange={(next) =>
          void navigate({ to: '/warehouse', search: next === 'closed' ? { state: next } : {}, replace: true })
        }
      />
      {body}
      {positions.data && positions.error && <p className="inline-error">{positions.error.message}</p>}
      {selling && (
        <SellSheet
          position={selling}
          onClose={() => setSelling(null)}
          onSold={() => {
            setSelling(null);
            positions.reload();
          }}
        />
      )}
    </div>
  );
}

function PositionRow({ position, onSell }: { position: Position; onSell?: () => void }) {
  const { LL, locale } = useI18nContext();
  const digits = priceDigits(position.market, position.openPrice);
  const price = (value: number) => formatMoney(value, locale, digits);
  const closed = position.closedAt !== null;
  const sellableLater = !closed && position.sellableFrom > Date.now();
  const reason = position.closeReason;

  return (
    <article className="position-row" data-testid="position-row" data-position-id={String(position.id)}>
      <header>
        <div>
          <h3>{position.name}</h3>
          <span className="num muted">{position.code}</span>
          {position.leverage > 1 && (
            <span className="tag">
              {LL.positions.leverage()} {position.leverage}×
            </span>
          )}
        </div>
        <div className="position-pnl">
          <PriceText value={position.pnl} signed testId="position-pnl" />
          <PctText fraction={position.yield} />
        </div>
      </header>
      <dl className="figures">
        <div>
          <dt>{LL.positions.shares()}</dt>
          <dd className="num" data-testid="position-shares" data-value={String(position.shares)}>
            {formatMoney(position.shares, locale, 0)}
          </dd>
        </div>
        <div>
          <dt>{LL.positions.openPrice()}</dt>
          <dd className="num">{price(position.openPrice)}</dd>
        </div>
        {closed ? (
          <div>
            <dt>{LL.positions.closePrice()}</dt>
            <dd className="num" data-testid="position-close-price">
              {position.closePrice === null ? '--' : price(position.closePrice)}
            </dd>
          </div>
        ) : (
          <div>
            <dt>{LL.positions.currentPrice()}</dt>
            <dd className="num" data-testid="position-current-price">
              {price(position.currentPrice)}
            </dd>
          </div>
        )}
        <div className="wide">
          <dt>{closed ? LL.positions.closedAt() : LL.positions.openedAt()}</dt>
          <dd className="num">{formatDateTime(closed ? position.closedAt! : position.openedAt)}</dd>
        </div>
        {closed && (
          <>
            <div>
              <dt>{LL.positions.buyFee()}</dt>
              <dd className="num">{formatMoney(position.buyFee, locale)}</dd>
            </div>
            <div>
              <dt>{LL.positions.sellFee()}</dt>
              <dd className="num">{formatMoney(position.sellFee, locale)}</dd>
            </div>
            <div>
              <dt>{LL.positions.stampDuty()}</dt>
              <dd className="num">{formatMoney(position.stampDuty, locale)}</dd>
            </div>
          </>
        )}
      </dl>
      {closed && reason && reason in LL.positions.closeReason && (
        <p className="muted small">{LL.positions.closeReason[reason]()}</p>
      )}
      {onSell && (
        <footer>
          {sellableLater && (
            <span className="muted small">
              {LL.positions.sellableFrom({ time: formatDateTime(position.sellableFrom) })}
            </span>
          )}
          <button type="button" className="button small sell" data-testid="sell-button" onClick={onSell}>
            {LL.positions.sell()}
          </button>
        </footer>
      )}
    </article>
  );
}

function SellSheet({
  position,
  onClose,
  onSold,
}: {
  position: Position;
  onClose: () => void;
  onSold: () => void;
}) {
  const { LL } = useI18nContext();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per sale attempt: kept across a network failure so a second press cannot sell twice.
  const requestId = useRef(newRequestId());

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await call('POST /user/sell.do', { positionId: position.id, requestId: requestId.current });
      showAlert(LL.positions.sellSuccess(), 'success');
      onSold();
    } catch (failure) {
      const apiError = toApiError(failure);
      if (!apiError.isNetwork) requestId.current = newRequestId();
      setError(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet open title={LL.positions.sellTitle()} onClose={onClose} testId="sell-sheet">
      <p className="sheet-text">
        {LL.positions.sellText({ name: position.name, code: position.code, shares: position.shares })}
      </p>
      {error && (
        <p className="form-error" role="alert" data-testid="sell-error">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button secondary" onClick={onClose}>
          {LL.common.cancel()}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="sell-confirm"
          disabled={busy}
          onClick={() => void confirm()}
        >
          {busy ? LL.common.submitting() : LL.positions.sellConfirm()}
        </button>
      </div>
    </Sheet>
  );
}
