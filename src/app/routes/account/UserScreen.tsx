import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Locales, Translation } from '../../../../locales/i18n-types';
import { isLocale, locales } from '../../../../locales/i18n-util';
import type { Account } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { logout, refreshUser } from '../../api/account';
import { toApiError } from '../../api/client';
import { isAbortError, type ApiError } from '../../api/errors';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { PriceText } from '../../components/PriceText';
import { ErrorState, Loading } from '../../components/StatusViews';
import { switchLocale } from '../../i18n/locale';
import { showAlert } from '../../state/alert';
import { session$ } from '../../state/session';
import { setTheme, theme$, type ThemeName } from '../../state/theme';
import {
  effectivePriceColors,
  priceColors$,
  setPriceColors,
  type PriceColorConvention,
} from '../../state/price-colors';

/** /user: the personal centre — the accounts and their balances, fund flow, settings and logout. */
export function UserScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useSelector(() => session$.token.get() !== null);
  return (
    <div className="user-screen">
      {loggedIn ? (
        <AccountOverview />
      ) : (
        <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />
      )}
      <Settings />
    </div>
  );
}

function AccountOverview() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const user = useSelector(() => session$.user.get());
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    refreshUser(controller.signal).then(
      () => {
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (isAbortError(failure)) return;
        setError(toApiError(failure));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [generation]);

  const onLogout = async () => {
    setLeaving(true);
    try {
      await logout();
    } catch {
      // Offline or already logged out on the station: the local session is cleared either way.
    }
    showAlert(LL.user.logoutDone(), 'success');
    await navigate({ to: '/home' });
  };

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
        <div>
          <p className="profile-phone num" data-testid="user-phone">
            {user?.phone ?? ''}
          </p>
          {user && <p className={`kyc-badge kyc-${user.kycStatus}`}>{LL.user.kyc[user.kycStatus]()}</p>}
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
          <ErrorState error={error} onRetry={() => setGeneration((g) => g + 1)} />
        ) : null}
        {user && error && <p className="inline-error">{error.message}</p>}
      </section>

      <nav className="menu-list" aria-label={LL.user.accounts()}>
        <Link to="/FundingDetails" className="menu-item" data-testid="link-funding">
          <span>{LL.user.fundFlow()}</span>
          <Chevron />
        </Link>
      </nav>

      <button
        type="button"
        className="button danger-outline block"
        data-testid="logout"
        disabled={leaving}
        onClick={() => void onLogout()}
      >
        {LL.user.logout()}
      </button>
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
          <dd className="num" data-value={String(account.totalAssets)}>
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
    </article>
  );
}

/** Each language by its own name; a locale added to typesafe-i18n must be named here too. */
const LANGUAGE_NAME_KEYS: Record<Locales, keyof Translation['language']> = {
  'zh-CN': 'zhCN',
  en: 'en',
  'zh-TW': 'zhTW',
  th: 'th',
  vi: 'vi',
};

function Settings() {
  const { LL, locale } = useI18nContext();
  const theme = useSelector(theme$);
  const themes: readonly { name: ThemeName; label: string }[] = [
    { name: 'red', label: LL.user.themeRed() },
    { name: 'black', label: LL.user.themeBlack() },
  ];
  const convention = effectivePriceColors(useSelector(priceColors$), locale);
  const conventions: readonly { name: PriceColorConvention; label: string }[] = [
    { name: 'red-up', label: LL.user.redUp() },
    { name: 'green-up', label: LL.user.greenUp() },
  ];
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h2 id="settings-title" className="section-title">
        {LL.user.settings()}
      </h2>
      <div className="setting-row">
        <span id="theme-label">{LL.user.theme()}</span>
        <div className="segment-tabs small" role="radiogroup" aria-labelledby="theme-label">
          {themes.map((option) => (
            <button
              key={option.name}
              type="button"
              role="radio"
              aria-checked={theme === option.name}
              className={theme === option.name ? 'segment selected' : 'segment'}
              data-testid={`theme-${option.name}`}
              onClick={() => setTheme(option.name)}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <div className="setting-row">
        <span id="price-colors-label">{LL.user.colorConvention()}</span>
        <div className="segment-tabs small" role="radiogroup" aria-labelledby="price-colors-label">
          {conventions.map((option) => (
            <button
              key={option.name}
              type="button"
              role="radio"
              aria-checked={convention === option.name}
              className={convention === option.name ? 'segment selected' : 'segment'}
              data-testid={`price-colors-${option.name}`}
              onClick={() => setPriceColors(option.name)}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <div className="setting-row">
        <label htmlFor="language-select">{LL.user.language()}</label>
        <select
          id="language-select"
          data-testid="language-select"
          value={locale}
          onChange={(event) => {
            if (isLocale(event.target.value)) void switchLocale(event.target.value);
          }}
        >
          {locales.map((choice) => (
            <option key={choice} value={choice}>
              {LL.language[LANGUAGE_NAME_KEYS[choice]]()}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

function Chevron() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
