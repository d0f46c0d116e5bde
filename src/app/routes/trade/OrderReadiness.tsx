/**
 * What the order form says before the user starts (a broker app's buy screen): whether the market trades now
 * and when it opens next in the exchange's time, whether real-name verification stands in the way (with the
 * way to finish it), which account pays and what it holds, the most the user can buy at the chosen leverage,
 * and — when the paying account is short but its sibling account has the cash — a one-tap transfer.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Account, Currency, KycStatus, Market } from '../../../shared/api/types';
import type { CompetitionAccount } from '../../../shared/api/competitions';
import type { TransferAccount } from '../../../shared/api/calls';
import { formatMoney } from '../../../shared/format';
import { quickTransferAmount } from '../../../shared/trading-rules';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { ConfirmSheet } from '../../components/ConfirmSheet';
import { useExchangeTime } from '../../i18n/exchange-time';
import { quantityCount } from '../../i18n/quantity';
import { showAlert } from '../../state/alert';
import { calendarLink } from '../../components/calendar-link';

/** How often the market state is read again while the form is open: a session may open or close meanwhile. */
const MARKET_STATE_REFRESH_MS = 60_000;

/** The account that pays for an order, and the one a transfer may come from (transAmt.do: main ↔ index). */
const SIBLING: Partial<Record<Account['type'], TransferAccount>> = { index: 'main', main: 'index' };

export function MarketStateLine({
  code,
  market,
  currency,
}: {
  code: string;
  market: Market;
  currency: Currency;
}) {
  const { LL } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const calendar = calendarLink(market, currency);
  const state = useStationQuery(
    'GET /api/stock/getMarketState.do',
    { code },
    { refetchInterval: MARKET_STATE_REFRESH_MS },
  );
  if (!state.data) return null;
  const { state: name, nextOpen, holiday } = state.data;
  const time = nextOpen === null ? '' : exchangeTime(nextOpen, market, currency);
  const text =
    name === 'open'
      ? LL.buy.marketOpen()
      : nextOpen === null
        ? LL.buy.marketClosedNoTime()
        : name === 'lunch'
          ? LL.buy.marketLunch({ time })
          : name === 'holiday'
            ? LL.buy.marketHoliday({ name: holiday ?? '', time })
            : LL.buy.marketClosed({ time });
  return (
    <div className={`readiness-line market-${name}`} data-testid="market-state" data-state={name}>
      <span className="readiness-dot" aria-hidden="true" />
      <div>
        <p>{text}</p>
        {name !== 'open' && <p className="muted small">{LL.buy.marketClosedNote()}</p>}
        {/* The next open and the holidays after it, for every market: the trading calendar. */}
        <Link
          to={calendar.to}
          search={calendar.search}
          className="readiness-link"
          data-testid="market-calendar-link"
        >
          {LL.calendar.link()}
        </Link>
      </div>
    </div>
  );
}

/** Real-name verification, when the station needs it for orders and the user has not passed it. */
export function KycLine({ kycStatus, required }: { kycStatus: KycStatus; required: boolean }) {
  const { LL } = useI18nContext();
  if (!required || kycStatus === 'passed') return null;
  return (
    <div className="readiness-line kyc-needed" data-testid="kyc-state" data-state={kycStatus}>
      <span className="readiness-dot" aria-hidden="true" />
      <p>{kycStatus === 'pending' ? LL.buy.kycPending() : LL.buy.kycNeeded()}</p>
      {kycStatus !== 'pending' && (
        <Link to="/authentication" className="button small primary" data-testid="kyc-link">
          {LL.buy.kycAction()}
        </Link>
      )}
    </div>
  );
}

