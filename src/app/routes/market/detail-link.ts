import type { Market } from '../../../shared/api/types';

/** The detail route of an instrument: stocks on /listdetail, indexes and futures on /listdetail2. */
export function detailLink(
  code: string,
  market: Market,
): { to: '/listdetail' | '/listdetail2'; search: { code: string; market?: 'index' | 'futures' } } {
  return market === 'index' || market === 'futures'
    ? { to: '/listdetail2', search: { code, market } }
    : { to: '/listdetail', search: { code } };
}
