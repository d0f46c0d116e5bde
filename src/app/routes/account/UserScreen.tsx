import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Account, ExchangeRates } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { RATES_READ } from '../../api/reads';
import { UNREAD_READ } from './account-reads';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { PriceText } from '../../components/PriceText';
import { RiskGauge, RiskLinesNote } from '../../components/RiskGauge';
import { Sheet } from '../../components/Sheet';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { LogoutButton } from './LogoutButton';
import { Chevron, useFreshUser } from '../../components/record-parts';
import { PreferencesPanel } from './PreferencesPanel';
import { SheetButtons } from '../../components/SheetButtons';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** How often the unread badge asks again while the personal centre is open. */
const UNREAD_REFRESH_MS = 30_000;

/**
 * /user, /User and /account: the personal centre — total assets, each account's figures, entries to
 * every function, the paper-account reset, messages with the unread badge, preferences and logout.
 */
export function UserScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  return (
    <div className="user-screen">
      {loggedIn ? (
        <AccountOverview />
      ) : (
        <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />
      )}
      <PreferencesPanel />
    </div>
  );
}

/** Everything in yuan at the day's simulated rates (cnyPer), for the one total the user sees first. */
export function totalInCny(accounts: readonly Account[], rates: ExchangeRates | undefined): number | null {
  let total = 0;
  for (const account of accounts) {
    const rate = account.currency === 'CNY' ? 1 : rates?.cnyPer[account.currency];
    if (rate === undefined) return null;
    total += account.totalAssets * rate;
  }
  return Math.round(total * 100) / 100;
}

function AccountOverview() {
  const { LL, locale } = useI18nContext();
  const { user, loading, error, reload } = useFreshUser();
  const rates = useStationQuery(RATES_READ.key, RATES_READ.input);
  // Polled: a message arrives on the station and the stream does not say.
  const unread = useStationQuery(UNREAD_READ.key, UNREAD_READ.input, {
    refetchInterval: UNREAD_REFRESH_MS,
  });
  const unreadCount = unread.data?.unread ?? 0;
  const total = user ? totalInCny(user.accounts, rates.data) : null;

  return (
    <>
      <section className="profile-card">
        <div className="avatar" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28">
            <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
            <path
              d="M4 21c1.2-4.2 4.3-6.5 8-6.5s6.8 2.3 8 6.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            />
          </svg>
        </div>
        <div className="profile-text">
          <p className="profile-phone num" data-testid="user-phone">
            {user?.phone ?? ''}
          </p>
          {user && (
            <Link to="/authentication" className={`kyc-badge kyc-${user.kycStatus}`} data-testid="kyc-badge">
              {LL.user.kyc[user.kycStatus]()}
            </Link>
          )}
        </div>
        <Link
          to="/notify"
          className="icon-button bell"
          data-testid="link-notify"
          aria-label={LL.acct.messagesUnread({ count: unreadCount })}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              d="M6 17V11a6 6 0 1 1 12 0v6l1.5 2h-15zM10 21h4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </svg>
          {unreadCount > 0 && (
            <span className="badge" data-testid="unread-badge">
              {unreadCount > 99 ? '99+' : unreadCount}
            </span>
          )}
        </Link>
      </section>

      <section className="total-card" data-testid="total-assets">
        <span className="label">{LL.acct.totalAssetsCny()}</span>
        <strong className="num big" data-value={total === null ? '' : String(total)}>
          {total === null ? '—' : `¥ ${formatMoney(total, locale)}`}
        </strong>
        <div className="quick-actions">
          <Link to="/recharge" className="button primary small" data-testid="quick-recharge">
            {LL.titles.recharge()}
          </Link>
          <Link to="/withdraw" className="button secondary small" data-testid="quick-withdraw">
            {LL.titles.withdraw()}
          </Link>
          <Link to="/transfer" className="button secondary small" data-testid="quick-transfer">
            {LL.titles.transfer()}
          </Link>
          <Link to="/exchange" className="button secondary small" data-testid="quick-exchange">
            {LL.titles.exchange()}
          </Link>
        </div>
      </section>

      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title" className="section-title">
          {LL.user.accounts()}
        </h2>
        {user && user.accounts.length > 0 ? (
          <div className="account-list">
            {user.accounts.map((account) => (
              <AccountCard key={account.type} account={account} />
            ))}
          </div>
        ) : loading ? (
          <Loading />
        ) : error ? (
          <ErrorState error={error} onRetry={reload} />
        ) : null}
        {user && error && <p className="inline-error">{error.message}</p>}
        {user && user.accounts[0] && (
          <RiskLinesNote
            warningLine={user.accounts[0].warningLine}
            liquidationLine={user.accounts[0].liquidationLine}
          />
        )}
      </section>

      <FunctionEntries />
      <ResetPaperAccount />

      <LogoutButton testId="logout" />
    </>
  );
}

