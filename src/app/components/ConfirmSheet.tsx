import type { ReactNode } from 'react';
import { Sheet } from './Sheet';
import { SheetButtons } from './SheetButtons';

export interface ConfirmRow {
  label: string;
  value: string;
  testId?: string;
}

/**
 * Money never moves on one tap: a sheet says what will happen — the figures of the move and the exact amount
 * that arrives — then Cancel or Confirm (as a broker app asks before a transfer or a purchase). Also asks
 * before a logout.
 */
export function ConfirmSheet({
  title,
  text,
  rows = [],
  arrives,
  confirmLabel,
  busy = false,
  error = null,
  onConfirm,
  onClose,
  testId,
  children,
}: {
  title: string;
  text?: string;
  rows?: readonly ConfirmRow[];
  /** What will arrive where, e.g. ["Arrives in your index account", "CNY 12,000.00"]. */
  arrives?: ConfirmRow;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Sheet open title={title} onClose={onClose} testId={testId}>
      {text && <p className="sheet-text">{text}</p>}
      {(rows.length > 0 || arrives) && (
        <dl className="figures confirm-figures">
          {rows.map((row) => (
            <div key={row.label} className="wide">
              <dt>{row.label}</dt>
              <dd className="num" data-testid={row.testId}>
                {row.value}
              </dd>
            </div>
          ))}
          {arrives && (
            <div className="wide confirm-arrives">
              <dt>{arrives.label}</dt>
              <dd className="num" data-testid={arrives.testId ?? 'confirm-arrives'}>
                {arrives.value}
              </dd>
            </div>
          )}
        </dl>
      )}
      {children}
      {error && (
        <p className="form-error" role="alert" data-testid="confirm-error">
          {error}
        </p>
      )}
      <SheetButtons
        label={confirmLabel}
        busy={busy}
        onConfirm={onConfirm}
        onCancel={onClose}
        testId="confirm-submit"
      />
    </Sheet>
  );
}
