import { useState } from 'react';
import { serverErrors, type FieldErrors } from './form-errors';

/**
 * A form's text fields (`F`), the messages under them and other checked inputs (`E`, e.g. a checkbox), the
 * form's own message and whether it is sending.
 */
export function useForm<F extends string, E extends string = F>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<F | E>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** A field's change handler: takes the new text and clears that field's message. */
  const change = (field: F) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  /**
   * Shows the messages `found` by the form's own checks; if there are none, runs `send`, and shows what the
   * station refused under its field (one of `fields`), or as the form's message.
   */
  const submit = async (found: FieldErrors<F | E>, fields: readonly (F | E)[], send: () => Promise<void>) => {
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await send();
    } catch (error) {
      const refused = serverErrors(error, fields);
      setErrors(refused.fieldErrors);
      setFormError(refused.formError);
    } finally {
      setBusy(false);
    }
  };

  /** Puts a message under a field. */
  const setError = (field: F | E, message: string | undefined) =>
    setErrors((prev) => ({ ...prev, [field]: message }));

  return { values, setValues, errors, setErrors, setError, formError, busy, change, submit };
}
