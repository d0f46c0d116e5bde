/**
 * The addresses content may link to: http(s), mailto, or a path on this site (not `//host`, which is
 * another site); anything else (javascript:, data:, vbscript:, …) is refused. Null when refused.
 */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^https?:\/\/[^\s]+$/i.test(href)) return href;
  if (/^mailto:[^\s]+$/i.test(href)) return href;
  if (/^\/(?!\/)[^\s]*$/.test(href)) return href;
  return null;
}
