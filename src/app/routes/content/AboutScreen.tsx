import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { useStationQuery } from '../../api/station-query';
import { updateAvailable$ } from '../../state/update';
import { installUpdate } from '../../sw-registration';
import { MarkdownView } from './ContentParts';
import { SitePageView } from './SitePageScreen';

type CheckState = 'idle' | 'checking' | 'current' | 'failed';

/** Asks the browser to look for a new service worker now; true when one is installing or waiting. */
async function checkForUpdate(): Promise<boolean> {
  const registration = await navigator.serviceWorker?.getRegistration();
  if (!registration) return false;
  await registration.update();
  return registration.installing !== null || registration.waiting !== null;
}

/** /about: about us, the version and its notes with an update check, and the site's other pages. */
export function AboutScreen() {
  const { LL } = useI18nContext();
  return (
    <div className="about">
      <SitePageView pageKey="about" />
      <VersionCard />
      <nav className="menu-list page-links" aria-label={LL.content.moreInfo()}>
        <ul>
          {(
            [
              ['/aggre', LL.titles.userAgreement()],
              ['/agree', LL.titles.privacyPolicy()],
              ['/trade', LL.titles.tradingRules()],
              ['/service', LL.titles.customerService()],
            ] as const
          ).map(([to, label]) => (
            <li key={to}>
              <Link to={to} className="menu-item">
                <span>{label}</span>
                <span aria-hidden="true">›</span>
              </Link>
            </li>
          ))}
          <li>
            <Link to="/college" search={{ doc: 'newbie' }} className="menu-item">
              <span>{LL.content.newbieHelp()}</span>
              <span aria-hidden="true">›</span>
            </Link>
          </li>
        </ul>
      </nav>
    </div>
  );
}

/** Version update (spec §1): the running version, its notes, and a check for a newer one. */
function VersionCard() {
  const { LL, locale } = useI18nContext();
  const version = useStationQuery('GET /api/site/getVersion.do', { lang: locale });
  const ready = useSelector(updateAvailable$);
  const [check, setCheck] = useState<CheckState>('idle');

  const runCheck = () => {
    setCheck('checking');
    checkForUpdate().then(
      // A found update announces itself through the registration (UpdatePrompt and `ready` here).
      (found) => setCheck(found ? 'idle' : 'current'),
      () => setCheck('failed'),
    );
  };

  return (
    <section className="version-card" aria-labelledby="version-title" data-testid="version-card">
      <h3 id="version-title">{LL.content.version()}</h3>
      {version.data && (
        <p className="num" data-testid="app-version">
          {LL.content.appVersion({ version: version.data.version })}
        </p>
      )}
      {ready ? (
        <button type="button" className="button primary" onClick={installUpdate}>
          {LL.content.installUpdate()}
        </button>
      ) : (
        <button type="button" className="button secondary" onClick={runCheck} disabled={check === 'checking'}>
          {check === 'checking' ? LL.content.checking() : LL.content.checkUpdate()}
        </button>
      )}
      {check === 'current' && !ready && <p className="muted">{LL.content.upToDate()}</p>}
      {check === 'failed' && <p className="inline-error">{LL.common.loadFailed()}</p>}
      {ready && <p>{LL.content.updateReady()}</p>}
      {version.data && (
        <details>
          <summary>{LL.content.versionNotes()}</summary>
          <MarkdownView source={version.data.notes} />
        </details>
      )}
    </section>
  );
}
