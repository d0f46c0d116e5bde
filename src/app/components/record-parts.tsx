/**
 * Pieces the account and wallet screens share: the fresh user info, the requestId of a confirmed money
 * action, a paged list with its loading, empty and error states, and small display helpers.
 */
import { useCallback, type ReactNode } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { AccountType, Currency, User } from '../../shared/api/types';
import { formatMoney } from '../../shared/format';
import type { ApiError } from '../api/errors';
import { useStationQuery, type StationPages } from '../api/station-query';
import { USER_READ } from '../api/reads';
import { Empty, ErrorState, Loading } from './StatusViews';
import { session$ } from '../state/session';
import { useLoggedIn } from '../state/use-logged-in';

/** DOMAIN.md "Accounts": the currency each account keeps. */
export const ACCOUNT_CURRENCY: Record<AccountType, Currency> = {
  main: 'CNY',
  index: 'CNY',
  newstock: 'CNY',
  hk: 'HKD',
  us: 'USD',
};

export const CURRENCIES: readonly Currency[] = ['CNY', 'HKD', 'USD'];

export interface FreshUser {
  user: User | null;
  loading: boolean;
  error: ApiError | null;
  reload: () => void;
}

/**
 * The session's user, asked of the station when the screen opens (the user query: every screen showing
 * accounts shares it, and the changes that move money invalidate it).
 */
export function useFreshUser(): FreshUser {
  const user = useSelector(() => session$.user.get());
  const loggedIn = useLoggedIn();
  const query = useStationQuery(USER_READ.key, loggedIn ? USER_READ.input : null);
  // The session's user: every fresh answer of the query lands there (query-client.ts), and so does the
  // user a change answers with (auth.do), which may be newer than the cached answer.
  const fresh = user ?? query.data ?? null;
  return {
    user: fresh,
    loading: fresh === null && (query.loading || (loggedIn && !query.error)),
    error: query.error ?? null,
    reload: query.reload,
  };
}

/** Money in the user's locale with its currency code. */
export function useMoneyText(): (value: number, currency?: Currency) => string {
  const { locale } = useI18nContext();
  return useCallback(
    (value: number, currency?: Currency) =>
      currency ? `${currency} ${formatMoney(value, locale)}` : formatMoney(value, locale),
    [locale],
  );
}

/** A paged list with its states: loading, error (with a retry), empty, rows, and "load more". */
export function PagedList<T>({
  pages,
  emptyText,
  testId,
  children,
}: {
  pages: StationPages<T>;
  emptyText: string;
  testId?: string;
  children: (item: T) => ReactNode;
}) {
  const { LL } = useI18nContext();
  if (pages.loading) return <Loading />;
  if (pages.items.length === 0) {
    return pages.error ? (
      <ErrorState error={pages.error} onRetry={pages.reload} />
    ) : (
      <Empty text={emptyText} />
    );
  }
  return (
    <div className="record-list-wrap">
      <ul className="record-list" data-testid={testId}>
        {pages.items.map((item) => children(item))}
      </ul>
      {pages.error && <p className="inline-error">{pages.error.message}</p>}
      {pages.hasMore ? (
        <button type="button" className="button ghost block" onClick={pages.loadMore}>
          {LL.common.loadMore()}
        </button>
      ) : pages.loadingMore ? (
        <Loading />
      ) : (
        <p className="list-end">{LL.common.noMore()}</p>
      )}
    </div>
  );
}

/** One label–value line of a record or a summary. */
export function InfoRow({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="info-row">
      <span className="info-label">{label}</span>
      <span className="info-value" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

export function Chevron() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A number typed by the user: digits and at most one decimal point (a comma counts as the point). */
export function cleanAmountInput(raw: string): string {
  return raw.replace(',', '.').replace(/[^\d.]/g, '');
}

/** Cents rounding of a preview figure (the station decides the real one). */
export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}
