import { useRef, useState, type FormEvent } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { StockDetail } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { roundHalfUp } from '../../../shared/money';
import { checkLots } from '../../../shared/validation';
import { call, toApiError } from '../../api/client';
import { newRequestId } from '../../api/request-id';
import { useCall } from '../../api/use-call';
import { FormField } from '../../components/FormField';
import { moveClass, PctText } from '../../components/PriceText';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { PRICE_REFRESH_MS, priceDigits } from '../market/market-info';
import { DEFAULT_LEVERAGE, MAX_LOTS_PER_ORDER } from './trade-rules';

const route = getRouteApi('/buy');

/** /buy?code=: how many lots, what it costs, and the market order. */
export function BuyScreen() {
  const { LL } = useI18nContext();
  const { code } = route.useSearch();
  const stock = useCall('GET /api/stock/getSingleStock.do', code ? { code } : null, {
    refreshMs: PRICE_REFRESH_MS,
  });
  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (stock.loading) return <Loading />;
  if (!stock.data) return stock.error ? <ErrorState error={stock.error} onRetry={stock.reload} /> : null;
  return <BuyForm stock={stock.data} />;
}

function BuyForm({ stock }: { stock: StockDetail }) {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const [lotsText, setLotsText] = useState('1');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  // API.md idempotency: one id per order attempt. It is kept after a network failure, so pressing
  // confirm again cannot place the order twice, and renewed once the station has answered.
  const requestId = useRef(newRequestId());

  const lotsKey = checkLots(lotsText.trim(), MAX_LOTS_PER_ORDER);
  const lots = lotsKey === null ? Number(lotsText) : 0;
  const shares = lots * stock.lotSize;
  const leverage = DEFAULT_LEVERAGE;
  const estimate = roundHalfUp((stock.price * shares) / leverage, 2);
  const digits = priceDigits(stock.market, stock.price);

  const step = (delta: number) => {
    const current = Number.isInteger(Number(lotsText)) ? Number(lotsText) : 1;
    const next = Math.min(MAX_LOTS_PER_ORDER, Math.max(1, current + delta));
    setLotsText(String(next));
    setTouched(true);
    setSubmitError(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (lotsKey !== null) return;
    setBusy(true);
    setSubmitError(null);
    try {
      await call('POST /user/buy.do', {
        code: stock.code,
        lots,
        leverage,
        requestId: requestId.current,
      });
      requestId.current = newRequestId();
      showAlert(LL.buy.success(), 'success');
      await navigate({ to: '/warehouse' });
    } catch (error) {
      const apiError = toApiError(error);
      if (!apiError.isNetwork) requestId.current = newRequestId();
      const message = apiError.fields?.lots ?? apiError.message;
      setSubmitError(message);
      showAlert(message, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="buy-form" onSubmit={onSubmit} noValidate>
      <section className="buy-instrument">
        <div>
          <h2>{stock.name}</h2>
          <span className="num muted">{stock.code}</span>
        </div>
        <div className={`buy-price ${moveClass(stock.change)}`}>
          <span className="label">{LL.buy.price()}</span>
          <span className="num big" data-testid="buy-price" data-value={String(stock.price)}>
            {formatMoney(stock.price, locale, digits)}
          </span>
          <PctText fraction={stock.changePct} />
        </div>
      </section>

      <FormField
        label={LL.buy.lots()}
        name="lots"
        type="text"
        inputMode="numeric"
        autoComplete="off"
        maxLength={4}
        value={lotsText}
        error={touched && lotsKey ? LL.validation[lotsKey]() : null}
        hint={LL.buy.lotsHint({ lotSize: stock.lotSize, max: MAX_LOTS_PER_ORDER })}
        onChange={(event) => {
          setLotsText(event.target.value);
          setTouched(true);
          setSubmitError(null);
        }}
        addon={
          <span className="stepper">
            <button
              type="button"
              className="icon-button"
              aria-label={LL.buy.decrease()}
              onClick={() => step(-1)}
            >
              −
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={LL.buy.increase()}
              onClick={() => step(1)}
            >
              +
            </button>
          </span>
        }
      />

      <dl className="order-summary">
        <div>
          <dt>{LL.buy.shares()}</dt>
          <dd className="num" data-testid="buy-shares">
            {formatMoney(shares, locale, 0)}
          </dd>
        </div>
        <div>
          <dt>{LL.buy.leverage()}</dt>
          <dd className="num">{LL.buy.leverageValue({ n: leverage })}</dd>
        </div>
        <div className="total">
          <dt>{LL.buy.estimate()}</dt>
          <dd className="num" data-testid="buy-estimate" data-value={String(estimate)}>
            {stock.currency} {formatMoney(estimate, locale)}
          </dd>
        </div>
      </dl>
      <p className="muted small">{LL.buy.feesNote()}</p>

      {submitError && (
        <p className="form-error" role="alert" data-testid="buy-error">
          {submitError}
        </p>
      )}

      <div className="action-bar">
        <button type="submit" className="button primary block buy" disabled={busy} data-testid="buy-confirm">
          {busy ? LL.common.submitting() : LL.buy.confirm()}
        </button>
      </div>
    </form>
  );
}
