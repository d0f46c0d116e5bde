import { Link } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import { useI18nContext } from '../../../../locales/i18n-react';
import { useStationQuery } from '../../api/station-query';
import { showAlert } from '../../state/alert';
import { LogoutButton } from './LogoutButton';
import { Chevron, InfoRow } from '../../components/record-parts';
import { PreferencesPanel } from './PreferencesPanel';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

/**
 * Removes the service worker's runtime caches (quotes, news, articles kept for offline reading). The
 * precache of the app itself stays, so the app still opens offline afterwards.
 */
export async function clearRuntimeCaches(): Promise<number> {
  if (typeof caches === 'undefined') return 0;
  const names = (await caches.keys()).filter((name) => !name.includes('precache'));
  await Promise.all(names.map((name) => caches.delete(name)));
  return names.length;
}

/** /setting and /setup: passwords, preferences (language, theme, colours), cache, version and logout. */
export function SettingsScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const version = useStationQuery('GET /api/site/getVersion.do', {});
  // Not a station call: a local mutation, whose pending state keeps a second tap from clearing twice.
  const clearCache = useMutation({
    mutationFn: clearRuntimeCaches,
    onSuccess: () => showAlert(LL.acct.cacheCleared(), 'success'),
    onError: () => showAlert(LL.acct.cacheClearFailed(), 'error'),
  });

  return (
    <div className="wallet-screen">
      {loggedIn && (
        <nav className="menu-list" aria-label={LL.acct.security()}>
          <Link to="/loginPassword" className="menu-item" data-testid="setting-loginpassword">
            <span>{LL.titles.loginPassword()}</span>
            <Chevron />
          </Link>
          <Link to="/setPassword" className="menu-item" data-testid="setting-setpassword">
            <span>{LL.titles.withdrawPassword()}</span>
            <Chevron />
          </Link>
          <Link to="/bankCard" className="menu-item">
            <span>{LL.titles.bankCard()}</span>
            <Chevron />
          </Link>
          <Link to="/authentication" className="menu-item">
            <span>{LL.titles.kyc()}</span>
            <Chevron />
          </Link>
        </nav>
      )}
      <PreferencesPanel />
      <nav className="menu-list" aria-label={LL.acct.more()}>
        <Link to="/about" className="menu-item">
          <span>{LL.titles.about()}</span>
          <Chevron />
        </Link>
        <Link to="/aggre" className="menu-item">
          <span>{LL.titles.userAgreement()}</span>
          <Chevron />
        </Link>
        <Link to="/agree" className="menu-item">
          <span>{LL.titles.privacyPolicy()}</span>
          <Chevron />
        </Link>
      </nav>
      <section className="summary-card">
        <InfoRow label={LL.acct.version()} testId="app-version">
          <span className="num">{version.data?.version ?? '—'}</span>
        </InfoRow>
      </section>
      <button
        type="button"
        className="button secondary block"
        data-testid="clear-cache"
        disabled={clearCache.isPending}
        onClick={() => clearCache.mutate()}
      >
        {LL.acct.clearCache()}
      </button>
      {loggedIn && <LogoutButton testId="setting-logout" />}
    </div>
  );
}
