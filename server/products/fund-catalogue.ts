/**
 * The funds' catalogue (DOMAIN.md "Funds"): the test station's own products, each with its name in every
 * language of the station and the parameters of its simulated NAV (funds.ts).
 */
import type { FundType } from '../../src/shared/api/funds';

export interface FundSpec {
  code: string;
  /** The Chinese name; `names` holds it in the station's other languages (API.md: names answer in the
   * request's language, as instrument names do). */
  name: string;
  names: FundNames;
  type: FundType;
  riskLevel: number;
  inception: string;
  /** Expected yearly return and volatility of the simulated NAV. */
  annualDrift: number;
  annualVol: number;
}

/** A fund's name in each language of the station other than zh-CN. */
interface FundNames {
  en: string;
  'zh-TW': string;
  th: string;
  vi: string;
}

/**
 * The catalogue (a test station's own products; names in the market's language, like stock names). Their
 * fees and smallest purchases are settings (fundTerms).
 */
export const FUND_CATALOGUE: readonly FundSpec[] = [
  // An open-ended index fund (an ETF feeder fund, dealt at NAV). The ETF itself (510300) is an instrument
  // of the market, traded at market prices with A-share fees, not a NAV fund.
  {
    code: '110020',
    name: '沪深300ETF联接',
    names: {
      en: 'CSI 300 ETF Feeder Fund',
      'zh-TW': '滬深300ETF聯接',
      th: 'กองทุนฟีดเดอร์ CSI 300 ETF',
      vi: 'Quỹ liên kết ETF CSI 300',
    },
    type: 'index',
    riskLevel: 4,
    inception: '2019-01-02',
    annualDrift: 0.06,
    annualVol: 0.2,
  },
  {
    code: '110011',
    name: '优质成长混合',
    names: {
      en: 'Quality Growth Mixed Fund',
      'zh-TW': '優質成長混合',
      th: 'กองทุนผสมเติบโตคุณภาพ',
      vi: 'Quỹ hỗn hợp Tăng trưởng Chất lượng',
    },
    type: 'mixed',
    riskLevel: 4,
    inception: '2019-01-02',
    annualDrift: 0.08,
    annualVol: 0.24,
  },
  {
    code: '161725',
    name: '消费主题股票',
    names: {
      en: 'Consumer Theme Equity Fund',
      'zh-TW': '消費主題股票',
      th: 'กองทุนหุ้นธีมผู้บริโภค',
      vi: 'Quỹ cổ phiếu Chủ đề Tiêu dùng',
    },
    type: 'equity',
    riskLevel: 5,
    inception: '2019-06-03',
    annualDrift: 0.07,
    annualVol: 0.3,
  },
  {
    code: '000171',
    name: '稳健信用债券',
    names: {
      en: 'Steady Credit Bond Fund',
      'zh-TW': '穩健信用債券',
      th: 'กองทุนตราสารหนี้เครดิตมั่นคง',
      vi: 'Quỹ trái phiếu Tín dụng Ổn định',
    },
    type: 'bond',
    riskLevel: 2,
    inception: '2019-01-02',
    annualDrift: 0.035,
    annualVol: 0.025,
  },
  {
    code: '003003',
    name: '现金宝货币',
    names: {
      en: 'Cash Treasure Money Market Fund',
      'zh-TW': '現金寶貨幣',
      th: 'กองทุนตลาดเงินแคชเทรเชอร์',
      vi: 'Quỹ thị trường tiền tệ Cash Treasure',
    },
    type: 'money',
    riskLevel: 1,
    inception: '2019-01-02',
    annualDrift: 0.018,
    annualVol: 0.0005,
  },
];

/**
 * The name of fund `code` in `locale` when `name` is its Chinese name, for the station's name translation
 * (market/localized-names.ts); undefined for another code or name.
 */
export function fundLocalName(code: string, name: string, locale: string): string | undefined {
  const spec = FUND_CATALOGUE.find((f) => f.code === code);
  if (!spec || spec.name !== name) return undefined;
  return locale === 'zh-CN' ? spec.name : spec.names[locale as keyof FundNames];
}
