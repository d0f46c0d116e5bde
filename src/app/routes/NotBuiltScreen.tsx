import { Link, useRouterState } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';
import { findRouteMeta } from './route-table';

/** An honest placeholder for a route a later issue builds: it says so, in the user's language. */
export function NotBuiltScreen() {
  const { LL } = useI18nContext();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const meta = findRouteMeta(pathname);
  const name = meta ? LL.titles[meta.titleKey]() : pathname;
  return (
    <div className="state-view" data-testid="not-built">
      <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" className="state-icon">
        <path
          d="M8 40h32M12 40V22l12-10 12 10v18M20 40V28h8v12"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinejoin="round"
        />
      </svg>
      <h2>{LL.notBuilt.title()}</h2>
      <p>{LL.notBuilt.text({ name })}</p>
      <Link to="/home" className="button secondary">
        {LL.notBuilt.toHome()}
      </Link>
    </div>
  );
}
