/**
 * The competition form's values and the station's fields (src/shared/api/competitions.ts), both ways, as
 * plain functions: times typed in the user's zone (datetime-local), money typed as text. The form checks
 * only what src/shared has a rule for (amounts: checkMoneyAmount) and what it needs to send anything at all;
 * the times, the cash and the limits are the station's to judge (server/competitions/competition-rules.ts).
 */
import {
  COMPETITION_MARKETS,
  type Competition,
  type CompetitionFields,
} from '../../../shared/api/competitions';
import type { Market } from '../../../shared/api/types';
import { checkMoneyAmount, type ValidationKey } from '../../../shared/validation';

/** The markets a competition can trade, in the order the form lists them (the station's list). */
export { COMPETITION_MARKETS };

/** How the starting cash is given: an amount per currency, or one amount in yuan (`cashInCny`). */
export type CashMode = 'perCurrency' | 'inCny';

/** The form's text fields. */
export type CompetitionTextField =
  | 'name'
  | 'description'
  | 'startAt'
  | 'endAt'
  | 'cashCny'
  | 'cashHkd'
  | 'cashUsd'
  | 'cashTotal'
  | 'maxLeverage'
  | 'maxEntrants';

/** What the form holds beside its text fields. */
export interface CompetitionChoices {
  cashMode: CashMode;
  markets: readonly Market[];
  allowShort: boolean;
  visibility: 'public' | 'private';
}

/** Checked inputs that are not text fields: the markets' checkboxes. */
export type CompetitionCheckedField = CompetitionTextField | 'markets';

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch ms as a datetime-local input's value ("2025-03-12T10:00"), in the user's own zone. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value as epoch ms in the user's zone; null when it is not a whole date and time. */
export function fromLocalInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute, second);
  // new Date rolls 31 February over into March: such a value is not a date.
  if (date.getMonth() !== month - 1 || date.getDate() !== day || date.getHours() !== hour) return null;
  return date.getTime();
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A new competition's first values: from the next whole hour after `now` for a week, 100,000 yuan. */
export function newCompetitionValues(now: number): Record<CompetitionTextField, string> {
  const start = Math.ceil((now + HOUR_MS) / HOUR_MS) * HOUR_MS;
  return {
    name: '',
    description: '',
    startAt: toLocalInput(start),
    endAt: toLocalInput(start + 7 * DAY_MS),
    cashCny: '100000',
    cashHkd: '',
    cashUsd: '',
    cashTotal: '100000',
    maxLeverage: '1',
    maxEntrants: '',
  };
}

export const NEW_COMPETITION_CHOICES: CompetitionChoices = {
  cashMode: 'perCurrency',
  markets: ['a'],
  allowShort: false,
  visibility: 'public',
};

/** A money figure as the input shows it: "" for none, else the number without grouping. */
function cashText(value: number): string {
  return value > 0 ? String(value) : '';
}

/** An existing competition as the edit form's values (its cash is stored per currency). */
export function competitionValues(competition: Competition): {
  values: Record<CompetitionTextField, string>;
  choices: CompetitionChoices;
} {
  const { startingCash } = competition;
  return {
    values: {
      name: competition.name,
      description: competition.description,
      startAt: toLocalInput(competition.startAt),
      endAt: toLocalInput(competition.endAt),
      cashCny: cashText(startingCash.CNY),
      cashHkd: cashText(startingCash.HKD),
      cashUsd: cashText(startingCash.USD),
      cashTotal: '',
      maxLeverage: String(competition.maxLeverage),
      maxEntrants: competition.maxEntrants === null ? '' : String(competition.maxEntrants),
    },
    choices: {
      cashMode: 'perCurrency',
      markets: competition.markets,
      allowShort: competition.allowShort,
      visibility: competition.visibility,
    },
  };
}

/** A cash field of the per-currency mode: empty or 0 is none; anything else a money amount (spec §5). */
function optionalCash(raw: string): ValidationKey | null {
  const text = raw.trim();
  return text === '' || Number(text) === 0 ? null : checkMoneyAmount(text);
}

/** The form's own checks, as validation keys (`validation.` of the dictionary). */
export function checkCompetitionForm(
  values: Record<CompetitionTextField, string>,
  choices: CompetitionChoices,
): Partial<Record<CompetitionCheckedField, ValidationKey | null>> {
  const perCurrency = choices.cashMode === 'perCurrency';
  const whole = (raw: string): ValidationKey | null => (/^\d+$/.test(raw.trim()) ? null : 'invalid');
  return {
    name: values.name.trim() === '' ? 'required' : null,
    startAt:
      values.startAt.trim() === '' ? 'required' : fromLocalInput(values.startAt) === null ? 'invalid' : null,
    endAt: values.endAt.trim() === '' ? 'required' : fromLocalInput(values.endAt) === null ? 'invalid' : null,
    cashCny: perCurrency ? optionalCash(values.cashCny) : null,
    cashHkd: perCurrency ? optionalCash(values.cashHkd) : null,
    cashUsd: perCurrency ? optionalCash(values.cashUsd) : null,
    cashTotal: perCurrency ? null : checkMoneyAmount(values.cashTotal.trim()),
    markets: choices.markets.length === 0 ? 'required' : null,
    maxLeverage: values.maxLeverage.trim() === '' ? 'required' : whole(values.maxLeverage),
    maxEntrants: values.maxEntrants.trim() === '' ? null : whole(values.maxEntrants),
  };
}

const amount = (raw: string): number => (raw.trim() === '' ? 0 : Number(raw));

/**
 * The station's fields (create.do; edit.do adds the id) of values the checks passed. The markets go in the
 * station's order; a per-currency amount left empty is 0.
 */
export function competitionFields(
  values: Record<CompetitionTextField, string>,
  choices: CompetitionChoices,
): Omit<CompetitionFields, 'requestId'> {
  const cash: Pick<CompetitionFields, 'startingCash' | 'startingCashHkd' | 'startingCashUsd' | 'cashInCny'> =
    choices.cashMode === 'inCny'
      ? { startingCash: amount(values.cashTotal), cashInCny: true }
      : {
          startingCash: amount(values.cashCny),
          startingCashHkd: amount(values.cashHkd),
          startingCashUsd: amount(values.cashUsd),
        };
  const entrants = values.maxEntrants.trim();
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    startAt: fromLocalInput(values.startAt) ?? 0,
    endAt: fromLocalInput(values.endAt) ?? 0,
    ...cash,
    markets: COMPETITION_MARKETS.filter((market) => choices.markets.includes(market)).join(','),
    maxLeverage: Number(values.maxLeverage.trim()),
    allowShort: choices.allowShort,
    visibility: choices.visibility,
    ...(entrants === '' ? {} : { maxEntrants: Number(entrants) }),
  };
}

/** The form's names of the station's fields, where they differ (a refusal names the station's). */
export const STATION_FIELD_NAMES: Readonly<Record<string, CompetitionCheckedField>> = {
  startingCashHkd: 'cashHkd',
  startingCashUsd: 'cashUsd',
  // A refusal of the one-amount mode itself is about the amount it gives.
  cashInCny: 'cashTotal',
};

/** The station's `startingCash` is the CNY amount, or the one amount in yuan. */
export function startingCashField(mode: CashMode): CompetitionTextField {
  return mode === 'inCny' ? 'cashTotal' : 'cashCny';
}
