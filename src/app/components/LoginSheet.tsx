import { useSelector } from '@legendapp/state/react';
import { useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../locales/i18n-react';
import { hideLoginPrompt, loginPrompt$ } from '../state/login-prompt';
import { Sheet } from './Sheet';

/** spec §2: the login prompt sheet, half the screen high: a welcome text, Login, Register and close. */
export function LoginSheet() {
  const { LL } = useI18nContext();
  const open = useSelector(loginPrompt$);
  const navigate = useNavigate();
  const go = (to: '/login' | '/register') => {
    hideLoginPrompt();
    void navigate({ to });
  };
  return (
    <Sheet
      open={open}
      title={LL.loginPrompt.title()}
      onClose={hideLoginPrompt}
      heightPct={50}
      testId="login-sheet"
    >
      <p className="sheet-text">{LL.loginPrompt.text()}</p>
      <div className="button-column">
        <button type="button" className="button primary" onClick={() => go('/login')}>
          {LL.common.login()}
        </button>
        <button type="button" className="button secondary" onClick={() => go('/register')}>
          {LL.common.register()}
        </button>
      </div>
    </Sheet>
  );
}
