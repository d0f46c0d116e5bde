import { useI18nContext } from '../../../../locales/i18n-react';
import type { AccountType, Currency, LedgerEntry } from '../../../shared/api/types';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { call } from '../../api/client';
import { usePages } from '../../api/use-call';
import { moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';

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

/** /FundingDetails: every ledger entry, newest first, with the balance after it. */
export function FundFlowScreen() {
  const { LL } = useI18nContext();
  const entries = usePages<LedgerEntry>('cash', (pageNum, signal) =>
    call('GET /user/cash/list.do', { pageNum, pageSize: PAGE_SIZE }, { signal }),
  );

  if (entries.loading) return <Loading />;
  if (entries.items.length === 0) {
    return entries.error ? (
      <ErrorState error={entries.error} onRetry={entries.reload} />
    ) : (
      <Empty text={LL.funding.empty()} />
    );
  }
  return (
    <div className="fund-flow">
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