export function FundsLines({
  market,
  account,
  accounts,
  accountName: payingName,
  leverage,
  maxLots,
  cost,
  onUseMax,
}: {
  market: Market;
  /** The paying account: the user's own, or a competition's (no transfers into it). */
  account: Account | CompetitionAccount | undefined;
  accounts: readonly Account[];
  /** The paying account's name when it is not one of the user's own (a competition's). */
  accountName?: string | undefined;
  leverage: number;
  /** maxAffordableLots at the form's terms. */
  maxLots: number;
  /** What the order as filled in takes from the available funds (margin + fees), major units. */
  cost: number;
  onUseMax: (lots: number) => void;
}) {
  const { LL, locale } = useI18nContext();
  const [transferring, setTransferring] = useState(false);
  if (!account) return null;
  const money = (value: number) => `${account.currency} ${formatMoney(value, locale)}`;
  const accountName = (type: Account['type']) => LL.user.accountType[type]();
  // A competition's account takes no transfers: its cash is the competition's starting cash only.
  const own = account.type === 'competition' ? null : account;
  const siblingType = own ? SIBLING[own.type] : undefined;
  const sibling = siblingType ? accounts.find((a) => a.type === siblingType) : undefined;
  const offer = sibling ? quickTransferAmount(cost, account.available, sibling.available) : null;
  return (
    <div className="readiness-funds" data-testid="order-funds-readiness">
      <p className="muted small" data-testid="paying-account">
        {LL.buy.payingFrom({
          account: own ? accountName(own.type) : (payingName ?? ''),
          amount: money(account.available),
        })}
      </p>
      <div className="readiness-max">
        <span data-testid="max-lots" data-value={String(maxLots)}>
          {maxLots > 0
            ? LL.buy.maxLots({ leverage, quantity: quantityCount(LL, market, maxLots) })
            : LL.buy.maxNone({ leverage })}
        </span>
        {maxLots > 0 && (
          <button
            type="button"
            className="button small ghost"
            data-testid="use-max"
            onClick={() => onUseMax(maxLots)}
          >
            {LL.buy.useMax()}
          </button>
        )}
      </div>
      {offer !== null && sibling && own && (
        <button
          type="button"
          className="button secondary block"
          data-testid="quick-transfer"
          data-amount={String(offer)}
          onClick={() => setTransferring(true)}
        >
          {LL.buy.transferOffer({ amount: money(offer), account: accountName(sibling.type) })}
        </button>
      )}
      {transferring && offer !== null && sibling && own && (
        <QuickTransferSheet amount={offer} from={sibling} to={own} onClose={() => setTransferring(false)} />
      )}
    </div>
  );
}

function QuickTransferSheet({
  amount,
  from,
  to,
  onClose,
}: {
  amount: number;
  from: Account;
  to: Account;
  onClose: () => void;
}) {
  const { LL, locale } = useI18nContext();
  const money = (value: number) => `${to.currency} ${formatMoney(value, locale)}`;
  const name = (type: Account['type']) => LL.user.accountType[type]();
  // The accounts refresh by the mutation's invalidation (query-keys.ts), so the form's figures follow.
  const transfer = useStationMutation('POST /user/transAmt.do', {
    onSuccess: () => {
      showAlert(LL.buy.transferDone({ amount: money(amount), account: name(to.type) }), 'success');
      onClose();
    },
  });
  return (
    <ConfirmSheet
      testId="quick-transfer-sheet"
      title={LL.buy.transferTitle()}
      text={LL.buy.transferText({ from: name(from.type), to: name(to.type) })}
      rows={[{ label: LL.buy.transferFrom({ account: name(from.type) }), value: money(amount) }]}
      arrives={{
        label: LL.buy.transferArrives({ account: name(to.type) }),
        value: money(amount),
        testId: 'quick-transfer-arrives',
      }}
      confirmLabel={LL.buy.transferConfirm()}
      busy={transfer.isPending}
      error={transfer.error?.message ?? null}
      onConfirm={() =>
        transfer.mutate({
          amount,
          from: from.type as TransferAccount,
          to: to.type as TransferAccount,
        })
      }
      onClose={onClose}
    />
  );
}
