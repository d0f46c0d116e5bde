import { useEffect, useRef } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { SERVICE_MESSAGE_MAX } from '../../../shared/content';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { publishedText } from './ContentParts';
import { useLoggedIn } from '../../state/use-logged-in';
import { useForm } from '../../forms/use-form';

/** The thread is re-read this often while the page is visible, so the back office's answer shows up. */
const THREAD_REFRESH_MS = 10_000;

/**
 * /service: online customer service: the contact the station is configured with, and (logged in) the
 * user's message thread with the back office, which the operator command line answers.
 */
export function ServiceScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const info = useStationQuery('GET /api/site/getInfo.do', {});
  return (
    <div className="service">
      <section className="service-contact" data-testid="service-contact">
        <p>{LL.content.serviceIntro()}</p>
        {info.data?.servicePhone && (
          <a href={`tel:${info.data.servicePhone.replace(/[^\d+]/g, '')}`}>
            {LL.content.contactPhone()}: {info.data.servicePhone}
          </a>
        )}
        {info.data?.serviceUrl && /^https:\/\//.test(info.data.serviceUrl) && (
          <a href={info.data.serviceUrl} target="_blank" rel="noopener noreferrer">
            {LL.content.contactUrl()}
          </a>
        )}
      </section>
      {loggedIn ? <Thread /> : <LoggedOutPrompt text={LL.content.loginToChat()} />}
    </div>
  );
}

function Thread() {
  const { LL } = useI18nContext();
  const thread = useStationQuery('GET /user/service/messages.do', {}, { refetchInterval: THREAD_REFRESH_MS });
  // Sending invalidates the thread (query-keys.ts): the new message shows from the station's answer.
  const sendMessage = useStationMutation('POST /user/service/send.do');
  const form = useForm<'content'>({ initial: { content: '' }, sending: sendMessage.isPending });
  const draft = form.values.content;
  // The composer has one line for a message, above it: a refusal of the message's text is read there too.
  const error = form.errors.content ?? form.formError;
  const end = useRef<HTMLLIElement>(null);
  const count = thread.data?.length ?? 0;

  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  // An empty message is not refused with a message: the send button is off until there is text.
  const send = form.handleSubmit((values) => {
    const content = values.content.trim();
    if (content === '') return;
    sendMessage.mutate({ content }, { onSuccess: form.reset, onError: form.showRefusal });
  });

  if (thread.loading) return <Loading />;
  if (!thread.data) return thread.error ? <ErrorState error={thread.error} onRetry={thread.reload} /> : null;
  return (
    <>
      <ol className="thread" data-testid="service-thread" aria-live="polite">
        {thread.data.length === 0 && <li className="muted">{LL.content.noMessages()}</li>}
        {thread.data.map((m) => (
          <li
            key={m.id}
            className={m.sender === 'user' ? 'bubble mine' : 'bubble'}
            data-testid="service-message"
          >
            {m.content}
            <small>
              {m.sender === 'user' ? LL.content.you() : LL.content.staff()} · {publishedText(m.createdAt)}
            </small>
          </li>
        ))}
        <li ref={end} aria-hidden="true" />
      </ol>
      {error && <p className="inline-error">{error}</p>}
      <form className="composer" onSubmit={send}>
        <textarea
          value={draft}
          maxLength={SERVICE_MESSAGE_MAX}
          rows={1}
          aria-label={LL.content.messageLabel()}
          placeholder={LL.content.messagePlaceholder()}
          onChange={form.change('content')}
          data-testid="service-input"
        />
        <button
          type="submit"
          className="button primary"
          disabled={form.busy || draft.trim() === ''}
          data-testid="service-send"
        >
          {form.busy ? LL.content.sending() : LL.content.send()}
        </button>
      </form>
    </>
  );
}
