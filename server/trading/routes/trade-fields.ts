/** Request fields and field rules the trading calls share: lots, prices, markets, positions, directions. */
import { checkLots } from '../../../src/shared/validation';
import { lotsField, type FieldRule } from '../../platform';
import { MARKETS } from '../../../src/shared/api/types';

/** The quantity messages of spec §5 for a lots field that failed its schema. */
export const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

export const priceField = { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 } as const;
export const marketField = { type: 'string', enum: [...MARKETS] } as const;
export const positionIdField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const directionField = {
  type: 'string',
  enum: ['long', 'short'],
  description: 'short: profits when the price falls',
} as const;

/** Trade inside this competition: its accounts and its limits (server/competitions). */
export const competitionIdField = {
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: "a competition the user entered: the call acts on that competition's accounts",
} as const;
