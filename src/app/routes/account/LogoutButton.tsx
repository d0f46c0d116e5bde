import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { logout } from '../../api/account';
import { ConfirmSheet } from '../../components/ConfirmSheet';
import { showAlert } from '../../state/alert';

/** "Log out", asked once more in a sheet, then home; the local session is cleared even if the call fails. */
export function LogoutButton({ testId }: { testId: string }) {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const onLogout = async () => {
    setLeaving(true);
    try {
      await logout();
    } catch {
      // Offline or already logged out on the station: the local session is cleared either way.
    }
    showAlert(LL.user.logoutDone(), 'success');
    await navigate({ to: '/home' });
  };

  return (
    <>
      <button
        type="button"
        className="button danger-outline block"
        data-testid={testId}
        disabled={leaving}
        onClick={() => setAsking(true)}
      >
        {LL.user.logout()}
      </button>
      {asking && (
        <ConfirmSheet
          testId="logout-sheet"
          title={LL.user.logoutConfirmTitle()}
          text={LL.user.logoutConfirmText()}
          confirmLabel={LL.user.logout()}
          busy={leaving}
          onConfirm={() => void onLogout()}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}
