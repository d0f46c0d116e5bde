import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { updateAvailable$ } from '../state/update';
import { installUpdate, postponeUpdate } from '../sw-registration';

/** Offers a waiting new version; nothing changes under the user until they agree. */
export function UpdatePrompt() {
  const { LL } = useI18nContext();
  const available = useSelector(updateAvailable$);
  if (!available) return null;
  return (
    <div
      className="update-prompt"
      role="alertdialog"
      aria-label={LL.update.available()}
      data-testid="update-prompt"
    >
      <span>{LL.update.available()}</span>
      <button type="button" className="button small secondary" onClick={postponeUpdate}>
        {LL.update.later()}
      </button>
      <button type="button" className="button small primary" onClick={installUpdate}>
        {LL.update.reload()}
      </button>
    </div>
  );
}
