import { useI18nContext } from '../../../locales/i18n-react';

/**
 * The foot of a sheet that asks for a decision: Cancel, then the action, which says "Submitting…" and takes
 * no second tap while the call is under way (a second tap would be a second intent).
 */
export function SheetButtons({
  label,
  busy,
  onConfirm,
  onCancel,
  testId,
  className = '',
}: {
  label: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId: string;
  /** Extra classes on the action, e.g. the buy or sell colour. */
  className?: string;
}) {
  const { LL } = useI18nContext();
  return (
    <div className="button-row">
      <button type="button" className="button secondary" onClick={onCancel}>
        {LL.common.cancel()}
      </button>
      <button
        type="button"
        className={`button primary ${className}`.trim()}
        data-testid={testId}
        disabled={busy}
        onClick={onConfirm}
      >
        {busy ? LL.common.submitting() : label}
      </button>
    </div>
  );
}