/** Entries to every function of the account side, grouped as the user thinks of them. */
function FunctionEntries() {
  const { LL } = useI18nContext();
  const groups = [
    {
      title: LL.titles.wallet(),
      items: [
        { to: '/wallet', label: LL.titles.wallet(), testId: 'link-wallet' },
        { to: '/FundingDetails', label: LL.user.fundFlow(), testId: 'link-funding' },
        { to: '/rechargelist', label: LL.titles.rechargeRecords(), testId: 'link-rechargelist' },
        { to: '/cashWithdrawalRecord', label: LL.titles.withdrawRecords(), testId: 'link-withdrawlist' },
        { to: '/transferRecord', label: LL.titles.transferRecords(), testId: 'link-transferrecord' },
        { to: '/exchangeLog', label: LL.titles.exchangeRecords(), testId: 'link-exchangelog' },
        { to: '/btc', label: LL.titles.cryptoDeposit(), testId: 'link-btc' },
      ],
    },
    {
      title: LL.acct.security(),
      items: [
        { to: '/authentication', label: LL.titles.kyc(), testId: 'link-kyc' },
        { to: '/bankCard', label: LL.titles.bankCard(), testId: 'link-bankcard' },
        { to: '/loginPassword', label: LL.titles.loginPassword(), testId: 'link-loginpassword' },
        { to: '/setPassword', label: LL.titles.withdrawPassword(), testId: 'link-setpassword' },
        { to: '/openaccount', label: LL.titles.openAccount(), testId: 'link-openaccount' },
      ],
    },
    {
      title: LL.acct.more(),
      items: [
        { to: '/notify', label: LL.titles.notifications(), testId: 'link-messages' },
        { to: '/alerts', label: LL.titles.priceAlerts(), testId: 'link-alerts' },
        { to: '/warehouse', label: LL.titles.warehouse(), testId: 'link-positions' },
        { to: '/myCompetitions', label: LL.titles.myCompetitions(), testId: 'link-my-competitions' },
        { to: '/service', label: LL.titles.customerService(), testId: 'link-service' },
        { to: '/setting', label: LL.titles.settings(), testId: 'link-setting' },
        { to: '/about', label: LL.titles.about(), testId: 'link-about' },
      ],
    },
  ] as const;
  return (
    <>
      {groups.map((group) => (
        <section key={group.title} className="entry-group">
          <h2 className="section-title">{group.title}</h2>
          <nav className="menu-list" aria-label={group.title}>
            {group.items.map((item) => (
              <Link key={item.to} to={item.to} className="menu-item" data-testid={item.testId}>
                <span>{item.label}</span>
                <Chevron />
              </Link>
            ))}
          </nav>
        </section>
      ))}
    </>
  );
}

/** Every account back to its paper starting balance, after the user confirms it. */
function ResetPaperAccount() {
  const { LL } = useI18nContext();
  const [open, setOpen] = useState(false);
  // Every account, position, order and record it resets is invalidated by the mutation.
  const reset = useStationMutation('POST /user/account/reset.do', {
    onSuccess: () => {
      setOpen(false);
      showAlert(LL.acct.resetDone(), 'success');
    },
  });
  const busy = reset.isPending;
  const error = reset.error?.message ?? null;
  const onConfirm = () => reset.mutate({});

  return (
    <>
      <button
        type="button"
        className="button ghost block"
        data-testid="reset-account"
        onClick={() => {
          reset.reset();
          setOpen(true);
        }}
      >
        {LL.acct.resetAccount()}
      </button>
      <Sheet open={open} title={LL.acct.resetAccount()} onClose={() => setOpen(false)} testId="reset-sheet">
        <p className="sheet-text">{LL.acct.resetConfirmText()}</p>
        {error && (
          <p className="form-error" role="alert" data-testid="form-error">
            {error}
          </p>
        )}
        <SheetButtons
          label={LL.common.confirm()}
          busy={busy}
          onConfirm={onConfirm}
          onCancel={() => setOpen(false)}
          testId="reset-confirm"
        />
      </Sheet>
    </>
  );
}

function AccountCard({ account }: { account: Account }) {
  const { LL, locale } = useI18nContext();
  const money = (value: number) => formatMoney(value, locale);
  return (
    <article className="account-card" data-testid={`account-${account.type}`}>
      <header>
        <h3>{LL.user.accountType[account.type]()}</h3>
        <span className="currency">{account.currency}</span>
      </header>
      <p className="account-balance">
        <span className="label">{LL.user.balance()}</span>
        <span
          className="num big"
          data-testid={`account-${account.type}-balance`}
          data-value={String(account.balance)}
        >
          {money(account.balance)}
        </span>
      </p>
      <dl className="figures">
        <div>
          <dt>{LL.user.available()}</dt>
          <dd
            className="num"
            data-testid={`account-${account.type}-available`}
            data-value={String(account.available)}
          >
            {money(account.available)}
          </dd>
        </div>
        <div>
          <dt>{LL.user.totalAssets()}</dt>
          <dd
            className="num"
            data-testid={`account-${account.type}-total`}
            data-value={String(account.totalAssets)}
          >
            {money(account.totalAssets)}
          </dd>
        </div>
        <div>
          <dt>{LL.user.frozenMargin()}</dt>
          <dd className="num">{money(account.frozenMargin)}</dd>
        </div>
        <div>
          <dt>{LL.user.positionPnl()}</dt>
          <dd>
            <PriceText value={account.positionPnl} signed />
          </dd>
        </div>
      </dl>
      {/* DOMAIN.md "Risk ratio": only borrowed money can be liquidated; the lines are explained once below. */}
      {account.borrowed > 0 && (
        <RiskGauge
          testId={`account-${account.type}-risk`}
          input={{
            ratio: account.riskRatio,
            borrowed: account.borrowed,
            longValue: account.longValue,
            shortValue: account.shortValue,
            warningLine: account.warningLine,
            liquidationLine: account.liquidationLine,
          }}
        />
      )}
    </article>
  );
}
