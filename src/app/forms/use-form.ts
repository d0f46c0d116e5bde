import { useRef, useState } from 'react';
import { toApiError } from '../api/client';
import { ApiError, type ClientErrorCode } from '../api/errors';
import { serverErrors, type FieldErrors } from './form-errors';

/**
 * The one form helper every screen's form uses: its text fields (`F`), the messages under them and under other
 * checked inputs (`E`, e.g. a checkbox or a select kept in the screen's own state), the form's own message, and
 * whether it is sending.
 *
 * A form gives its checks as one pure function of the values (the rules of src/shared/validation.ts turned into
 * messages with `validationMessage`); `handleSubmit` runs them and, only when they all pass, the form's action.
 * The action either returns a promise (the form shows itself sending until it settles, and a throw is shown as
 * the station's refusal) or starts a station mutation and reports its refusal through `showRefusal` (then the
 * mutation's own `isPending` is the sending state: pass it as `sending`).
 */
export interface FormOptions<F extends string, E extends string> {
  readonly initial: Record<F, string>;
  /** The form's own checks: a message where a field is wrong, null (or absent) where it is fine. */
  readonly validate?: (values: Record<F, string>) => Partial<Record<F | E, string | null>>;
  /**
   * The fields the station may name in a refusal: their messages go under the field, anything else above the
   * submit button. By default the text fields and whatever `validate` checks.
   */
  readonly stationFields?: readonly (F | E)[];
  /** A station mutation's pending state, when the action runs one (it then replaces the form's own). */
  readonly sending?: boolean;
  /**
   * The station's names for fields the form calls otherwise (the station's `withPwd` is the form's
   * `password`): a refusal naming them goes under the form's field.
   */
  readonly stationNames?: Readonly<Record<string, F | E>>;
  /** Refusal codes about one field that name no field (a wrong withdrawal password): shown under it. */
  readonly refusalCodes?: Partial<Readonly<Record<ClientErrorCode, F | E>>>;
  /**
   * Messages that follow the values as they change (a quantity checked as it is typed) rather than waiting for
   * the next submit: once a field has been changed or a submit tried, these are `validate`'s for the current
   * values (and for the screen's own inputs, which `validate` reads). A station's refusal under one of them
   * stays until that field changes.
   */
  readonly live?: readonly (F | E)[];
}

/**
 * A station refusal as the form's messages: under the field a refusal code is about, else under the fields
 * it names (in the form's own names), else the form's message.
 */
export function refusalMessages<K extends string>(
  error: unknown,
  fields: readonly K[],
  names: Readonly<Record<string, K>> = {},
  codes: Partial<Readonly<Record<ClientErrorCode, K>>> = {},
): { fieldErrors: FieldErrors<K>; formError: string | null } {
  const apiError = toApiError(error);
  const codeField = codes[apiError.code];
  if (codeField) return { fieldErrors: { [codeField]: apiError.message } as FieldErrors<K>, formError: null };
  if (!apiError.fields) return serverErrors(apiError, fields);
  const renamed: Record<string, string> = {};
  for (const [name, message] of Object.entries(apiError.fields)) renamed[names[name] ?? name] = message;
  return serverErrors(new ApiError(apiError.code, apiError.message, apiError.status, renamed), fields);
}

export interface Form<F extends string, E extends string> {
  readonly values: Record<F, string>;
  readonly errors: FieldErrors<F | E>;
  readonly formError: string | null;
  /** Sending: the action's promise has not settled yet, or the mutation passed as `sending` is pending. */
  readonly busy: boolean;
  /** A text field's change handler: takes the new text and clears that field's message. */
  readonly change: (field: F) => (event: { target: { value: string } }) => void;
  /** Sets a field's text (a cleaned input, a filled-in suggestion) and clears its message. */
  readonly setValue: (field: F, value: string) => void;
  readonly setValues: (values: Record<F, string>) => void;
  /** Puts a message under a field (or clears it with undefined). */
  readonly setError: (field: F | E, message: string | undefined) => void;
  readonly setFormError: (message: string | null) => void;
  /** Runs the checks and shows their messages; true when everything passed. */
  readonly check: () => boolean;
  /** An onSubmit handler: no page load, the checks, then `action` with the values when they pass. */
  readonly handleSubmit: (
    action: (values: Record<F, string>) => void | Promise<unknown>,
  ) => (event?: { preventDefault(): void }) => void;
  /**
   * Shows a station refusal (or an unreachable station) under its field, or as the form's message; true when
   * it went under a field (a review sheet then steps aside so that the field can be seen).
   */
  readonly showRefusal: (error: unknown) => boolean;
  /** Back to the first values, without messages. */
  readonly reset: () => void;
}

