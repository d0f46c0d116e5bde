import { useState } from 'react';
import { useSelector } from '@legendapp/state/react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { quantityLabel } from '../../i18n/quantity';
import type { Market, Position } from '../../../shared/api/types';
import type { TranslationFunctions } from '../../../../locales/i18n-types';
import { quantityUnit } from '../../../shared/trading-rules';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { toMajor } from '../../../shared/money';
import { holdingValue } from '../../../shared/pnl';
import { checkLots } from '../../../shared/validation';
import { lotsMessage } from '../../forms/form-errors';
import type { ApiError } from '../../api/errors';
import {
  useStationMutation,
  useStationQuery,
  type IntentIn,
  type StationQuery,
} from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { PctText, PriceText } from '../../components/PriceText';
import { Sheet } from '../../components/Sheet';
import { SheetButtons } from '../../components/SheetButtons';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { livePnl, useLivePrice } from './live-position';
import { checkStops, parsePrice } from './trade-rules';
import { stopLossBeyondLiquidation } from '../../../shared/risk';
import { tradingCompetition$ } from '../../state/trading-account';
import { positionsRead } from './trade-reads';
import '../../components/trade.css';

/** `?id=` as a position id, else null. */
function usePositionId(): number | null {
  const search = useSearch({ strict: false }) as { id?: string };
  const id = Number(search.id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * One of the user's positions by id, open or closed (there is no single-position call: the lists have it),
 * in the trading account chosen on the positions page (state/trading-account.ts): the user's own, or a
 * competition's, whose id the sale then names too.
 */
function usePosition(
  id: number | null,
): StationQuery<Position | null> & { reloadAll: () => void; competitionId: number | undefined } {
  const competitionId = useSelector(tradingCompetition$) ?? undefined;
  // The same keys as /warehouse's lists: a position opened or closed there is already in the cache here.
  const open = useStationQuery(
    'GET /user/position/list.do',
    id === null ? null : positionsRead('open', competitionId).input,
    { refetchInterval: PRICE_REFRESH_MS },
  );
  const found = open.data?.list.find((p) => p.id === id);
  const closed = useStationQuery(
    'GET /user/position/list.do',
    id === null || !open.data || found ? null : positionsRead('closed', competitionId).input,
  );
  const data = found ?? (closed.data ? (closed.data.list.find((p) => p.id === id) ?? null) : undefined);
  const error: ApiError | undefined = open.error ?? closed.error;
  return {
    data,
    error,
    loading: data === undefined && error === undefined,
    competitionId,
    reload: open.reload,
    reloadAll: () => {
      open.reload();
      closed.reload();
    },
  };
}

/** /detail?id=: one position with every field of spec §3 "Position", and what can be done with it. */
export function PositionDetailScreen() {
  const { LL } = useI18nContext();
  const id = usePositionId();
  const position = usePosition(id);
  const [sheet, setSheet] = useState<'topUp' | 'stops' | null>(null);
  if (id === null) return <ErrorState error={new Error(LL.trading.missingPosition())} />;
  if (position.loading) return <Loading />;
  if (!position.data)
    return (
      <ErrorState error={position.error ?? new Error(LL.errors.NOT_FOUND())} onRetry={position.reloadAll} />
    );
  const p = position.data;
  const open = p.closedAt === null;
  return (
    <div className="position-detail" data-testid="position-detail-screen">
      <PositionFigures position={p} />
      {open && (
        <div className="button-row detail-actions">
          <button
            type="button"
            className="button secondary"
            data-testid="topup-button"
            onClick={() => setSheet('topUp')}
          >
            {LL.trading.topUp()}
          </button>
          <button
            type="button"
            className="button secondary"
            data-testid="stops-button"
            onClick={() => setSheet('stops')}
          >
            {LL.trading.setStops()}
          </button>
          <Link
            to="/sellStocks"
            search={{ id: String(p.id) }}
            className="button primary sell"
            data-testid="close-button"
          >
            {LL.trading.close()}
          </Link>
        </div>
      )}
      {sheet === 'topUp' && (
        <TopUpSheet position={p} onClose={() => setSheet(null)} onDone={() => setSheet(null)} />
      )}
      {sheet === 'stops' && (
        <StopsSheet position={p} onClose={() => setSheet(null)} onDone={() => setSheet(null)} />
      )}
    </div>
  );
}

function PositionFigures({ position: p }: { position: Position }) {
  const { LL, locale } = useI18nContext();
  const livePrice = useLivePrice(p);
  const open = p.closedAt === null;
  const figures = open ? livePnl(p, livePrice) : p;
  const { pnl, yield: yieldFraction } = figures;
  const digits = priceDigits(p.market, p.openPrice, p.code);
  const price = (value: number | null) => (value === null ? '--' : formatMoney(value, locale, digits));
  const money = (value: number) => formatMoney(value, locale);
  const rows: [string, string, string][] = [
    [LL.trading.direction(), p.direction === 'long' ? LL.trading.long() : LL.trading.short(), 'f-direction'],
    [LL.positions.openPrice(), price(p.openPrice), 'f-open-price'],
    [
      open ? LL.positions.currentPrice() : LL.positions.closePrice(),
      price(open ? livePrice : p.closePrice),
      'f-price',
    ],
    [quantityLabel(LL, p.market), String(p.lots), 'f-lots'],
    // Indexes and futures are counted in contracts only: their "shares" (contracts × multiplier) mean nothing.
    ...(quantityUnit(p.market) === 'contracts'
      ? []
      : [[LL.positions.shares(), formatMoney(p.shares, locale, 0), 'f-shares'] as [string, string, string]]),
    [LL.positions.leverage(), LL.buy.leverageValue({ n: p.leverage }), 'f-leverage'],
    [LL.trading.margin(), money(p.margin), 'f-margin'],
    [
      LL.trading.marketValue(),
      money(open ? toMajor(holdingValue(livePrice, p.shares, p.fxRate)) : p.marketValue),
      'f-market-value',
    ],
    [LL.positions.buyFee(), money(p.buyFee), 'f-buy-fee'],
    [LL.positions.sellFee(), money(p.sellFee), 'f-sell-fee'],
    [LL.positions.stampDuty(), money(p.stampDuty), 'f-stamp-duty'],
    [LL.trading.deferredFee(), money(p.deferredFee), 'f-deferred-fee'],
    // DOMAIN.md "P&L": the price part and the fees beside the net figure the header shows.
    [LL.positions.pricePnl(), money(figures.pricePnl), 'f-price-pnl'],
    [LL.positions.totalFees(), money(figures.fees), 'f-fees'],
    [LL.positions.netPnl(), money(pnl), 'f-net-pnl'],
    [LL.trading.stopProfit(), price(p.stopProfit), 'f-stop-profit'],
    [LL.trading.stopLoss(), price(p.stopLoss), 'f-stop-loss'],
    [
      LL.trading.liquidationPrice(),
      p.liquidationPrice === null ? LL.trading.none() : price(p.liquidationPrice),
      'f-liquidation',
    ],
    [LL.positions.openedAt(), formatDateTime(p.openedAt), 'f-opened-at'],
    [LL.positions.closedAt(), p.closedAt === null ? '--' : formatDateTime(p.closedAt), 'f-closed-at'],
  ];
  return (
    <section className="position-figures">
      <header className="detail-head">
        <div>
          <h2>{p.name}</h2>
          <span className="num muted">{p.code}</span>
          {p.closeReason && (
            <span className="tag" data-testid="f-close-reason">
              {LL.positions.closeReason[p.closeReason]()}
            </span>
          )}
        </div>
        <div className="position-pnl">
          <PriceText value={pnl} signed testId="f-pnl" />
          <span className="muted small">{LL.trading.yield()}</span> <PctText fraction={yieldFraction} />
        </div>
      </header>
      <dl className="breakdown">
        {rows.map(([label, value, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd className="num" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type SheetCall = 'POST /user/position/topUp.do' | 'POST /user/position/setStops.do' | 'POST /user/sell.do';

/**
 * The change a sheet makes (a station mutation: its requestId, its pending state, and the positions and
 * accounts it invalidates), with the station's message, a bad field's message beside it.
 */
function useSheetMutation<K extends SheetCall>(key: K, onDone: () => void, success: string) {
  const mutation = useStationMutation(key, {
    onSuccess: () => {
      showAlert(success, 'success');
      onDone();
    },
  });
  const failure = mutation.error;
  const fieldMessage = failure?.fields ? Object.values(failure.fields)[0] : undefined;
  return {
    busy: mutation.isPending,
    error: !failure
      ? null
      : failure.code === 'VALIDATION' && fieldMessage
        ? `${failure.message} ${fieldMessage}`
        : failure.message,
    submit: (input: IntentIn<K>) => mutation.mutate(input),
  };
}

function TopUpSheet({
  position,
  onClose,
  onDone,
}: {
  position: Position;
  onClose: () => void;
  onDone: () => void;
}) {
  const { LL } = useI18nContext();
  const [amountText, setAmountText] = useState('');
  const amount = parsePrice(amountText);
  const [touched, setTouched] = useState(false);
  const mutation = useSheetMutation('POST /user/position/topUp.do', onDone, LL.trading.topUpDone());
  return (
    <Sheet open title={LL.trading.topUp()} onClose={onClose} testId="topup-sheet">
      <p className="sheet-text">{LL.trading.topUpText()}</p>
      <FormField
        label={LL.trading.amount()}
        name="amount"
        inputMode="decimal"
        value={amountText}
        error={touched && amount === null ? LL.validation.amountInvalid() : null}
        onChange={(e) => setAmountText(e.target.value)}
      />
      {mutation.error && (
        <p className="form-error" role="alert" data-testid="topup-error">
          {mutation.error}
        </p>
      )}
      <SheetButtons
        label={LL.trading.topUp()}
        busy={mutation.busy}
        onConfirm={() => {
          setTouched(true);
          if (amount !== null) mutation.submit({ positionId: position.id, amount });
        }}
        onCancel={onClose}
        testId="topup-confirm"
      />
    </Sheet>
  );
}

function StopsSheet({
  position,
  onClose,
  onDone,
}: {
  position: Position;
  onClose: () => void;
  onDone: () => void;
}) {
  const { LL, locale } = useI18nContext();
  const price = useLivePrice(position);
  const [profitText, setProfitText] = useState(
    position.stopProfit === null ? '' : String(position.stopProfit),
  );
  const [lossText, setLossText] = useState(position.stopLoss === null ? '' : String(position.stopLoss));
  const stopProfit = parsePrice(profitText);
  const stopLoss = parsePrice(lossText);
  const problem = checkStops(position.direction, price, {
    stopProfit,
    stopLoss,
    stopProfitText: profitText,
    stopLossText: lossText,
  });
  const digits = priceDigits(position.market, position.openPrice, position.code);
  // DOMAIN.md: a stop loss beyond the liquidation price is accepted, with a warning naming both prices.
  const beyond =
    problem === null && stopLossBeyondLiquidation(position.direction, stopLoss, position.liquidationPrice)
      ? LL.trading.stopLossBeyondLiquidation({
          stopLoss: formatMoney(stopLoss ?? 0, locale, digits),
          liquidationPrice: formatMoney(position.liquidationPrice ?? 0, locale, digits),
        })
      : null;
  const [touched, setTouched] = useState(false);
  const mutation = useSheetMutation('POST /user/position/setStops.do', onDone, LL.trading.stopsSaved());
  const message =
    problem === 'invalid'
      ? LL.validation.invalid()
      : problem === 'side'
        ? position.direction === 'long'
          ? LL.errors.STOPS_LONG()
          : LL.errors.STOPS_SHORT()
        : null;
  return (
    <Sheet open title={LL.trading.setStops()} onClose={onClose} testId="stops-sheet">
      <p className="sheet-text">{LL.trading.stopsText()}</p>
      <FormField
        label={LL.trading.stopProfit()}
        name="stopProfit"
        inputMode="decimal"
        placeholder={LL.trading.optional()}
        value={profitText}
        onChange={(e) => setProfitText(e.target.value)}
      />
      <FormField
        label={LL.trading.stopLoss()}
        name="stopLoss"
        inputMode="decimal"
        placeholder={LL.trading.optional()}
        value={lossText}
        onChange={(e) => setLossText(e.target.value)}
      />
      {touched && message && <p className="field-error">{message}</p>}
      {beyond && (
        <p className="field-warning" role="status" data-testid="stops-liquidation-warning">
          {beyond}
        </p>
      )}
      {mutation.error && (
        <p className="form-error" role="alert" data-testid="stops-error">
          {mutation.error}
        </p>
      )}
      <SheetButtons
        label={LL.trading.save()}
        busy={mutation.busy}
        onConfirm={() => {
          setTouched(true);
          if (message === null)
            mutation.submit({
              positionId: position.id,
              ...(stopProfit !== null ? { stopProfit } : {}),
              ...(stopLoss !== null ? { stopLoss } : {}),
            });
        }}
        onCancel={onClose}
        testId="stops-confirm"
      />
    </Sheet>
  );
}

/** /sellStocks?id=: close a position, whole or some lots of it, at the market. */
export function SellScreen() {
  const { LL, locale } = useI18nContext();
  const id = usePositionId();
  const position = usePosition(id);
  const navigate = useNavigate();
  const [lotsText, setLotsText] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const p = position.data;
  const lots = lotsText ?? (p ? String(p.lots) : '');
  const lotsKey = p ? checkLots(lots.trim(), p.lots) : null;
  const mutation = useSheetMutation(
    'POST /user/sell.do',
    () => void navigate({ to: '/warehouse', search: { tab: 'closed' } }),
    LL.positions.sellSuccess(),
  );
  const livePrice = useLivePrice(p);
  if (id === null) return <ErrorState error={new Error(LL.trading.missingPosition())} />;
  if (position.loading) return <Loading />;
  if (!p)
    return (
      <ErrorState error={position.error ?? new Error(LL.errors.NOT_FOUND())} onRetry={position.reloadAll} />
    );
  if (p.closedAt !== null) return <ErrorState error={new Error(LL.errors.POSITION_CLOSED())} />;
  const price = livePrice;
  const part = lotsKey === null ? Number(lots) / p.lots : 0;
  const estimate = livePnl(p, price).pnl * part;
  return (
    <div className="buy-form" data-testid="sell-screen">
      <section className="buy-instrument">
        <div>
          <h2>{p.name}</h2>
          <span className="num muted">{p.code}</span>
        </div>
        <div className="buy-price">
          <span className="label">{LL.positions.currentPrice()}</span>
          <span className="num big">{formatMoney(price, locale, priceDigits(p.market, price, p.code))}</span>
        </div>
      </section>
      <FormField
        label={closeLabel(LL, p.market)}
        name="lots"
        inputMode="numeric"
        value={lots}
        error={touched ? lotsMessage(LL, lotsKey, p.lots) : null}
        hint={LL.trading.closeLotsHint({ max: p.lots })}
        onChange={(e) => {
          setLotsText(e.target.value);
          setTouched(true);
        }}
        addon={
          <button type="button" className="button small ghost" onClick={() => setLotsText(String(p.lots))}>
            {LL.trading.all()}
          </button>
        }
      />
      <dl className="order-summary">
        <div>
          <dt>{LL.trading.estimatedPnl()}</dt>
          <dd>
            <PriceText value={Math.round(estimate * 100) / 100} signed />
          </dd>
        </div>
      </dl>
      <p className="muted small">{LL.trading.closeNote()}</p>
      {mutation.error && (
        <p className="form-error" role="alert" data-testid="sell-error">
          {mutation.error}
        </p>
      )}
      <div className="action-bar">
        <button
          type="button"
          className="button primary block sell"
          data-testid="sell-confirm"
          disabled={mutation.busy}
          onClick={() => {
            setTouched(true);
            if (lotsKey === null && p)
              mutation.submit({
                positionId: p.id,
                ...(Number(lots) !== p.lots ? { lots: Number(lots) } : {}),
                ...(position.competitionId !== undefined ? { competitionId: position.competitionId } : {}),
              });
          }}
        >
          {mutation.busy ? LL.common.submitting() : LL.positions.sellConfirm()}
        </button>
      </div>
    </div>
  );
}

/** The close form's quantity label in the market's own unit (quantityUnit): lots, shares or contracts. */
function closeLabel(LL: TranslationFunctions, market: Market): string {
  const unit = quantityUnit(market);
  return unit === 'lots'
    ? LL.trading.closeLots()
    : unit === 'shares'
      ? LL.trading.closeShares()
      : LL.trading.closeContracts();
}
