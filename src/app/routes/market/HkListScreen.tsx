import { QuoteList } from './QuoteList';

/** /hk-list: the Hong Kong market. */
export function HkListScreen() {
  return (
    <div className="market-screen">
      <QuoteList market="hk" />
    </div>
  );
}
