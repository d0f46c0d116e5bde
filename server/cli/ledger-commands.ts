/** The ledger's operator command: ledger-check, a thin printer over `checkLedger`. */
import { checkLedger } from '../ledger/ledger';
import type { OperatorCommand } from './command';

const ledgerCheck: OperatorCommand = {
  name: 'ledger-check',
  usage: '',
  summary: 'verify that every account balance equals the sum of its ledger entries (exit 1 when not)',
  options: [],
  positionals: 0,
  async run({ station, print }) {
    const result = await checkLedger(station.db);
    if (result.mismatches.length === 0) {
      print(
        `ledger-check: OK: ${result.accounts} accounts, ${result.entries} entries, every balance matches its ledger`,
      );
      return 0;
    }
    print(
      `ledger-check: ${result.mismatches.length} of ${result.accounts} accounts do not match their ledger:`,
    );
    for (const m of result.mismatches) {
      print(
        `  account ${m.accountId} (user ${m.userId}, ${m.type}): balance ${m.balance} ≠ entries ${m.entriesSum} (minor units)`,
      );
    }
    return 1;
  },
};

export const LEDGER_COMMANDS: readonly OperatorCommand[] = [ledgerCheck];
