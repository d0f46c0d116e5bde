/**
 * Per-user permission flags granted by the back office (DOMAIN.md): without one, the call answers
 * NO_PERMISSION ("no permission currently, contact online customer service"). Grants and revocations by
 * the operator are audited.
 *
 * The VIP permission may also be requested from the app (REQUESTABLE): the station's rule reviewer grants
 * a request REVIEW_DELAY_S after it (audited as the reviewer), so a newcomer can try VIP picks, unless
 * VIP_PERMISSION=operator reserves it to the operator, whose grant then decides the request.
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

/** The permissions a user may request from the app; the others are the operator's alone. */
export const REQUESTABLE: readonly Permission[] = ['vip_picks'];

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
      // The operator's grant decides a request waiting for it.
      await trx
        .updateTable('permission_requests')
        .set({ decided_at: now })
        .where('user_id', '=', userId)
        .where('permission', '=', permission)
        .where('decided_at', 'is', null)
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

/** The permissions the user asked for that are not decided yet. */
export async function pendingRequestsOf(station: Station, userId: number): Promise<Permission[]> {
  const rows = await station.db
    .selectFrom('permission_requests')
    .select('permission')
    .where('user_id', '=', userId)
    .where('decided_at', 'is', null)
    .orderBy('permission')
    .execute();
  return rows.map((r) => r.permission).filter(isPermission);
}

/**
 * The user asks for a requestable permission: 'granted' when they hold it already, else 'pending' (a
 * second request while one waits changes nothing). A permission held and then revoked may be asked again.
 */
export async function requestPermission(
  station: Station,
  userId: number,
  permission: Permission,
): Promise<'granted' | 'pending'> {
  if (!REQUESTABLE.includes(permission)) throw new AppError('NO_PERMISSION');
  const now = station.clock.now();
  return station.db.transaction().execute(async (trx) => {
    if (await hasPermission(trx, userId, permission)) return 'granted';
    await trx
      .insertInto('permission_requests')
      .values({ user_id: userId, permission, requested_at: now, decided_at: null })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'permission'])
          .doUpdateSet({ requested_at: now, decided_at: null })
          .where('permission_requests.decided_at', 'is not', null),
      )
      .execute();
    return 'pending';
  });
}

/**
 * The rule reviewer grants every request pending for REVIEW_DELAY_S at `now` (none when VIP_PERMISSION
 * reserves the permission to the operator). Each grant is conditional on the request still pending, so a
 * repeated run or the operator deciding meanwhile grants nothing twice. Returns how many were granted.
 */
export async function runPermissionReviewer(station: Station, now = station.clock.now()): Promise<number> {
  if (station.config.identity.vipPermissionBy === 'operator') return 0;
  const due = await station.db
    .selectFrom('permission_requests')
    .select(['user_id', 'permission'])
    .where('decided_at', 'is', null)
    .where('requested_at', '<=', now - station.config.reviewDelaySeconds * 1000)
    .orderBy('requested_at')
    .limit(500)
    .execute();
  let granted = 0;
  for (const request of due) {
    const done = await station.db.transaction().execute(async (trx) => {
      const decided = await trx
        .updateTable('permission_requests')
        .set({ decided_at: now })
        .where('user_id', '=', request.user_id)
        .where('permission', '=', request.permission)
        .where('decided_at', 'is', null)
        .executeTakeFirst();
      if (Number(decided.numUpdatedRows) === 0) return false;
      await trx
        .insertInto('user_permissions')
        .values({ user_id: request.user_id, permission: request.permission, granted_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'permission']).doNothing())
        .execute();
      await audit(trx, {
        time: now,
        actor: 'reviewer',
        action: 'permission.grant',
        userId: request.user_id,
        reason: 'requested in the app',
        detail: { permission: request.permission },
      });
      return true;
    });
    if (done) granted += 1;
  }
  return granted;
}
