import { useEffect } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { UserMessage } from '../../../shared/api/types';
import { formatDateTime } from '../../../shared/format';
import { useStationMutation, useStationPages, useStationQuery } from '../../api/station-query';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { PagedList } from '../../components/record-parts';
import '../../components/wallet.css';

const PAGE_SIZE = 20;
/** /alertdetail looks its message up among the newest ones (there is no single-message call). */
const DETAIL_LOOKUP_SIZE = 100;

/** Messages the list has shown, so the detail screen opens at once without asking again. */
const seen = new Map<number, UserMessage>();

/** /notify: the station's messages to the user, newest first; unread ones marked, all can be marked read. */
export function MessagesScreen() {
  const { LL } = useI18nContext();
  const pages = useStationPages('GET /user/cash/getMessagelist.do', { pageSize: PAGE_SIZE });
  // Marking read invalidates the list (query-keys.ts), whose first page carries the unread count again.
  const markAllRead = useStationMutation('POST /user/cash/readMessage.do', {
    onError: (error) => showAlert(error.message, 'error'),
  });
  const unread = pages.firstAnswer?.unread ?? 0;
  useEffect(() => {
    for (const message of pages.items) seen.set(message.id, message);
  }, [pages.items]);

  return (
    <div className="wallet-screen">
      <div className="list-toolbar">
        <span data-testid="unread-count">{LL.acct.unreadCount({ count: unread })}</span>
        <button
          type="button"
          className="button ghost small"
          data-testid="mark-all-read"
          disabled={markAllRead.isPending || !unread}
          onClick={() => markAllRead.mutate({})}
        >
          {LL.acct.markAllRead()}
        </button>
      </div>
      <PagedList pages={pages} emptyText={LL.acct.noMessages()} testId="message-list">
        {(message) => (
          <li
            key={message.id}
            className={message.readAt ? 'record' : 'record unread'}
            data-testid="message-row"
          >
            <Link to="/alertdetail" search={{ id: message.id }} className="record-link">
              <div className="record-head">
                <strong>
                  {!message.readAt && <span className="dot" aria-label={LL.acct.unread()} />}
                  {message.title}
                </strong>
                <span className="num muted small">{formatDateTime(message.createdAt)}</span>
              </div>
              <p className="muted small clamp">{message.content}</p>
            </Link>
          </li>
        )}
      </PagedList>
    </div>
  );
}

/** /alertdetail?id=: one message in full; opening it marks it read. */
export function MessageDetailScreen() {
  const { LL } = useI18nContext();
  const { id } = useSearch({ strict: false }) as { id?: number };
  const known = id ? seen.get(id) : undefined;
  // A message the list has not shown is looked up among the newest ones.
  const lookup = useStationQuery(
    'GET /user/cash/getMessagelist.do',
    id && !known ? { pageNum: 1, pageSize: DETAIL_LOOKUP_SIZE } : null,
  );
  const message = known ?? lookup.data?.list.find((m) => m.id === id) ?? null;
  const missing = !known && lookup.data !== undefined && message === null;
  const { mutate: markRead } = useStationMutation('POST /user/cash/readMessage.do');
  const unreadId = message && !message.readAt ? message.id : null;
  useEffect(() => {
    if (unreadId === null) return;
    markRead(
      { id: unreadId },
      {
        onSuccess: () => {
          const read = seen.get(unreadId);
          if (read) seen.set(unreadId, { ...read, readAt: Date.now() });
        },
      },
    );
  }, [unreadId, markRead]);

  if (!id) return <Empty text={LL.acct.messageMissing()} />;
  if (lookup.error && !message) return <ErrorState error={lookup.error} onRetry={lookup.reload} />;
  if (!message) return missing ? <Empty text={LL.acct.messageMissing()} /> : <Loading />;
  return (
    <article className="message-detail" data-testid="message-detail">
      <h2>{message.title}</h2>
      <p className="num muted small">{formatDateTime(message.createdAt)}</p>
      <p className="message-content">{message.content}</p>
    </article>
  );
}
