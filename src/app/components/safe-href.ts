/**
 * The addresses content may link to: http(s), mailto, or a path on this site (not `//host` nor `/\host`,
 * which browsers read as another site); anything else (javascript:, data:, vbscript:, …) is refused. Null
 * when refused.
 */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^https?:\/\/[^\s]+$/i.test(href)) return href;
  if (/^mailto:[^\s]+$/i.test(href)) return href;
  if (/^\/(?![/\\])[^\s]*$/.test(href)) return href;
  return null;
}

/**
 * The addresses a picture may load from: https or a path on this site, as the station accepts them
 * (site-settings.ts). No whitespace, so the address is one candidate in a srcset. Null when refused.
 */
export function safeImageSrc(raw: string | undefined): string | null {
  const src = (raw ?? '').trim();
  if (/^https:\/\/[^\s]+$/i.test(src)) return src;
  if (/^\/(?![/\\])[^\s]*$/.test(src)) return src;
  return null;
}
