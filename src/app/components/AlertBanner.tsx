import { useSelector } from '@legendapp/state/react';
import { alert$ } from '../state/alert';

/** spec §8: the global alert banner, a text and a type, for 2 seconds (the alert state hides it). */
export function AlertBanner() {
  const alert = useSelector(alert$);
  return (
    <div className="alert-layer" aria-live="polite">
      {alert.visible && (
        <div key={alert.serial} className={`alert alert-${alert.type}`} role="status" data-testid="alert">
          {alert.text}
        </div>
      )}
    </div>
  );
}
