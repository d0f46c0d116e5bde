/**
 * The bank card (DOMAIN.md): one per user; the holder is the KYC name, so binding needs KYC passed;
 * changing it is refused ("contact customer service") unless the back office granted `bank_change`
 * for that user, which one change then uses up.
 */
import { checkBankCard } from '../../src/shared/validation';
import { isUniqueViolation, AppError, assertFields, type Station } from '../platform';
import { requireKyc } from './kyc-gate';

export interface BankCardInput {
  bankName: string;
  branch: string;
  cardNo: string;
}

export interface BankCardView {
  bankName: string;
  branch: string;
  cardNoMasked: string;
  holder: string;
  createdAt: number;
}

/** 6222 **** **** 1234 style: the first four and the last four digits. */
export function maskCardNo(cardNo: string): string {
  return `${cardNo.slice(0, 4)} **** **** ${cardNo.slice(-4)}`;
}

/** A bank or branch name: 2-64 characters, no control characters and no angle brackets. */
function isPlainText(value: string): boolean {
  const chars = [...value];
  return chars.length >= 2 && chars.length <= 64 && chars.every((c) => c >= ' ' && c !== '<' && c !== '>');
}

function checked(input: BankCardInput): BankCardInput {
  const bankName = input.bankName.trim();
  const branch = input.branch.trim();
  const cardNo = input.cardNo.replace(/\s+/g, '');
  assertFields({
    bankName: bankName === '' ? 'required' : isPlainText(bankName) ? null : 'invalid',
    branch: branch === '' ? 'required' : isPlainText(branch) ? null : 'invalid',
    cardNo: checkBankCard(cardNo),
  });
  return { bankName, branch, cardNo };
}

export async function addBankCard(
  station: Station,
  userId: number,
  raw: BankCardInput,
): Promise<BankCardView> {
  const input = checked(raw);
  await requireKyc(station, userId, 'payee');
  try {
    await station.db
      .insertInto('bank_cards')
      .values({
        user_id: userId,
        bank_name: input.bankName,
        branch: input.branch,
        card_no: input.cardNo,
        created_at: station.clock.now(),
      })
      .execute();
  } catch (error) {
    // bank_cards.user_id is unique: a second card (even a racing one) is refused.
    if (isUniqueViolation(error)) throw new AppError('ALREADY_DONE', { msgKey: 'BANK_CARD_EXISTS' });
    throw error;
  }
  return (await bankCardOf(station, userId))!;
}

export async function updateBankCard(
  station: Station,
  userId: number,
  raw: BankCardInput,
): Promise<BankCardView> {
  const input = checked(raw);
  await requireKyc(station, userId, 'payee');
  await station.db.transaction().execute(async (trx) => {
    const card = await trx
      .selectFrom('bank_cards')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!card) throw new AppError('BANK_CARD_REQUIRED');
    // The grant is used up by this change; deleting it first makes two racing changes one.
    const used = await trx
      .deleteFrom('user_permissions')
      .where('user_id', '=', userId)
      .where('permission', '=', 'bank_change')
      .executeTakeFirst();
    if (Number(used.numDeletedRows) !== 1) {
      throw new AppError('NO_PERMISSION', { msgKey: 'BANK_CHANGE_NOT_ALLOWED' });
    }
    await trx
      .updateTable('bank_cards')
      .set({ bank_name: input.bankName, branch: input.branch, card_no: input.cardNo })
      .where('id', '=', card.id)
      .execute();
  });
  return (await bankCardOf(station, userId))!;
}

export async function bankCardOf(station: Station, userId: number): Promise<BankCardView | null> {
  const row = await station.db
    .selectFrom('bank_cards')
    .innerJoin('users', 'users.id', 'bank_cards.user_id')
    .select([
      'bank_cards.bank_name',
      'bank_cards.branch',
      'bank_cards.card_no',
      'bank_cards.created_at',
      'users.real_name',
    ])
    .where('bank_cards.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    bankName: row.bank_name,
    branch: row.branch,
    cardNoMasked: maskCardNo(row.card_no),
    holder: row.real_name ?? '',
    createdAt: row.created_at,
  };
}
