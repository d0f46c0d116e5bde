/**
 * Fund-flow notes in the reader's language. New entries store a station text (a `stationTexts` key and its
 * parameters, platform stationText); entries written before notes were keys stored English words, which are
 * read here as the same keys, so every row shows in the reader's language. A note of codes and numbers only
 * (`600519 ×100`, an order number) has no language and is shown as stored.
 */
import { parseStationText, type TextParams } from '../platform';

interface NoteKey {
  key: string;
  params: TextParams;
}

const ACCOUNT = '(main|index|newstock|hk|us)';

/** The stored English notes of earlier entries, each with the key that says the same. */
const LEGACY: readonly [RegExp, (m: RegExpExecArray) => NoteKey][] = [
  [/^paper starting balance$/, () => ({ key: 'noteOpeningBalance', params: {} })],
  [/^paper account reset$/, () => ({ key: 'noteAccountReset', params: {} })],
  [new RegExp(`^→ ${ACCOUNT}$`), (m) => ({ key: 'noteTransferTo', params: { account: m[1]! } })],
  [new RegExp(`^← ${ACCOUNT}$`), (m) => ({ key: 'noteTransferFrom', params: { account: m[1]! } })],
  [
    /^(\S+) (cancelled|rejected)$/,
    (m) => ({ key: 'noteWithdrawalRefund', params: { orderNo: m[1]!, outcome: m[2]! } }),
  ],
  [
    /^([A-Z0-9]{1,10}) ×(\d+) placement$/,
    (m) => ({ key: 'notePlacement', params: { code: m[1]!, shares: Number(m[2]) } }),
  ],
  [
    /^×(\d+) (\d+)d$/,
    (m) => ({ key: 'noteAllocationTerms', params: { multiple: Number(m[1]), days: Number(m[2]) } }),
  ],
  [/^×(\d+)$/, (m) => ({ key: 'noteAllocationCredit', params: { multiple: Number(m[1]) } })],
  [/^margin$/, () => ({ key: 'noteAllocationMargin', params: {} })],
  [/^rejected$/, () => ({ key: 'noteAllocationRejected', params: {} })],
  [/^owed$/, () => ({ key: 'noteFeeOwed', params: {} })],
  [/^to main$/, () => ({ key: 'noteToMain', params: {} })],
  [/^from sub-account$/, () => ({ key: 'noteFromSubAccount', params: {} })],
  [/^day (\d+)$/, (m) => ({ key: 'noteAllocationDay', params: { day: Number(m[1]) } })],
];

/** The key and parameters a stored note says, or null for a note without words (codes, numbers). */
export function noteKeyOf(note: string | null): NoteKey | null {
  if (note === null) return null;
  const stored = parseStationText(note);
  if (stored) return stored;
  for (const [pattern, toKey] of LEGACY) {
    const m = pattern.exec(note);
    if (m) return toKey(m);
  }
  return null;
}
