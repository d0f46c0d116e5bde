import { Link, useRouter } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';
import type { AppPath, HeaderAction } from '../routes/route-meta';
import { BackButton } from './BackButton';

interface PageHeaderProps {
  title: string;
  back: boolean;
  /** spec §2: an optional search or more icon on the right, leading to another route. */
  action?: HeaderAction;
}

/** The title bar; with `back`, an arrow that returns to the previous page (or home on a deep link). */
export function PageHeader({ title, back, action }: PageHeaderProps) {
  const { LL } = useI18nContext();
  const router = useRouter();
  // A link is named by where it leads (Lighthouse's descriptive link text, WCAG 2.4.4): the more icon takes
  // its destination's title ("Deposit records"), not a bare "More"; the route tree's titles are the one source.
  const destinationTitle =
    action && router.routesByPath[action.to as AppPath]?.options.staticData?.meta?.titleKey;
  const actionLabel =
    action?.icon === 'search'
      ? LL.common.search()
      : destinationTitle
        ? LL.titles[destinationTitle]()
        : LL.common.more();
  return (
    <header className="page-header">
      {back && <BackButton />}
      <h1>{title}</h1>
      {action && (
        <Link
          to={action.to}
          className="icon-button header-action"
          aria-label={actionLabel}
          data-testid={`header-${action.icon}`}
        >
          {action.icon === 'search' ? (
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
              <path d="M16 16l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          ) : (
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <circle cx="5" cy="12" r="1.8" fill="currentColor" />
              <circle cx="12" cy="12" r="1.8" fill="currentColor" />
              <circle cx="19" cy="12" r="1.8" fill="currentColor" />
            </svg>
          )}
        </Link>
      )}
    </header>
  );
}
