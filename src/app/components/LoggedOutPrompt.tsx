import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';

/** Shown in place of a screen that needs a session while nobody is logged in. */
export function LoggedOutPrompt({ title, text }: { title?: string; text?: string }) {
  const { LL } = useI18nContext();
  return (
    <div className="state-view logged-out" data-testid="logged-out">
      <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" className="state-icon">
        <circle cx="24" cy="17" r="8" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <path d="M9 41c2-8 8-12 15-12s13 4 15 12" fill="none" stroke="currentColor" strokeWidth="2.5" />
      </svg>
      <h2>{title ?? LL.loggedOut.title()}</h2>
      <p>{text ?? LL.loggedOut.text()}</p>
      <div className="button-row">
        <Link to="/login" className="button primary" data-testid="prompt-login">
          {LL.common.login()}
        </Link>
        <Link to="/register" className="button secondary" data-testid="prompt-register">
          {LL.common.register()}
        </Link>
      </div>
    </div>
  );
}
