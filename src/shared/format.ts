/** Number and time formatting of spec §9: thousands separators with 2 decimals; yyyy-MM-dd HH:mm:ss. */

const moneyFormatters = new Map<string, Intl.NumberFormat>();

/** 1234567.8 → "1,234,567.80" (separators follow the locale). */
export function formatMoney(value: number, locale = 'zh-CN', digits = 2): string {
  const key = `${locale}|${digits}`;
  let f = moneyFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: true,
    });
    moneyFormatters.set(key, f);
  }
  return f.format(value);
}

/** A signed percentage from a fraction: 0.0123 → "+1.23%". */
export function formatPct(fraction: number, digits = 2): string {
  const pct = fraction * 100;
  const sign = pct > 0 ? '+' : '';
  return `${sign}${pct.toFixed(digits)}%`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Epoch ms → "yyyy-MM-dd HH:mm:ss" in the given IANA time zone (default: the viewer's). */
export function formatDateTime(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return `${get('year')}-${pad(get('month'))}-${pad(get('day'))} ${pad(get('hour'))}:${pad(get('minute'))}:${pad(get('second'))}`;
}
