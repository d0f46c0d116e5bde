import { useCanGoBack, useRouter } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';

/** The arrow back: to the previous page, or home when the page was opened by a deep link (spec §2). */
export function BackButton({ testId }: { testId?: string }) {
  const { LL } = useI18nContext();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  const goBack = () => {
    if (canGoBack) router.history.back();
    else void router.navigate({ to: '/home', replace: true });
  };
  return (
    <button
      type="button"
      className="icon-button back"
      onClick={goBack}
      aria-label={LL.common.back()}
      data-testid={testId}
    >
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
  );
}
