import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Competition, MyCompetition } from '../../../shared/api/competitions';
import { formatMoney } from '../../../shared/format';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { InfoRow } from '../../components/record-parts';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { useForm } from '../../forms/use-form';
import { showAlert } from '../../state/alert';
import { useLoggedIn } from '../../state/use-logged-in';
import { competitionRead, MY_COMPETITIONS_READ, ownRow } from './competition-reads';
import { JoinForm, marketsText, periodText, StateBadge } from './CompetitionParts';
import { Leaderboard } from './Leaderboard';
import '../../components/wallet.css';
import './competitions.css';

/** /competition?id=: a competition's rules, the user's part in it (join, nickname, code), its leaderboard. */
export function CompetitionScreen() {
  const { LL } = useI18nContext();
  const { id } = useSearch({ strict: false }) as { id?: number };
  const detail = useStationQuery('GET /api/competition/detail.do', id ? competitionRead(id).input : null);
  const loggedIn = useLoggedIn();
  const mine = useStationQuery(MY_COMPETITIONS_READ.key, loggedIn ? MY_COMPETITIONS_READ.input : null);
  if (!id) return <Empty text={LL.competitions.notFound()} />;
  const competition = detail.data;
  if (!competition) {
    if (detail.loading) return <Loading />;
    return detail.error ? (
      <ErrorState error={detail.error} onRetry={detail.reload} />
    ) : (
      <Empty text={LL.competitions.notFound()} />
    );
  }
  const entry = mine.data?.find((item) => item.competition.id === id);
  return (
    <div className="wallet-screen competition-screen">
      <AsOfNote
        call={[
          'GET /api/competition/detail.do',
          'GET /api/competition/leaderboard.do',
          'GET /user/competition/mine.do',
        ]}
      />
      <section className="summary-card" aria-labelledby="competition-name">
        <div className="record-head">
          <h2 id="competition-name" className="competition-title" data-testid="competition-name">
            {competition.name}
          </h2>
          <StateBadge state={competition.state} />
        </div>
        {competition.description && <p className="competition-description">{competition.description}</p>}
      </section>
      <EntryPart competition={competition} entry={entry} loggedIn={loggedIn} mineLoading={mine.loading} />
      <CompetitionRules competition={competition} />
      <Leaderboard id={id} own={ownRow(mine.data, id)} />
    </div>
  );
}

/** The rules every entrant plays by. */
function CompetitionRules({ competition }: { competition: Competition }) {
  const { LL, locale } = useI18nContext();
  const cash = (['CNY', 'HKD', 'USD'] as const)
    .filter((currency) => competition.startingCash[currency] > 0)
    .map((currency) => `${currency} ${formatMoney(competition.startingCash[currency], locale)}`)
    .join(' + ');
  return (
    <section className="summary-card" aria-labelledby="competition-rules" data-testid="competition-rules">
      <h2 id="competition-rules" className="section-title">
        {LL.competitions.rules()}
      </h2>
      <InfoRow label={LL.competitions.period()}>
        <span className="num">{periodText(competition)}</span>
      </InfoRow>
      <InfoRow label={LL.competitions.startingCash()} testId="rule-cash">
        <span className="num">{cash}</span>
      </InfoRow>
      <InfoRow label={LL.competitions.markets()} testId="rule-markets">
        {marketsText(LL, competition.markets)}
      </InfoRow>
      <InfoRow label={LL.competitions.maxLeverage()} testId="rule-leverage">
        {LL.competitions.leverageValue({ max: competition.maxLeverage })}
      </InfoRow>
      <InfoRow label={LL.competitions.allowShort()} testId="rule-short">
        {competition.allowShort ? LL.competitions.shortAllowed() : LL.competitions.shortNotAllowed()}
      </InfoRow>
      <InfoRow label={LL.competitions.visibility()} testId="rule-visibility">
        {LL.competitions.visibilityValue[competition.visibility]()}
      </InfoRow>
      <InfoRow label={LL.competitions.entrants()} testId="rule-entrants">
        <span className="num">
          {competition.maxEntrants === null
            ? `${competition.entrants} (${LL.competitions.noCap()})`
            : `${competition.entrants} / ${competition.maxEntrants}`}
        </span>
      </InfoRow>
    </section>
  );
}

/** The user's part: the code and the edit link to its creator; joining; the nickname once joined. */
function EntryPart({
  competition,
  entry,
  loggedIn,
  mineLoading,
}: {
  competition: Competition;
  entry: MyCompetition | undefined;
  loggedIn: boolean;
  mineLoading: boolean;
}) {
  const { LL } = useI18nContext();
  const open = competition.state !== 'ended';
  if (!loggedIn) {
    return open ? (
      <Link to="/login" className="button primary block" data-testid="competition-login">
        {LL.competitions.loginToJoin()}
      </Link>
    ) : null;
  }
  if (mineLoading) return <Loading />;
  const joinCode = entry?.isCreator ? entry.competition.joinCode : null;
  return (
    <>
      {entry?.isCreator && (
        <section className="summary-card" aria-label={LL.competitions.created()} data-testid="creator-part">
          {joinCode && (
            <InfoRow label={LL.competitions.joinCode()} testId="competition-join-code">
              <strong className="num join-code">{joinCode}</strong>
            </InfoRow>
          )}
          {joinCode && <p className="muted small">{LL.competitions.joinCodeHint()}</p>}
          {competition.state === 'upcoming' && (
            <Link
              to="/competitionEdit"
              search={{ id: competition.id }}
              className="button secondary"
              data-testid="competition-edit-link"
            >
              {LL.competitions.edit()}
            </Link>
          )}
        </section>
      )}
      {entry?.joined ? (
        <NicknameForm id={competition.id} nickname={entry.nickname ?? ''} />
      ) : open ? (
        <JoinForm
          competitionId={competition.id}
          needsCode={competition.visibility === 'private'}
          title={LL.competitions.joinTitle()}
          testId="join-form"
          submitTestId="join-submit"
        />
      ) : (
        <p className="muted small">{LL.competitions.endedNote()}</p>
      )}
    </>
  );
}

/** The entrant's nickname on the leaderboard (nickname.do: shown from the next ranking). */
function NicknameForm({ id, nickname }: { id: number; nickname: string }) {
  const { LL } = useI18nContext();
  const save = useStationMutation('POST /user/competition/nickname.do');
  const form = useForm<'nickname'>({
    initial: { nickname },
    validate: (values) => ({
      nickname: values.nickname.trim() === '' ? LL.validation.required() : null,
    }),
    sending: save.isPending,
  });
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { id, nickname: values.nickname.trim() },
      {
        onSuccess: () => showAlert(LL.competitions.nicknameSaved(), 'success'),
        onError: (error) => form.showRefusal(error),
      },
    ),
  );
  return (
    <form
      className="summary-card wallet-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="nickname-title"
      data-testid="nickname-form"
    >
      <h2 id="nickname-title" className="section-title" data-testid="joined-as">
        {LL.competitions.joinedAs({ nickname })}
      </h2>
      <FormField
        label={LL.competitions.nicknameLabel()}
        name="nickname"
        autoComplete="nickname"
        value={form.values.nickname}
        error={form.errors.nickname}
        onChange={form.change('nickname')}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.competitions.saveNickname()}
        testId="nickname-submit"
      />
    </form>
  );
}
