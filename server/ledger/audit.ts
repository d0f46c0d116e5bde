/** The operator audit log: every back-office action with its time, actor, target user and reason. */
import type { DbOrTx } from '../platform';

export interface AuditEntry {
  time: number;
  actor: string;
  action: string;
  userId: number | null;
  reason: string;
  detail: Record<string, unknown>;
}

export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      time: entry.time,
      actor: entry.actor.slice(0, 64),
      action: entry.action,
      user_id: entry.userId,
      detail: JSON.stringify(entry.detail),
      reason: entry.reason.slice(0, 500),
    })
    .execute();
}
