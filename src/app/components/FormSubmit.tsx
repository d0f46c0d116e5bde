import { useI18nContext } from '../../../locales/i18n-react';

/** A form's own message (what no field holds) and its submit button, which says when it is sending. */
export function FormSubmit(props: {
  formError: string | null;
  busy: boolean;
  label: string;
  testId: string;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      {props.formError && (
        <p className="form-error" role="alert" data-testid="form-error">
          {props.formError}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={props.busy} data-testid={props.testId}>
        {props.busy ? LL.common.submitting() : props.label}
      </button>
    </>
  );
}
