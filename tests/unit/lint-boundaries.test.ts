import { describe, expect, it } from 'vitest';
// @ts-expect-error: the lint plugin is plain JavaScript without types
import { boundaryViolation } from '../../scripts/lint/boundaries.js';

const check = (file: string, target: string, isPackage = false, typeOnly = false) =>
  boundaryViolation(file, target, isPackage, typeOnly) as string | null;

describe('the code boundaries the linter keeps (CONVENTIONS.md "Shape")', () => {
  it('keeps src/shared pure', () => {
    expect(check('src/shared/risk.ts', 'src/shared/money.ts')).toBeNull();
    expect(check('src/shared/risk.ts', 'server/settings.ts')).toMatch(/nothing outside itself/);
    expect(check('src/shared/risk.ts', 'zod', true)).toMatch(/no package/);
  });

  it('keeps the station out of the app runtimes', () => {
    expect(check('server/app.ts', 'src/app/main.tsx')).toMatch(/app's runtimes/);
    expect(check('server/trading/views.ts', 'src/shared/risk.ts')).toBeNull();
  });

  it('lets areas meet only at their doors', () => {
    expect(check('server/products/funds.ts', 'server/trading/index.ts')).toBeNull();
    expect(check('server/products/funds.ts', 'server/trading/views.ts')).toMatch(/through its door/);
    expect(check('server/app.ts', 'server/ledger/ledger.ts')).toMatch(/through its door/);
    expect(check('server/app.ts', 'server/ledger/index.ts')).toBeNull();
    expect(check('server/trading/routes/trade.ts', 'server/trading/trading.ts')).toBeNull();
    expect(check('server/trading/views.ts', 'server/trading/index.ts')).toMatch(/never import its door/);
    expect(check('server/trading/views.ts', 'server/settings.ts')).toBeNull();
  });

  it('lets areas depend one way at run time, types aside', () => {
    expect(check('server/products/funds.ts', 'server/ledger/index.ts')).toBeNull();
    expect(check('server/ledger/ledger.ts', 'server/trading/index.ts')).toMatch(/one way/);
    expect(check('server/platform/station.ts', 'server/market/index.ts')).toMatch(/one way/);
    expect(check('server/platform/station.ts', 'server/market/index.ts', false, true)).toBeNull();
  });
});