function onlyMessages<K extends string>(found: Partial<Record<K, string | null>>): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const [field, message] of Object.entries(found) as [K, string | null | undefined][]) {
    if (message) out[field] = message;
  }
  return out;
}

/** The checks' messages for the live fields, over the stored ones (a refusal shows where the check finds nothing). */
function withLive<K extends string>(
  stored: FieldErrors<K>,
  found: Partial<Record<K, string | null>>,
  live: readonly K[],
): FieldErrors<K> {
  const out: FieldErrors<K> = { ...stored };
  for (const field of live) {
    const message = found[field] || stored[field];
    if (message) out[field] = message;
  }
  return out;
}

export function useForm<F extends string, E extends string = F>(options: FormOptions<F, E>): Form<F, E> {
  const { initial, validate, sending, live = [] } = options;
  const [values, setValuesState] = useState(initial);
  const [stored, setErrors] = useState<FieldErrors<F | E>>({});
  // The live messages show from the first change or submit on, not on a form the user has not touched yet.
  const [engaged, setEngaged] = useState(false);
  const errors = live.length > 0 && engaged && validate ? withLive(stored, validate(values), live) : stored;
  const [formError, setFormError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  // A second tap while the first submit is still running is the same submit: never a second send.
  const runningRef = useRef(false);
  const busy = running || sending === true;

  const stationFields = (): readonly (F | E)[] =>
    options.stationFields ?? [
      ...(Object.keys(initial) as F[]),
      ...((validate ? Object.keys(validate(values)) : []) as (F | E)[]),
    ];

  const setValue = (field: F, value: string) => {
    setValuesState((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
    setEngaged(true);
  };

  const check = () => {
    const found = onlyMessages<F | E>(validate ? validate(values) : {});
    // The live fields' messages are worked out on each render from then on: storing them would keep one
    // that a change of the screen's own inputs (a chip) has since made untrue.
    const kept = { ...found };
    for (const field of live) delete kept[field];
    setErrors(kept);
    setEngaged(true);
    setFormError(null);
    return Object.keys(found).length === 0;
  };

  const showRefusal = (error: unknown) => {
    const refused = refusalMessages(error, stationFields(), options.stationNames, options.refusalCodes);
    setErrors(refused.fieldErrors);
    setFormError(refused.formError);
    return Object.keys(refused.fieldErrors).length > 0;
  };

  const handleSubmit =
    (action: (values: Record<F, string>) => void | Promise<unknown>) =>
    (event?: { preventDefault(): void }) => {
      event?.preventDefault();
      if (runningRef.current || sending === true) return;
      if (!check()) return;
      const result = action(values);
      if (!(result instanceof Promise)) return;
      runningRef.current = true;
      setRunning(true);
      result.catch(showRefusal).finally(() => {
        runningRef.current = false;
        setRunning(false);
      });
    };

  return {
    values,
    errors,
    formError,
    busy,
    change: (field) => (event) => setValue(field, event.target.value),
    setValue,
    setValues: setValuesState,
    setError: (field, message) => setErrors((prev) => ({ ...prev, [field]: message })),
    setFormError,
    check,
    handleSubmit,
    showRefusal,
    reset: () => {
      setValuesState(initial);
      setErrors({});
      setEngaged(false);
      setFormError(null);
    },
  };
}
