import { useSelector } from '@legendapp/state/react';
import { toast$ } from '../state/toast';

/** A short message in the middle of the screen that fades by itself (state/toast.ts). */
export function Toast() {
  const toast = useSelector(toast$);
  return (
    <div className="toast-layer" aria-live="assertive">
      {toast.visible && (
        <div key={toast.serial} className="toast" role="alert" data-testid="toast">
          {toast.text}
        </div>
      )}
    </div>
  );
}
