import { useI18nContext } from '../../../../locales/i18n-react';
import type { PageKey } from '../../../shared/content';
import { useStationQuery } from '../../api/station-query';
import { ErrorState, Loading } from '../../components/StatusViews';
import { MarkdownView } from './ContentParts';

/** A site page in the reader's language (the station falls back to the nearest one written). */
export function SitePageView({ pageKey }: { pageKey: PageKey }) {
  const { locale } = useI18nContext();
  const page = useStationQuery('GET /api/site/getPage.do', { key: pageKey, lang: locale });
  if (page.loading) return <Loading />;
  if (!page.data) return page.error ? <ErrorState error={page.error} onRetry={page.reload} /> : null;
  return (
    <article className="article" lang={page.data.lang} data-testid={`page-${pageKey}`}>
      <h2>{page.data.title}</h2>
      <MarkdownView source={page.data.content} />
    </article>
  );
}

/** /agree: the privacy policy. */
export function PrivacyScreen() {
  return <SitePageView pageKey="privacy" />;
}

/** /aggre: the user agreement. */
export function AgreementScreen() {
  return <SitePageView pageKey="agreement" />;
}

/** /trade: the trading rules. */
export function RulesScreen() {
  return <SitePageView pageKey="rules" />;
}
