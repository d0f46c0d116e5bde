/**
 * Pieces the competition screens share: a competition's row in a list, its state badge, the period and
 * market texts, and the form that joins a competition (by its id, or a private one by its code alone).
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { TranslationFunctions } from '../../../../locales/i18n-types';
import type { Competition, CompetitionState } from '../../../shared/api/competitions';
import type { Market } from '../../../shared/api/types';
import { formatDateTime } from '../../../shared/format';
import { useStationMutation } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { useForm } from '../../forms/use-form';
import { showAlert } from '../../state/alert';
import { COMPETITION_MARKETS } from './competition-form';

/** A competition's markets in the reader's language, in the form's order. */
export function marketsText(LL: TranslationFunctions, markets: readonly Market[]): string {
  return COMPETITION_MARKETS.filter((market) => markets.includes(market))
    .map((market) => LL.competitions.market[market]())
    .join(' · ');
}

/** Start and end in the viewer's own zone (what the form's datetime-local inputs use too). */
export function periodText(competition: Pick<Competition, 'startAt' | 'endAt'>): string {
  const minutes = (ms: number) => formatDateTime(ms).slice(0, 16);
  return `${minutes(competition.startAt)} – ${minutes(competition.endAt)}`;
}

export function StateBadge({ state }: { state: CompetitionState }) {
  const { LL } = useI18nContext();
  return (
    <span className={`tag competition-state state-${state}`} data-testid="competition-state">
      {LL.competitions.state[state]()}
    </span>
  );
}

/** A competition in a list: its name, state, period, markets and entrants, leading to its detail. */
export function CompetitionRow({ competition }: { competition: Competition }) {
  const { LL } = useI18nContext();
  const cap = competition.maxEntrants;
  return (
    <li className="record">
      <Link
        to="/competition"
        search={{ id: competition.id }}
        className="record-link"
        data-testid="competition-row"
      >
        <span className="record-head">
          <strong className="competition-name">{competition.name}</strong>
          <StateBadge state={competition.state} />
        </span>
        <span className="record-meta num">{periodText(competition)}</span>
        <span className="record-meta">
          <span>{marketsText(LL, competition.markets)}</span>
          <span className="num">
            {LL.competitions.entrantsCount({
              count: cap === null ? String(competition.entrants) : `${competition.entrants} / ${cap}`,
            })}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** What the join form (join.do) says and does, for each way in. */
interface JoinFormProps {
  /** The competition joined by its id (its screen); none when the code alone names it (the list's form). */
  competitionId?: number;
  /** Whether the code is asked: always without an id, for a private competition with one. */
  needsCode: boolean;
  title: string;
  hint?: string;
  testId: string;
  submitTestId: string;
  onJoined?: (competitionId: number) => void;
}

/**
 * Joins a competition (join.do): by its id, or by the code its creator shares, with the nickname to show on
 * its leaderboard. The station answers an unknown code with NOT_FOUND, naming no field: it is about the code.
 */
export function JoinForm({
  competitionId,
  needsCode,
  title,
  hint,
  testId,
  submitTestId,
  onJoined,
}: JoinFormProps) {
  const { LL } = useI18nContext();
  const join = useStationMutation('POST /user/competition/join.do');
  const form = useForm<'joinCode' | 'nickname'>({
    initial: { joinCode: '', nickname: '' },
    validate: (values) => ({
      joinCode: needsCode && values.joinCode.trim() === '' ? LL.validation.required() : null,
    }),
    sending: join.isPending,
    refusalCodes: needsCode ? { NOT_FOUND: 'joinCode' } : {},
  });
  const onSubmit = form.handleSubmit((values) =>
    join.mutate(
      {
        ...(competitionId === undefined ? {} : { id: competitionId }),
        joinCode: needsCode ? values.joinCode.trim() : undefined,
        nickname: values.nickname.trim() || undefined,
      },
      {
        onSuccess: (joined) => {
          form.reset();
          showAlert(LL.competitions.joined(), 'success');
          onJoined?.(joined.competition.id);
        },
        onError: (error) => form.showRefusal(error),
      },
    ),
  );
  return (
    <form
      className="summary-card wallet-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
    >
      <h2 id={`${testId}-title`} className="section-title">
        {title}
      </h2>
      {hint && <p className="muted small">{hint}</p>}
      {needsCode && (
        <FormField
          label={LL.competitions.joinCodeLabel()}
          name="joinCode"
          autoComplete="off"
          autoCapitalize="characters"
          value={form.values.joinCode}
          error={form.errors.joinCode}
          onChange={form.change('joinCode')}
        />
      )}
      <FormField
        label={LL.competitions.nicknameLabel()}
        name="nickname"
        autoComplete="nickname"
        value={form.values.nickname}
        error={form.errors.nickname}
        hint={LL.competitions.nicknameHint()}
        onChange={form.change('nickname')}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.competitions.join()}
        testId={submitTestId}
      />
    </form>
  );
}

/** Joins a private competition with the code its creator shares, then opens the competition. */
export function JoinByCodeForm() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  return (
    <JoinForm
      needsCode
      title={LL.competitions.joinByCode()}
      hint={LL.competitions.joinByCodeHint()}
      testId="join-by-code"
      submitTestId="join-by-code-submit"
      onJoined={(id) => void navigate({ to: '/competition', search: { id } })}
    />
  );
}
