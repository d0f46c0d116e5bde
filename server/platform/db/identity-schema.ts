/**
 * The identity tables (migration 0003-identity): SMS throttles and daily counters, login guards, KYC
 * submissions and their uploaded photos, per-user permission flags, the operator audit log and the site
 * settings.
 */
import type { Generated } from 'kysely';

export interface SmsThrottleTable {
  phone: string;
  purpose: string;
  last_sent_at: number;
}

export interface RateCountersTable {
  key: string;
  period: number;
  count: number;
}

export interface LoginGuardsTable {
  phone: string;
  attempts: number;
  window_start: number;
  locked_until: number;
}

export interface UploadsTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  mime: string;
  size: number;
  created_at: number;
}

export interface KycSubmissionsTable {
  id: Generated<number>;
  user_id: number;
  real_name: string;
  id_number: string;
  front_upload_id: number;
  back_upload_id: number;
  status: 'pending' | 'passed' | 'failed';
  fail_reason: string | null;
  /** 'reviewer' (the rule reviewer) or 'operator:<name>'. */
  decided_by: string | null;
  submitted_at: number;
  decided_at: number | null;
}

export interface UserPermissionsTable {
  user_id: number;
  permission: string;
  granted_at: number;
}

/** A permission asked for from the app (0014): pending while decided_at is null. */
export interface PermissionRequestsTable {
  user_id: number;
  permission: string;
  requested_at: number;
  decided_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  time: number;
  actor: string;
  action: string;
  user_id: number | null;
  /** JSON of what was done. */
  detail: string;
  reason: string;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: number;
}
