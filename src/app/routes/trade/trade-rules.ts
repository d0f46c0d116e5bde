/**
 * spec §5/§9: an order buys 1 to 100 lots. A later issue reads the limit from the station's settings
 * calls (CONVENTIONS "one source for each fact"); until then this is the spec's figure.
 */
export const MAX_LOTS_PER_ORDER = 100;

/** Leverage is fixed at 1 in this slice; the choice of multiples comes with the settings calls. */
export const DEFAULT_LEVERAGE = 1;
