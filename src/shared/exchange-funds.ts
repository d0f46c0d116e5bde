/**
 * Exchange-traded funds on the A-share exchanges (ETFs, LOFs, listed closed-end funds), known by their code
 * ranges: Shanghai 50–52, 56 and 58 (588 the STAR ETFs), Shenzhen 15, 16 and 18. They trade like stocks,
 * but quote to 0.001 yuan (the exchanges' fund tick), pay no stamp duty (funds are exempt from securities
 * stamp duty) and no transfer fee (waived on fund trading by the exchanges and CSDC).
 */
const FUND_PREFIXES = ['50', '51', '52', '56', '58', '15', '16', '18'] as const;

/** Whether a six-digit A-share code is an exchange-traded fund. */
export function isExchangeFund(code: string | undefined): boolean {
  return code !== undefined && /^\d{6}$/.test(code) && FUND_PREFIXES.some((p) => code.startsWith(p));
}
