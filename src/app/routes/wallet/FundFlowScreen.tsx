import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { AccountType, Currency, LedgerEntry, LedgerEntryType } from '../../../shared/api/types';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { useStationPages } from '../../api/station-query';
import { moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import '../../components/wallet.css';

/** The brief: the fund flow reads 50 entries a page. */
const PAGE_SIZE = 50;

/** DOMAIN.md "Accounts": the currency each account keeps. */
const ACCOUNT_CURRENCY: Record<AccountType, Currency> = {
  main: 'CNY',
  index: 'CNY',
  newstock: 'CNY',
  hk: 'HKD',
  us: 'USD',
};

const FILTER_ACCOUNTS: readonly AccountType[] = ['main', 'index', 'newstock', 'hk', 'us'];
/** The entry types a user filters by, in the order the ledger names them (LedgerEntryType). */
const FILTER_TYPES: readonly LedgerEntryType[] = [
  'opening_balance',
  'deposit',
  'withdraw',
  'withdraw_fee',
  'withdraw_refund',
  'transfer_in',
  'transfer_out',
  'exchange_in',
  'exchange_out',
  'buy',
  'buy_fee',
  'sell',
  'sell_fee',
  'stamp_duty',
  'deferred_fee',
  'top_up',
  'margin_release',
  'reset',
];

/** /FundingDetails: every ledger entry, newest first, with the balance after it; filtered by account and type. */
export function FundFlowScreen() {
  const { LL } = useI18nContext();
  const [account, setAccount] = useState<AccountType | ''>('');
  const [type, setType] = useState<LedgerEntryType | ''>('');
  // An infinite query per filter: a trade or a money move elsewhere invalidates every one of them.
  const entries = useStationPages('GET /user/cash/list.do', {
    pageSize: PAGE_SIZE,
    ...(account ? { account } : {}),
    ...(type ? { type } : {}),
  });

  const filters = (
    <div className="filter-row">
      <select
        aria-label={LL.acct.filterAccount()}
        data-testid="filter-account"
        value={account}
        onChange={(event) => setAccount(event.target.value as AccountType | '')}
      >
        <option value="">{LL.acct.allAccounts()}</option>
        {FILTER_ACCOUNTS.map((a) => (
          <option key={a} value={a}>
            {LL.user.accountType[a]()}
          </option>
        ))}
      </select>
      <select
        aria-label={LL.acct.filterType()}
        data-testid="filter-type"
        value={type}
        onChange={(event) => setType(event.target.value as LedgerEntryType | '')}
      >
        <option value="">{LL.acct.allTypes()}</option>
        {FILTER_TYPES.map((t) => (
          <option key={t} value={t}>
            {LL.funding.type[t]()}
          </option>
        ))}
      </select>
    </div>
  );

  let body;
  if (entries.loading) body = <Loading />;
  else if (entries.items.length === 0) {
    body = entries.error ? (
      <ErrorState error={entries.error} onRetry={entries.reload} />
    ) : (
      <Empty text={LL.funding.empty()} />
    );
  } else {
    body = (
      <>
        <ul className="ledger-list">
          {entries.items.map((entry) => (
            <LedgerRow key={entry.id} entry={entry} />
          ))}
        </ul>
        {entries.error && <p className="inline-error">{entries.error.message}</p>}
        {entries.hasMore ? (
          <button type="button" className="button ghost block" onClick={entries.loadMore}>
            {LL.common.loadMore()}
          </button>
        ) : entries.loadingMore ? (
          <Loading />
        ) : (
          <p className="list-end">{LL.common.noMore()}</p>
        )}
      </>
    );
  }
  return (
    <div className="fund-flow">
      {filters}
      {body}
    </div>
  );
}

function LedgerRow({ entry }: { entry: LedgerEntry }) {
  const { LL, locale } = useI18nContext();
  const typeLabel = entry.type in LL.funding.type ? LL.funding.type[entry.type]() : entry.type;
  const accountLabel =
    entry.account in LL.user.accountType ? LL.user.accountType[entry.account]() : entry.account;
  const currency = ACCOUNT_CURRENCY[entry.account] ?? '';
  const amount = formatMoney(entry.amount, locale);
  return (
    <li
      className="ledger-entry"
      data-testid="ledger-entry"
      data-amount={String(entry.amount)}
      data-account={entry.account}
    >
      <div className="ledger-main">
        <strong>{typeLabel}</strong>
        <span className={`num amount ${moveClass(entry.amount)}`}>
          {entry.amount > 0 ? `+${amount}` : amount}
        </span>
      </div>
      <div className="ledger-meta">
        <span>
          {accountLabel} · <span className="num">{formatDateTime(entry.time)}</span>
        </span>
        <span className="num">
          {LL.funding.balanceAfter({ amount: `${currency} ${formatMoney(entry.balanceAfter, locale)}` })}
        </span>
      </div>
      {entry.note && <p className="muted small">{entry.note}</p>}
    </li>
  );
}
