import { useEffect, useState } from 'react';
import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';
import type { Translation } from '../../../locales/i18n-types';
import { TAB_PATHS, type TabPath } from '../state/shell';
import { showLoginPrompt } from '../state/login-prompt';
import { TabIcon } from './TabIcons';
import { useLoggedIn } from '../state/use-logged-in';

const LABEL_KEYS: Record<TabPath, keyof Translation['tabs']> = {
  '/home': 'home',
  '/trading-list': 'tradingList',
  '/hk-list': 'hkList',
  '/warehouse': 'warehouse',
  '/MyList': 'myList',
  '/user': 'user',
};

/** spec §9: tab press feedback lasts 0.5 s; the vibration 55 ms. */
const PRESS_FEEDBACK_MS = 500;
const VIBRATION_MS = 55;

/** spec §2: the bottom tab bar; the selected tab follows the path, a tap navigates and vibrates. */
export function TabBar() {
  const { LL } = useI18nContext();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [pressed, setPressed] = useState<TabPath | null>(null);

  const loggedIn = useLoggedIn();
  const router = useRouter();

  const onTap = (path: TabPath) => {
    navigator.vibrate?.(VIBRATION_MS);
    // spec §4: the footer shows the login prompt sheet for an area that needs a session.
    if (!loggedIn && router.routesByPath[path].options.staticData?.meta?.requireAuth) showLoginPrompt();
    setPressed(path);
  };
  const endPress = (path: TabPath) => setPressed((current) => (current === path ? null : current));

  // The feedback ends with its 0.5 s animation (onAnimationEnd). Without animation (prefers-reduced-motion)
  // a timer from the moment it shows ends it instead; with animation the timer is only a safety net.
  useEffect(() => {
    if (!pressed) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const timer = setTimeout(() => endPress(pressed), reduced ? PRESS_FEEDBACK_MS : PRESS_FEEDBACK_MS * 2);
    return () => clearTimeout(timer);
  }, [pressed]);

  return (
    <nav className="tab-bar" aria-label={LL.tabs.label()}>
      {TAB_PATHS.map((path) => {
        const selected = pathname === path;
        return (
          <Link
            key={path}
            to={path}
            className={`tab${selected ? ' selected' : ''}${pressed === path ? ' pressed' : ''}`}
            aria-current={selected ? 'page' : undefined}
            data-testid={`tab-${path.slice(1)}`}
            onClick={() => onTap(path)}
            onAnimationEnd={() => endPress(path)}
          >
            <TabIcon path={path} />
            <span className="tab-label">{LL.tabs[LABEL_KEYS[path]]()}</span>
          </Link>
        );
      })}
    </nav>
  );
}
