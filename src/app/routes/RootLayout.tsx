import { useEffect } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { AlertBanner } from '../components/AlertBanner';
import { LoggedOutPrompt } from '../components/LoggedOutPrompt';
import { LoginSheet } from '../components/LoginSheet';
import { PageHeader } from '../components/PageHeader';
import { TabBar } from '../components/TabBar';
import { TestStationNotice } from '../components/TestStationNotice';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { session$ } from '../state/session';
import { findRouteMeta } from './route-table';

/** The shell around every screen: notice strip, header and tab bar as the route table says. */
export function RootLayout() {
  const { LL } = useI18nContext();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const loggedIn = useSelector(() => session$.token.get() !== null);
  const meta = findRouteMeta(pathname);
  const title = meta ? LL.titles[meta.titleKey]() : '';

  useEffect(() => {
    document.title = title ? `${title} · ${LL.app.name()}` : LL.app.name();
  }, [title, LL]);

  return (
    <div className={meta?.tabBar ? 'app-shell with-tab-bar' : 'app-shell'}>
      <div className="top-bar">
        <TestStationNotice />
        {meta && meta.header !== 'none' && <PageHeader title={title} back={meta.header === 'back'} />}
      </div>
      <main className="screen" id="main">
        {meta?.requireAuth && !loggedIn ? <LoggedOutPrompt /> : <Outlet />}
      </main>
      {meta?.tabBar && <TabBar />}
      <AlertBanner />
      <LoginSheet />
      <UpdatePrompt />
    </div>
  );
}
