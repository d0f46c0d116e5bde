import { useEffect, useState } from 'react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { ApiError } from '../api/errors';

/** After this long a load that is still going says it is still trying, rather than waiting silently. */
export const STILL_TRYING_MS = 5000;

export function Loading({ label }: { label?: string }) {
  const { LL } = useI18nContext();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), STILL_TRYING_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="state-view" role="status" data-testid="loading">
      <span className="spinner" aria-hidden="true" />
      <p>{label ?? LL.common.loading()}</p>
      {slow && <p data-testid="still-trying">{LL.connection.stillTrying()}</p>}
    </div>
  );
}

export function Empty({ text }: { text?: string }) {
  const { LL } = useI18nContext();
  return (
    <div className="state-view" data-testid="empty">
      <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" className="state-icon">
        <rect
          x="8"
          y="12"
          width="32"
          height="26"
          rx="3"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
        />
        <path d="M8 22h10l3 5h6l3-5h10" fill="none" stroke="currentColor" strokeWidth="2.5" />
      </svg>
      <p>{text ?? LL.common.empty()}</p>
    </div>
  );
}

/** A failed load, in the user's language (the station's message or the client's own), with a retry. */
export function ErrorState({ error, onRetry }: { error: ApiError | Error; onRetry?: () => void }) {
  const { LL } = useI18nContext();
  return (
    <div className="state-view error" role="alert" data-testid="error">
      <h2>{LL.common.loadFailed()}</h2>
      <p>{error.message}</p>
      {onRetry && (
        <button type="button" className="button secondary" onClick={onRetry}>
          {LL.common.retry()}
        </button>
      )}
    </div>
  );
}
