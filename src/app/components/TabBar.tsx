import { useState } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';
import type { Translation } from '../../../locales/i18n-types';
import { TAB_PATHS, type TabPath } from '../routes/route-table';
import { TabIcon } from './TabIcons';

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

  const onTap = (path: TabPath) => {
    navigator.vibrate?.(VIBRATION_MS);
    setPressed(path);
    setTimeout(() => setPressed((current) => (current === path ? null : current)), PRESS_FEEDBACK_MS);
  };

  return (
    <nav className="tab-bar" aria-label={LL.app.name()}>
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
          >
            <TabIcon path={path} />
            <span className="tab-label">{LL.tabs[LABEL_KEYS[path]]()}</span>
          </Link>
        );
      })}
    </nav>
  );
}
