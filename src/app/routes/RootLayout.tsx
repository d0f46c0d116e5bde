import { useEffect, useRef } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { PRODUCT_SETTING_READ } from '../api/reads';
import { useMessageStream } from '../api/message-stream';
import { useStationQuery } from '../api/station-query';
import { AlertBanner } from '../components/AlertBanner';
import { CannotConnect, NetworkBanner, PendingOutcomes, StalledCalls } from '../components/ConnectionViews';
import { LoggedOutPrompt } from '../components/LoggedOutPrompt';
import { LoadWhenShown } from '../components/LoadWhenShown';
import { PageHeader } from '../components/PageHeader';
import { TabBar } from '../components/TabBar';
import { TestStationNotice } from '../components/TestStationNotice';
import { Toast } from '../components/Toast';
import { online$, unreachable$ } from '../state/connection';
import { setDisplaySettings } from '../state/display-settings';
import { hideLoginPrompt, loginPrompt$ } from '../state/login-prompt';
import { updateAvailable$ } from '../state/update';
import { followPath } from '../state/shell';
import { slideDirection, type RouteMeta } from './route-meta';
import { useLoggedIn } from '../state/use-logged-in';
import { session$ } from '../state/session';

/** The login prompt and the update prompt load when first shown (LoadWhenShown). */
const loadLoginSheet = () => import('../components/LoginSheet').then((module) => module.LoginSheet);
const loadUpdatePrompt = () => import('../components/UpdatePrompt').then((module) => module.UpdatePrompt);

/**
 * The display settings (spec §3), from the query every screen shares; until they arrive, or if the station is
 * unreachable, all shows (they only hide areas, never unlock them).
 */
function useDisplaySettings(): void {
  const settings = useStationQuery(PRODUCT_SETTING_READ.key, PRODUCT_SETTING_READ.input).data;
  // Each answer is a new object (a replay's time moves on), taken when it arrives.
  useEffect(() => {
    if (settings) setDisplaySettings(settings);
  }, [settings]);
}

/**
 * The slide of a page change (spec §2): forward in the routes' index order slides in from the right,
 * back from the left; the class is only set on a change of page, and CSS drops the motion under
 * prefers-reduced-motion.
 */
function useSlide(pathname: string, meta: RouteMeta | null | undefined): string {
  const previous = useRef({ pathname, meta });
  const slide = useRef('');
  if (previous.current.pathname !== pathname) {
    const direction = slideDirection(previous.current.meta, meta);
    slide.current = direction === 'none' ? '' : ` slide-${direction}`;
    previous.current = { pathname, meta };
  }
  return slide.current;
}

/** The shell around every screen: notice strip, header and tab bar as the route on screen says (its staticData). */
export function RootLayout() {
  const { LL, locale } = useI18nContext();
  // The page the Outlet shows: the deepest matched route. While the next screen's code is still loading,
  // the Outlet keeps showing the previous screen while the URL already names the next one; the shell
  // judges what is on screen (else a screen that needs a session could mount, logged out, in between).
  const pathname = useRouterState({
    select: (state) => state.matches[state.matches.length - 1]?.pathname ?? state.location.pathname,
  });
  // Its metadata (null on the root, which shows while an unknown path redirects to /home).
  const meta = useRouterState({
    select: (state) => state.matches[state.matches.length - 1]?.staticData.meta,
  });
  const routePath = useRouterState({
    select: (state) => state.matches[state.matches.length - 1]?.fullPath,
  });
  const loggedIn = useLoggedIn();
  const token = useSelector(() => session$.token.get());
  useMessageStream(token, locale);
  // spec §8: with no base URL answering (and the device online) the page is replaced by this message.
  const cannotConnect = useSelector(() => unreachable$.get() && online$.get());
  // /listdetail2 shows an index (unless its `market` says futures): titled for it, not "stock details".
  const contractMarket = useRouterState({
    select: (state): string => String((state.location.search as Record<string, unknown>).market ?? ''),
  });
  const titleKey =
    routePath === '/listdetail2'
      ? contractMarket === 'futures'
        ? 'futuresDetail'
        : 'indexDetail'
      : meta?.titleKey;
  const title = titleKey ? LL.titles[titleKey]() : '';
  const slide = useSlide(pathname, meta);
  const loginPromptShown = useSelector(loginPrompt$);
  const updateShown = useSelector(updateAvailable$);
  useDisplaySettings();

  useEffect(() => {
    document.title = title ? `${title} · ${LL.app.name()}` : LL.app.name();
  }, [title, LL]);

  useEffect(() => followPath(pathname), [pathname]);

  return (
    <div className={meta?.tabBar ? 'app-shell with-tab-bar' : 'app-shell'}>
      <a className="skip-link" href="#main">
        {LL.common.skipToContent()}
      </a>
      <div className="top-bar">
        <TestStationNotice />
        <NetworkBanner />
        <PendingOutcomes />
        <StalledCalls />
        {meta && meta.header !== 'none' && (
          <PageHeader title={title} back={meta.header === 'back'} action={meta.action} />
        )}
      </div>
      <main className={`screen${slide}`} id="main" key={pathname} tabIndex={-1}>
        {cannotConnect ? (
          <CannotConnect />
        ) : meta?.requireAuth && !loggedIn ? (
          <LoggedOutPrompt />
        ) : (
          <Outlet />
        )}
      </main>
      {meta?.tabBar && <TabBar />}
      <AlertBanner />
      <Toast />
      {/* A prompt whose code cannot load is closed, so the next tap tries again. */}
      <LoadWhenShown shown={loginPromptShown} load={loadLoginSheet} onFailed={hideLoginPrompt} />
      <LoadWhenShown shown={updateShown} load={loadUpdatePrompt} />
    </div>
  );
}
