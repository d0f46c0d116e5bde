/**
 * The competition form's pure parts: datetime-local values in the user's zone both ways, the form's own
 * checks (only what src/shared has a rule for, and what it needs to send anything), the station's fields it
 * sends, and the user's own leaderboard row from mine.do.
 */
import { describe, expect, it } from 'vitest';
import type { Competition, MyCompetition } from '../../src/shared/api/competitions';
import {
  checkCompetitionForm,
  competitionFields,
  competitionValues,
  fromLocalInput,
  NEW_COMPETITION_CHOICES,
  newCompetitionValues,
  toLocalInput,
  type CompetitionChoices,
} from '../../src/app/routes/competitions/competition-form';
import { ownRow } from '../../src/app/routes/competitions/competition-reads';

/** 12 March 2025, 10:30 on the machine's own clock face (the zone the tests run in). */
const LOCAL = new Date(2025, 2, 12, 10, 30).getTime();

const competition: Competition = {
  id: 7,
  name: 'Spring cup',
  description: 'A-shares and US stocks',
  startAt: LOCAL,
  endAt: LOCAL + 3 * 86_400_000,
  state: 'upcoming',
  startingCash: { CNY: 100_000, HKD: 0, USD: 10_000.5 },
  markets: ['us', 'a'],
  maxLeverage: 2,
  allowShort: true,
  visibility: 'private',
  joinCode: 'ABCD2345',
  maxEntrants: null,
  entrants: 0,
  frozen: false,
};

describe('competition form: times in the user zone', () => {
  it('writes and reads datetime-local values in the local zone', () => {
    expect(toLocalInput(LOCAL)).toBe('2025-03-12T10:30');
    expect(fromLocalInput('2025-03-12T10:30')).toBe(LOCAL);
    expect(fromLocalInput('2025-03-12T10:30:00')).toBe(LOCAL);
  });

  it('refuses what is not a whole date and time, or a date that does not exist', () => {
    for (const value of ['', '2025-03-12', '2025-02-31T10:00', '2025-03-12T25:00', 'tomorrow']) {
      expect(fromLocalInput(value), value).toBeNull();
    }
  });

  it('starts a new competition at the next whole hour after an hour from now, for a week', () => {
    const values = newCompetitionValues(LOCAL);
    expect(values.startAt).toBe('2025-03-12T12:00');
    expect(fromLocalInput(values.endAt)! - fromLocalInput(values.startAt)!).toBe(7 * 86_400_000);
  });
});

describe('competition form: checks and fields', () => {
  const perCurrency: CompetitionChoices = { ...NEW_COMPETITION_CHOICES, markets: ['a', 'us'] };
  const filled = { ...newCompetitionValues(LOCAL), name: ' Spring cup ', cashUsd: '10000' };

  it('passes a filled form and sends the station its fields, markets in the station order', () => {
    const found = checkCompetitionForm(filled, { ...perCurrency, markets: ['us', 'a'] });
    expect(Object.values(found).filter(Boolean)).toEqual([]);
    expect(competitionFields(filled, { ...perCurrency, markets: ['us', 'a'] })).toEqual({
      name: 'Spring cup',
      description: '',
      startAt: fromLocalInput(filled.startAt),
      endAt: fromLocalInput(filled.endAt),
      startingCash: 100_000,
      startingCashHkd: 0,
      startingCashUsd: 10_000,
      markets: 'a,us',
      maxLeverage: 1,
      allowShort: false,
      visibility: 'public',
    });
  });

  it('sends one amount in yuan with cashInCny, and a cap only when given', () => {
    const fields = competitionFields(
      { ...filled, cashTotal: '50000.5', maxEntrants: '30' },
      { ...perCurrency, cashMode: 'inCny' },
    );
    expect(fields).toMatchObject({ startingCash: 50_000.5, cashInCny: true, maxEntrants: 30 });
    expect(fields).not.toHaveProperty('startingCashHkd');
  });

  it('names each missing or malformed field, and no market at all', () => {
    const found = checkCompetitionForm(
      { ...filled, name: '  ', startAt: '', endAt: '2025-02-31T10:00', cashHkd: '1.234', maxLeverage: '' },
      { ...perCurrency, markets: [] },
    );
    expect(found).toMatchObject({
      name: 'required',
      startAt: 'required',
      endAt: 'invalid',
      cashHkd: 'amountInvalid',
      markets: 'required',
      maxLeverage: 'required',
    });
    // Empty or 0 in a currency is none; whether any cash is given at all is the station's rule.
    expect(checkCompetitionForm({ ...filled, cashCny: '0', cashUsd: '' }, perCurrency).cashCny).toBeNull();
  });

  it('checks the one amount in yuan only in that mode', () => {
    const inCny = { ...perCurrency, cashMode: 'inCny' as const };
    expect(checkCompetitionForm({ ...filled, cashTotal: '' }, inCny).cashTotal).toBe('amountEmpty');
    expect(checkCompetitionForm({ ...filled, cashTotal: '' }, perCurrency).cashTotal).toBeNull();
    expect(checkCompetitionForm({ ...filled, cashCny: 'x' }, inCny).cashCny).toBeNull();
  });

  it('fills the edit form from a competition, cash per currency', () => {
    const { values, choices } = competitionValues(competition);
    expect(values).toMatchObject({
      name: 'Spring cup',
      startAt: '2025-03-12T10:30',
      cashCny: '100000',
      cashHkd: '',
      cashUsd: '10000.5',
      maxLeverage: '2',
      maxEntrants: '',
    });
    expect(choices).toEqual({
      cashMode: 'perCurrency',
      markets: ['us', 'a'],
      allowShort: true,
      visibility: 'private',
    });
  });
});

describe('leaderboard: the user own row', () => {
  const entry = (over: Partial<MyCompetition>): MyCompetition => ({
    competition,
    joined: true,
    isCreator: false,
    nickname: 'Ann',
    rank: 3,
    totalAssets: 110_000,
    returnPct: 0.1,
    ...over,
  });

  it('is mine.do standing in that competition once ranked', () => {
    expect(ownRow([entry({})], 7)).toEqual({
      rank: 3,
      nickname: 'Ann',
      totalAssets: 110_000,
      returnPct: 0.1,
    });
  });

  it('is none before the first ranking, for a competition only created, or another competition', () => {
    expect(ownRow([entry({ rank: null, totalAssets: null, returnPct: null })], 7)).toBeNull();
    expect(ownRow([entry({ joined: false, isCreator: true })], 7)).toBeNull();
    expect(ownRow([entry({})], 8)).toBeNull();
    expect(ownRow(undefined, 7)).toBeNull();
  });
});
