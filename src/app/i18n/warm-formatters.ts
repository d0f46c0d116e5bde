/**
 * Loads the locale's number-formatting data ahead of use, in an idle moment: the first Intl.NumberFormat
 * of a locale reads it from ICU, which otherwise lands in the render of the first prices (formatMoney in
 * src/shared/format then builds and keeps its own formatters from the loaded data, quickly).
 */
export function warmFormatters(locale: string): void {
  new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(0);
}
