import { useI18nContext } from '../../../locales/i18n-react';

/** ARCHITECTURE: the product says on every screen that it is a test station with no real trading. */
export function TestStationNotice() {
  const { LL } = useI18nContext();
  return (
    <div className="notice-strip" role="note" data-testid="test-station-notice">
      {LL.notice.testStation()}
    </div>
  );
}
