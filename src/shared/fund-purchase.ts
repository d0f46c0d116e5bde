/**
 * A fund subscription's rule, written once for the station that books it and the screen that confirms it:
 * the fee is the purchase fee rate of the amount (rounded half up to the cent), and the units are what the
 * rest buys at the NAV, in hundredths of a unit rounded down (the fund never hands out more than was paid for).
 */
import { applyRate } from './money';

/** `amount` in minor units at `nav` (major units per unit): the fee (minor) and the units (hundredths). */
export function fundPurchase(
  amount: number,
  feeRate: number,
  nav: number,
): { fee: number; unitHundredths: number } {
  const fee = applyRate(amount, feeRate);
  // The 1e-9 keeps a quotient that is whole in decimals (e.g. 1.00) from flooring to 0.99 in binary.
  const unitHundredths = Math.floor(((amount - fee) / 100 / nav) * 100 + 1e-9);
  return { fee, unitHundredths };
}
