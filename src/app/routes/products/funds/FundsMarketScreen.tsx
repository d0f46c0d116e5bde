/**
 * /jijin: fund products at the day's simulated NAV (a list, and with `?code=` one fund with its NAV chart
 * and the purchase and redemption forms) and the user's fund holdings.
 */
import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { FundDetail, FundHolding, FundProduct } from '../../../../shared/api/funds';
import { formatMoney, formatPct, formatRate } from '../../../../shared/format';
import { checkMoneyAmount } from '../../../../shared/validation';
import { fundPurchase } from '../../../../shared/fund-purchase';
import { toMajor, toMinor } from '../../../../shared/money';
import { useStationMutation, useStationQuery } from '../../../api/station-query';
import { ConfirmSheet } from '../../../components/ConfirmSheet';
import { FormField } from '../../../components/FormField';
import { LoggedOutPrompt } from '../../../components/LoggedOutPrompt';
import { PctText } from '../../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { Tabs } from '../../../components/Tabs';
import { showAlert } from '../../../state/alert';
import { validationMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { cleanAmountInput, InfoRow, useMoneyText } from '../../../components/record-parts';
import '../../../components/wallet.css';
import '../../../components/funds.css';
import { useLoggedIn } from '../../../state/use-logged-in';

const CHART_DAYS = 120;

export function FundsMarketScreen() {
  const { LL } = useI18nContext();
  const search = useSearch({ strict: false }) as { code?: string; tab?: string };
  const navigate = useNavigate();
  const tab = search.tab === 'holdings' ? 'holdings' : 'products';
  if (search.code) return <FundDetailView code={search.code} />;
  return (
    <div className="funds-screen">
      <Tabs
        items={[
          { key: 'products', label: LL.fundsUi.tabProducts(), testId: 'funds-tab-products' },
          { key: 'holdings', label: LL.fundsUi.tabHoldings(), testId: 'funds-tab-holdings' },
        ]}
        value={tab}
        label={LL.titles.fundsMarket()}
        onChange={(next) =>
          void navigate({ to: '/jijin', search: next === 'holdings' ? { tab: next } : {}, replace: true })
        }
      />
      {tab === 'holdings' ? <HoldingsList /> : <FundList />}
    </div>
  );
}

function FundList() {
  const { LL, locale } = useI18nContext();
  const funds = useStationQuery('GET /api/fund/list.do', {});
  if (funds.error && !funds.data) return <ErrorState error={funds.error} onRetry={funds.reload} />;
  if (!funds.data) return <Loading />;
  if (funds.data.length === 0) return <Empty />;
  return (
    <ul className="record-list" data-testid="fund-list">
      {funds.data.map((fund) => (
        <li key={fund.code}>
          <Link
            to="/jijin"
            search={{ code: fund.code }}
            className="record fund-row"
            data-testid={`fund-${fund.code}`}
          >
            <span>
              <strong>{fund.name}</strong>
              <span className="muted small">
                {' '}
                {fund.code} · {LL.fundsUi.type[fund.type]()} · {LL.fundsUi.risk({ level: fund.riskLevel })}
              </span>
            </span>
            <span className="fund-figures num">
              <span>{formatMoney(fund.nav, locale, 4)}</span>
              <PctText fraction={fund.dayChangePct} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The NAV history as a small line (the chart of the fund page). */
function NavChart({ detail }: { detail: FundDetail }) {
  const { LL, locale } = useI18nContext();
  const navs = detail.history.map(([, nav]) => nav);
  const min = Math.min(...navs);
  const max = Math.max(...navs);
  const span = max - min || 1;
  const points = navs
    .map(
      (nav, i) =>
        `${((i / Math.max(1, navs.length - 1)) * 300).toFixed(1)},${(90 - ((nav - min) / span) * 80).toFixed(1)}`,
    )
    .join(' ');
  const label = LL.fundsUi.navChart({ days: navs.length });
  return (
    <figure className="nav-chart">
      <svg viewBox="0 0 300 100" role="img" aria-label={label} data-testid="nav-chart">
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <figcaption className="muted small">
        {label}: {formatMoney(min, locale, 4)} – {formatMoney(max, locale, 4)}
      </figcaption>
    </figure>
  );
}

function FundDetailView({ code }: { code: string }) {
  const { LL, locale } = useI18nContext();
  const loggedIn = useLoggedIn();
  const detail = useStationQuery('GET /api/fund/detail.do', { code, days: CHART_DAYS });
  const holdings = useStationQuery('GET /user/fund/holdings.do', loggedIn ? {} : null);
  if (detail.error && !detail.data) return <ErrorState error={detail.error} onRetry={detail.reload} />;
  if (!detail.data) return <Loading />;
  const { fund } = detail.data;
  const held = holdings.data?.holdings.find((h) => h.code === fund.code);
  return (
    <div className="funds-screen wallet-screen">
      <Link to="/jijin" className="muted small">
        ← {LL.fundsUi.allFunds()}
      </Link>
      <h2 className="fund-title">
        {fund.name} <span className="muted small">{fund.code}</span>
      </h2>
      <InfoRow label={LL.fundsUi.nav()} testId="fund-nav">
        {formatMoney(fund.nav, locale, 4)}
      </InfoRow>
      <InfoRow label={LL.fundsUi.dayChange()}>
        <PctText fraction={fund.dayChangePct} />
      </InfoRow>
      <InfoRow label={LL.fundsUi.yearReturn()}>{formatPct(fund.yearReturnPct, locale)}</InfoRow>
      <p className="muted small">
        {LL.fundsUi.navDate({ date: fund.navDate })} · {LL.fundsUi.type[fund.type]()} ·{' '}
        {LL.fundsUi.risk({ level: fund.riskLevel })}
      </p>
      <NavChart detail={detail.data} />
      {loggedIn ? (
        <>
          <BuyFundForm
            code={fund.code}
            nav={fund.nav}
            minPurchase={fund.minPurchase}
            feeRate={fund.purchaseFeeRate}
          />
          {/* A buy or redemption refreshes the holdings it changed (query-keys.ts INVALIDATES). */}
          {held ? <RedeemForm holding={held} fund={fund} /> : null}
        </>
      ) : (
        <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />
      )}
    </div>
  );
}

function BuyFundForm(props: { code: string; nav: number; minPurchase: number; feeRate: number }) {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const [confirming, setConfirming] = useState(false);
  const buy = useStationMutation('POST /user/fund/buy.do', {
    onSuccess: (trade) => {
      form.reset();
      setConfirming(false);
      showAlert(LL.fundsUi.bought({ units: formatMoney(trade.units, locale) }), 'success');
    },
    onError: (apiError) => form.showRefusal(apiError),
  });
  const form = useForm<'amount'>({
    initial: { amount: '' },
    validate: ({ amount }) => ({ amount: validationMessage(LL, checkMoneyAmount(amount.trim())) }),
    sending: buy.isPending,
  });
  // This form has no message area of its own: what the station says goes under the amount.
  const error = form.errors.amount ?? form.formError;
  const value = Number(form.values.amount);
  // The station's own rule (src/shared/fund-purchase.ts): what the sheet says arrives is what arrives.
  const purchase =
    Number.isFinite(value) && value > 0 ? fundPurchase(toMinor(value), props.feeRate, props.nav) : null;
  const fee = purchase ? toMajor(purchase.fee) : 0;
  const units = purchase ? purchase.unitHundredths / 100 : 0;

  const onSubmit = form.handleSubmit(() => {
    buy.reset();
    setConfirming(true);
  });
  return (
    <form className="wallet-form" onSubmit={onSubmit} noValidate>
      <FormField
        label={LL.fundsUi.amount()}
        name="amount"
        inputMode="decimal"
        value={form.values.amount}
        error={error}
        data-testid="fund-amount"
        hint={LL.fundsUi.amountHint({
          min: money(props.minPurchase),
          rate: formatRate(props.feeRate, locale),
        })}
        onChange={(event) => form.setValue('amount', cleanAmountInput(event.target.value))}
      />
      {units > 0 ? (
        <p className="muted small num" data-testid="fund-estimate">
          {LL.fundsUi.estimate({ fee: money(fee), units: formatMoney(units, locale) })}
        </p>
      ) : null}
      <button type="submit" className="button primary block" disabled={form.busy} data-testid="fund-buy">
        {form.busy ? LL.common.submitting() : LL.fundsUi.buy()}
      </button>
      {confirming && (
        <ConfirmSheet
          testId="fund-buy-sheet"
          title={LL.fundsUi.confirmBuyTitle()}
          rows={[
            { label: LL.fundsUi.youPay(), value: money(value), testId: 'fund-confirm-pay' },
            { label: LL.fundsUi.purchaseFee(), value: money(fee), testId: 'fund-confirm-fee' },
            { label: LL.fundsUi.navLabel(), value: formatMoney(props.nav, locale, 4) },
          ]}
          arrives={{
            label: LL.fundsUi.unitsArrive(),
            value: formatMoney(units, locale),
            testId: 'fund-confirm-units',
          }}
          confirmLabel={LL.fundsUi.buy()}
          busy={buy.isPending}
          error={buy.error ? (buy.error.fields?.amount ?? buy.error.message) : null}
          onConfirm={() => buy.mutate({ code: props.code, amount: value })}
          onClose={() => setConfirming(false)}
        />
      )}
    </form>
  );
}

function RedeemForm({ holding, fund }: { holding: FundHolding; fund: FundProduct }) {
  const feeRate = fund.redeemFeeRate;
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const redeem = useStationMutation('POST /user/fund/sell.do', {
    onSuccess: (trade) => {
      form.reset();
      showAlert(LL.fundsUi.redeemed({ amount: money(trade.amount) }), 'success');
    },
    onError: (apiError) => form.showRefusal(apiError),
  });
  const form = useForm<'units'>({
    initial: { units: '' },
    validate: ({ units }) => ({ units: validationMessage(LL, checkMoneyAmount(units.trim())) }),
    sending: redeem.isPending,
  });
  // No message area of its own: what the station says goes under the units.
  const error = form.errors.units ?? form.formError;
  const onSubmit = form.handleSubmit(({ units }) =>
    redeem.mutate({ code: holding.code, units: Number(units) }),
  );
  return (
    <form className="wallet-form" onSubmit={onSubmit} noValidate>
      <FormField
        label={LL.fundsUi.units()}
        name="units"
        inputMode="decimal"
        value={form.values.units}
        error={error}
        data-testid="fund-units"
        hint={LL.fundsUi.unitsHint({
          units: formatMoney(holding.units, locale),
          rate: formatRate(feeRate, locale),
        })}
        addon={
          <button
            type="button"
            className="button ghost small"
            onClick={() => form.setValue('units', holding.units.toFixed(2))}
          >
            {LL.fundsUi.redeemAll()}
          </button>
        }
        onChange={(event) => form.setValue('units', cleanAmountInput(event.target.value))}
      />
      {fund.shortHoldRedeemFeeRate > feeRate && (
        <p className="muted small" data-testid="fund-short-hold">
          {LL.fundsUi.shortHoldHint({
            days: fund.shortHoldDays,
            rate: formatRate(fund.shortHoldRedeemFeeRate, locale),
          })}
        </p>
      )}
      <button type="submit" className="button block" disabled={form.busy} data-testid="fund-redeem">
        {form.busy ? LL.common.submitting() : LL.fundsUi.redeem()}
      </button>
    </form>
  );
}

function HoldingsList() {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const loggedIn = useLoggedIn();
  const holdings = useStationQuery('GET /user/fund/holdings.do', loggedIn ? {} : null);
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  if (holdings.error && !holdings.data)
    return <ErrorState error={holdings.error} onRetry={holdings.reload} />;
  if (!holdings.data) return <Loading />;
  if (holdings.data.holdings.length === 0) return <Empty text={LL.fundsUi.noHoldings()} />;
  return (
    <div className="wallet-screen">
      <p className="num" data-testid="fund-total">
        {LL.fundsUi.totalValue({ amount: money(holdings.data.totalValue) })}
      </p>
      <ul className="record-list" data-testid="fund-holdings">
        {holdings.data.holdings.map((h) => (
          <li key={h.code}>
            <Link to="/jijin" search={{ code: h.code }} className="record">
              <strong>{h.name}</strong>
              <InfoRow label={LL.fundsUi.units()}>{formatMoney(h.units, locale)}</InfoRow>
              <InfoRow label={LL.fundsUi.marketValue()}>{money(h.marketValue)}</InfoRow>
              <InfoRow label={LL.fundsUi.pnl()}>{money(h.pnl)}</InfoRow>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
