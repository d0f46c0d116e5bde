/**
 * Per-user permission flags granted by the back office (DOMAIN.md): without one, the call answers
 * NO_PERMISSION ("no permission currently, contact online customer service"). Grants and revocations by
 * the operator are audited.
 */
import { AppError, type DbOrTx, type Station } from '../platform';
import { audit } from '../ledger';

export const PERMISSIONS = [
  'vip_picks',
  'bank_change',
  'block_trade',
  'new_shares',
  'fund_allocation',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export async function permissionsOf(station: Station, userId: number): Promise<Permission[]> {
  const rows = await station.db
    .selectFrom('user_permissions')
    .select('permission')
    .where('user_id', '=', userId)
    .orderBy('permission')
    .execute();
  return rows.map((r) => r.permission).filter(isPermission);
}

export async function hasPermission(db: DbOrTx, userId: number, permission: Permission): Promise<boolean> {
  const row = await db
    .selectFrom('user_permissions')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('permission', '=', permission)
    .executeTakeFirst();
  return row !== undefined;
}

/** NO_PERMISSION unless the user holds `permission` (for other areas' calls, e.g. VIP picks). */
export async function requirePermission(
  station: Station,
  userId: number,
  permission: Permission,
): Promise<void> {
  if (!(await hasPermission(station.db, userId, permission))) throw new AppError('NO_PERMISSION');
}

/** Grants (or revokes) a permission as the operator; written to the audit log with the reason. */
export async function setPermission(
  station: Station,
  userId: number,
  permission: Permission,
  granted: boolean,
  actor: string,
  reason: string,
): Promise<void> {
  const now = station.clock.now();
  await station.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError('NOT_FOUND');
    if (granted) {
      await trx
        .insertInto('user_permissions')
        .values({ user_id: userId, permission, granted_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'permission']).doNothing())
        .execute();
    } else {
      await trx
        .deleteFrom('user_permissions')
        .where('user_id', '=', userId)
        .where('permission', '=', permission)
        .execute();
    }
    await audit(trx, {
      time: now,
      actor,
      action: granted ? 'permission.grant' : 'permission.revoke',
      userId,
      reason,
      detail: { permission },
    });
  });
}
