import { useCanGoBack, useRouter } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';

/** The title bar; with `back`, an arrow that returns to the previous page (or home on a deep link). */
export function PageHeader({ title, back }: { title: string; back: boolean }) {
  const { LL } = useI18nContext();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  const goBack = () => {
    if (canGoBack) router.history.back();
    else void router.navigate({ to: '/home', replace: true });
  };
  return (
    <header className="page-header">
      {back && (
        <button type="button" className="icon-button back" onClick={goBack} aria-label={LL.common.back()}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              d="M15 5l-7 7 7 7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      )}
      <h1>{title}</h1>
    </header>
  );
}
