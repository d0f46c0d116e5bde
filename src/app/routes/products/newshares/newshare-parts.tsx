/**
 * Pieces the new-share screens share: phase and state tags, an issue's facts, a subscription's record
 * with its pay action, and the lots input rule.
 */
import { useState, type ReactElement } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type {
  NewIssue,
  NewIssuePhase,
  NewShareSubscription,
  SubscriptionState,
} from '../../../../shared/api/newshares';
import { formatDateTime, formatMoney } from '../../../../shared/format';
import { refreshUser } from '../../../api/account';
import { useStationMutation, useStationQuery } from '../../../api/station-query';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { showAlert } from '../../../state/alert';
import { InfoRow, useMoneyText } from '../../../components/record-parts';

/** Dates and times of the calendar are Shanghai's (the A-share market's). */
export const ISSUE_TIME_ZONE = 'Asia/Shanghai';

export const shanghaiTime = (ms: number) => formatDateTime(ms, ISSUE_TIME_ZONE).slice(0, 16);

export function PhaseTag({ phase }: { phase: NewIssuePhase }) {
  const { LL } = useI18nContext();
  return (
    <span className={`status-tag phase-${phase}`} data-testid="issue-phase">
      {LL.newshares.phase[phase]()}
    </span>
  );
}

export function StateTag({ state }: { state: SubscriptionState }) {
  const { LL } = useI18nContext();
  return (
    <span className={`status-tag sub-${state}`} data-testid="subscription-state">
      {LL.newshares.state[state]()}
    </span>
  );
}

/** The figures of an issue the calendar and the detail show. */
export function IssueFacts({ issue, full = false }: { issue: NewIssue; full?: boolean }) {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  return (
    <>
      <InfoRow label={LL.newshares.issuePrice()}>
        <span className="num">{money(issue.issuePrice)}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.pe()}>
        <span className="num">{issue.pe === null ? '—' : formatMoney(issue.pe, locale, 1)}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.perUserCap()}>
        <span className="num">{LL.newshares.lotsValue({ lots: issue.perUserCap })}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.subscribeDate()}>
        <span className="num">{issue.subscribeDate}</span>
      </InfoRow>
      {full && (
        <>
          <InfoRow label={LL.newshares.placementPrice()}>
            <span className="num">{money(issue.placementPrice)}</span>
          </InfoRow>
          <InfoRow label={LL.newshares.issueVolume()}>
            <span className="num">{formatMoney(issue.issueVolume, locale, 0)}</span>
          </InfoRow>
          <InfoRow label={LL.newshares.onlineLots()}>
            <span className="num">{LL.newshares.lotsValue({ lots: issue.onlineLots })}</span>
          </InfoRow>
          <InfoRow label={LL.newshares.subscribeWindow()}>
            <span className="num">
              {shanghaiTime(issue.subscribeOpensAt)} – {shanghaiTime(issue.subscribeClosesAt).slice(11)}
            </span>
          </InfoRow>
        </>
      )}
      <InfoRow label={LL.newshares.drawDate()}>
        <span className="num">{issue.drawDate}</span>
      </InfoRow>
      {full && (
        <InfoRow label={LL.newshares.payDeadline()}>
          <span className="num">{shanghaiTime(issue.payDeadline)}</span>
        </InfoRow>
      )}
      <InfoRow label={LL.newshares.listingDate()}>
        <span className="num">{issue.listingDate}</span>
      </InfoRow>
    </>
  );
}

/** Pays a winning subscription (submitSubscribe.do); `onDone` gets the paid record. */
function PayButton({
  subscription,
  onDone,
}: {
  subscription: NewShareSubscription;
  onDone: (paid: NewShareSubscription) => void;
}) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const pay = useStationMutation('POST /user/submitSubscribe.do', {
    // The balances the record's next step depends on are the user's: fresh before the record changes.
    onSuccess: (paid) =>
      void refreshUser()
        .catch(() => undefined)
        .then(() => {
          showAlert(LL.newshares.paidDone(), 'success');
          onDone(paid);
        }),
  });
  const error = pay.error?.message ?? null;
  return (
    <div className="pay-box">
      <p className="muted small">
        {LL.newshares.payBefore({ time: shanghaiTime(subscription.payDeadline) })}
      </p>
      <button
        type="button"
        className="button primary block"
        disabled={pay.isPending}
        onClick={() => pay.mutate({ id: subscription.id })}
        data-testid="pay-button"
      >
        {pay.isPending
          ? LL.common.submitting()
          : LL.newshares.pay({ amount: money(subscription.amountDue, 'CNY') })}
      </button>
      {error && (
        <p className="form-error" role="alert" data-testid="pay-error">
          {error} <Link to="/transfer">{LL.newshares.transferFunds()}</Link>
        </p>
      )}
    </div>
  );
}

