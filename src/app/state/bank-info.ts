import { observable } from '@legendapp/state';
import type { BankCard } from '../../shared/api/types';

/** spec §3 shared client state: the bound bank card as the station last showed it (masked), or null. */
export const bankInfo$ = observable<{ card: BankCard | null; loaded: boolean }>({
  card: null,
  loaded: false,
});

export function setBankInfo(card: BankCard | null): void {
  bankInfo$.set({ card, loaded: true });
}
