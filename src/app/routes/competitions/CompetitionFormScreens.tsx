import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Competition } from '../../../shared/api/competitions';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { cleanAmountInput } from '../../components/record-parts';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import type { ApiError } from '../../api/errors';
import { showAlert } from '../../state/alert';
import { useLoggedIn } from '../../state/use-logged-in';
import { competitionRead, MY_COMPETITIONS_READ } from './competition-reads';
import {
  checkCompetitionForm,
  competitionFields,
  competitionValues,
  NEW_COMPETITION_CHOICES,
  newCompetitionValues,
  STATION_FIELD_NAMES,
  startingCashField,
  type CompetitionCheckedField,
  type CompetitionChoices,
  type CompetitionTextField,
} from './competition-form';
import { CompetitionChoiceFields } from './CompetitionChoiceFields';
import '../../components/wallet.css';
import './competitions.css';

/** /competitionCreate: any logged-in user creates a competition (create.do), then sees it. */
export function CompetitionCreateScreen() {
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt />;
  return (
    <CompetitionForm
      initial={{ values: newCompetitionValues(Date.now()), choices: NEW_COMPETITION_CHOICES }}
    />
  );
}

/** /competitionEdit?id=: its creator edits a competition until it starts (edit.do). */
export function CompetitionEditScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const { id } = useSearch({ strict: false }) as { id?: number };
  const detail = useStationQuery(
    'GET /api/competition/detail.do',
    loggedIn && id ? competitionRead(id).input : null,
  );
  const mine = useStationQuery(MY_COMPETITIONS_READ.key, loggedIn ? MY_COMPETITIONS_READ.input : null);
  if (!loggedIn) return <LoggedOutPrompt />;
  if (!id) return <Empty text={LL.competitions.notFound()} />;
  const error = detail.error ?? mine.error;
  if (!detail.data || !mine.data) {
    if (detail.loading || mine.loading || !error) return <Loading />;
    return (
      <ErrorState
        error={error}
        onRetry={() => {
          detail.reload();
          mine.reload();
        }}
      />
    );
  }
  const creator = mine.data.some((item) => item.competition.id === id && item.isCreator);
  if (!creator || detail.data.state !== 'upcoming') return <Empty text={LL.competitions.notEditable()} />;
  return (
    <CompetitionForm
      key={detail.data.id}
      competition={detail.data}
      initial={competitionValues(detail.data)}
    />
  );
}

function CompetitionForm({
  competition,
  initial,
}: {
  competition?: Competition;
  initial: { values: Record<CompetitionTextField, string>; choices: CompetitionChoices };
}) {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const [choices, setChoices] = useState<CompetitionChoices>(initial.choices);
  const create = useStationMutation('POST /user/competition/create.do');
  const edit = useStationMutation('POST /user/competition/edit.do');
  const sending = create.isPending || edit.isPending;
  const form = useForm<CompetitionTextField, CompetitionCheckedField>({
    initial: initial.values,
    validate: (values) => {
      const found = checkCompetitionForm(values, choices);
      return Object.fromEntries(
        Object.entries(found).map(([field, key]) => [field, validationMessage(LL, key ?? null)]),
      );
    },
    sending,
    stationNames: {
      ...STATION_FIELD_NAMES,
      startingCash: startingCashField(choices.cashMode),
    },
  });
  const done = (saved: Competition) => {
    showAlert(competition ? LL.competitions.savedToast() : LL.competitions.createdToast(), 'success');
    void navigate({ to: '/competition', search: { id: saved.id }, replace: true });
  };
  // The station's message says what is wrong (the start in the past, no cash at all) even when it names the
  // field too: it goes above the submit button beside the field's own.
  const refused = (error: ApiError) => {
    if (form.showRefusal(error)) form.setFormError(error.message);
  };
  const onSubmit = form.handleSubmit((values) => {
    const fields = competitionFields(values, choices);
    if (competition) edit.mutate({ ...fields, id: competition.id }, { onSuccess: done, onError: refused });
    else create.mutate(fields, { onSuccess: done, onError: refused });
  });
  const text = (field: CompetitionTextField, label: string, more: Record<string, unknown> = {}) => (
    <FormField
      label={label}
      name={field}
      value={form.values[field]}
      error={form.errors[field]}
      onChange={form.change(field)}
      {...more}
    />
  );
  const amount = (field: CompetitionTextField, label: string) =>
    text(field, label, {
      inputMode: 'decimal',
      autoComplete: 'off',
      onChange: (event: { target: { value: string } }) =>
        form.setValue(field, cleanAmountInput(event.target.value)),
    });
  const whole = (field: CompetitionTextField, label: string, hint?: string) =>
    text(field, label, {
      inputMode: 'numeric',
      autoComplete: 'off',
      hint,
      onChange: (event: { target: { value: string } }) =>
        form.setValue(field, event.target.value.replace(/\D/g, '')),
    });
  return (
    <form
      className="wallet-screen wallet-form competition-form"
      onSubmit={onSubmit}
      noValidate
      data-testid="competition-form"
    >
      {text('name', LL.competitions.name(), { autoComplete: 'off', maxLength: 64 })}
      <div className="field">
        <label htmlFor="competition-description">{LL.competitions.descriptionLabel()}</label>
        <textarea
          id="competition-description"
          name="description"
          rows={3}
          maxLength={1000}
          value={form.values.description}
          onChange={form.change('description')}
        />
      </div>
      {text('startAt', LL.competitions.startLabel(), { type: 'datetime-local' })}
      {text('endAt', LL.competitions.endLabel(), { type: 'datetime-local' })}
      <CompetitionChoiceFields
        choices={choices}
        onChange={(next) => {
          setChoices(next);
          form.setError('markets', undefined);
        }}
        marketsError={form.errors.markets}
        cash={{
          perCurrency: (
            <>
              {amount('cashCny', LL.competitions.cashCny())}
              {amount('cashHkd', LL.competitions.cashHkd())}
              {amount('cashUsd', LL.competitions.cashUsd())}
            </>
          ),
          inCny: amount('cashTotal', LL.competitions.cashTotal()),
        }}
      />
      {whole('maxLeverage', LL.competitions.leverageLabel())}
      {whole('maxEntrants', LL.competitions.maxEntrantsLabel(), LL.competitions.maxEntrantsHint())}
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={competition ? LL.competitions.editSubmit() : LL.competitions.createSubmit()}
        testId="competition-submit"
      />
    </form>
  );
}