/** One subscription or placement: what was asked, what won, what was paid, and the next step. */
export function SubscriptionRecord({
  subscription,
  onChange,
  linkIssue = true,
}: {
  subscription: NewShareSubscription;
  onChange: (updated: NewShareSubscription) => void;
  linkIssue?: boolean;
}) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const s = subscription;
  const title = (
    <strong>
      {s.name} <span className="muted num">{s.code}</span>
    </strong>
  );
  return (
    <li className="record" data-testid="subscription-row" data-code={s.code}>
      <div className="record-head">
        {linkIssue ? (
          <Link
            to={s.kind === 'placement' ? '/qingchouDetail' : '/newsharesDetail'}
            search={{ code: s.code }}
          >
            {title}
          </Link>
        ) : (
          title
        )}
        <StateTag state={s.state} />
      </div>
      <InfoRow label={LL.newshares.kindLabel()}>{LL.newshares.kind[s.kind]()}</InfoRow>
      <InfoRow label={LL.newshares.lots()}>
        <span className="num">{LL.newshares.lotsValue({ lots: s.lots })}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.price()}>
        <span className="num">{money(s.price)}</span>
      </InfoRow>
      {s.firstNumber !== null && (
        <InfoRow label={LL.newshares.numbers()}>
          <span className="num" data-testid="allocation-numbers">
            {s.firstNumber === s.lastNumber ? s.firstNumber : `${s.firstNumber}–${s.lastNumber}`}
          </span>
        </InfoRow>
      )}
      {s.wonLots !== null && (
        <InfoRow label={LL.newshares.wonLots()}>
          <span className="num" data-testid="won-lots">
            {LL.newshares.lotsValue({ lots: s.wonLots })}
          </span>
        </InfoRow>
      )}
      {s.winningNumbers.length > 0 && (
        <InfoRow label={LL.newshares.winningNumbers()}>
          <span className="num">{s.winningNumbers.join(', ')}</span>
        </InfoRow>
      )}
      {s.amountDue > 0 && (
        <InfoRow label={s.amountPaid > 0 ? LL.newshares.amountPaid() : LL.newshares.amountDue()}>
          <span className="num">{money(s.amountPaid > 0 ? s.amountPaid : s.amountDue, 'CNY')}</span>
        </InfoRow>
      )}
      <div className="record-meta">
        <span>{LL.newshares.createdAt()}</span>
        <span className="num">{formatDateTime(s.createdAt)}</span>
      </div>
      {s.state === 'winning' && <PayButton subscription={s} onDone={onChange} />}
      {(s.state === 'paid' || s.state === 'subscribed') && (
        <p className="muted small">
          {s.state === 'paid'
            ? LL.newshares.listsOn({ time: shanghaiTime(s.listingAt) })
            : LL.newshares.awaitingDraw()}
        </p>
      )}
      {s.state === 'listed' && (
        <Link to="/warehouse" className="button secondary block" data-testid="to-position">
          {LL.newshares.toPosition()}
        </Link>
      )}
    </li>
  );
}

/** The issue a screen's address names, and the user's latest subscription of one kind to it. */
export type IssueWithMine =
  | { view: ReactElement; issue?: undefined }
  | {
      view: null;
      issue: NewIssue;
      /** The latest subscription: the one just made or changed here, else the station's. */
      latest: NewShareSubscription | null;
      /** A subscription made or changed here; the issue is read again (its remaining lots, its phase). */
      changed: (subscription: NewShareSubscription) => void;
    };

/**
 * Reads the issue of `?code=` (newStockList.do) and the user's latest `kind` subscription to it
 * (getOneSubscribeByUserId.do); until both are there, `view` is the screen to show instead: not found,
 * loading, or the error with a retry of both.
 */
export function useIssueWithMine(kind: 'lottery' | 'placement'): IssueWithMine {
  const { LL } = useI18nContext();
  const { code } = useSearch({ strict: false }) as { code?: string };
  const issues = useStationQuery('GET /user/newStockList.do', code ? { code } : null);
  const mine = useStationQuery(
    'GET /user/getOneSubscribeByUserId.do',
    code ? { code, kind, pageSize: 1 } : null,
  );
  const [fresh, setFresh] = useState<NewShareSubscription | null>(null);

  if (!code) return { view: <Empty text={LL.newshares.notFound()} /> };
  if (issues.loading || mine.loading) return { view: <Loading /> };
  if (!issues.data || !mine.data) {
    const error = issues.error ?? mine.error;
    const retry = () => {
      issues.reload();
      mine.reload();
    };
    return { view: error ? <ErrorState error={error} onRetry={retry} /> : <Loading /> };
  }
  const issue = issues.data.list[0];
  if (!issue) return { view: <Empty text={LL.newshares.notFound()} /> };
  return {
    view: null,
    issue,
    latest: fresh ?? mine.data.list[0] ?? null,
    // The issue's list refreshes by the subscription's or payment's invalidation (query-keys.ts).
    changed: setFresh,
  };
}
