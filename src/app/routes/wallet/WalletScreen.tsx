import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { Chevron, useFreshUser, useMoneyText } from '../../components/record-parts';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** /wallet: each account's available cash and the entries to deposit, withdraw, transfer and exchange. */
export function WalletScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <WalletOverview />;
}

function WalletOverview() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const { user, loading, error, reload } = useFreshUser();
  const actions = [
    { to: '/recharge', label: LL.titles.recharge(), testId: 'wallet-recharge' },
    { to: '/withdraw', label: LL.titles.withdraw(), testId: 'wallet-withdraw' },
    { to: '/transfer', label: LL.titles.transfer(), testId: 'wallet-transfer' },
    { to: '/exchange', label: LL.titles.exchange(), testId: 'wallet-exchange' },
  ] as const;
  const records = [
    { to: '/FundingDetails', label: LL.titles.fundingDetails() },
    { to: '/rechargelist', label: LL.titles.rechargeRecords() },
    { to: '/cashWithdrawalRecord', label: LL.titles.withdrawRecords() },
    { to: '/transferRecord', label: LL.titles.transferRecords() },
    { to: '/exchangeLog', label: LL.titles.exchangeRecords() },
    { to: '/btc', label: LL.titles.cryptoDeposit() },
  ] as const;
  return (
    <div className="wallet-screen">
      <section className="total-card">
        <div className="quick-actions">
          {actions.map((action) => (
            <Link
              key={action.to}
              to={action.to}
              className="button secondary small"
              data-testid={action.testId}
            >
              {action.label}
            </Link>
          ))}
        </div>
      </section>
      <section>
        <h2 className="section-title">{LL.user.accounts()}</h2>
        {user ? (
          <ul className="record-list">
            {user.accounts.map((account) => (
              <li key={account.type} className="record" data-testid={`wallet-account-${account.type}`}>
                <div className="record-head">
                  <strong>{LL.user.accountType[account.type]()}</strong>
                  <span className="num" data-value={String(account.available)}>
                    {money(account.available, account.currency)}
                  </span>
                </div>
                <p className="muted small">
                  {LL.user.balance()} <span className="num">{money(account.balance, account.currency)}</span>
                </p>
              </li>
            ))}
          </ul>
        ) : loading ? (
          <Loading />
        ) : error ? (
          <ErrorState error={error} onRetry={reload} />
        ) : null}
      </section>
      <nav className="menu-list" aria-label={LL.acct.records()}>
        {records.map((item) => (
          <Link key={item.to} to={item.to} className="menu-item">
            <span>{item.label}</span>
            <Chevron />
          </Link>
        ))}
      </nav>
    </div>
  );
}
