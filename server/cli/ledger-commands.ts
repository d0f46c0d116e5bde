/** The ledger's operator command: ledger-check, a thin printer over `checkLedger`. */
import { checkLedger, describeLedgerCheck } from '../ledger';
import type { OperatorCommand } from './command';

const ledgerCheck: OperatorCommand = {
  name: 'ledger-check',
  usage: '',
  summary:
    'verify that every posting sums to zero per currency and every account balance equals the sum of its ledger entries (exit 1 when not)',
  options: [],
  positionals: 0,
  async run({ station, print }) {
    const result = await checkLedger(station.db);
    for (const line of describeLedgerCheck(result)) print(line);
    return result.mismatches.length === 0 && result.unbalanced.length === 0 ? 0 : 1;
  },
};

export const LEDGER_COMMANDS: readonly OperatorCommand[] = [ledgerCheck];
