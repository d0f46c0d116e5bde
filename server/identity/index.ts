/**
 * The identity area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { createAuth, type Auth } from './auth';
export { maskCardNo } from './bank-card';
export { verifyPassword } from './credentials';
export { requireKyc } from './kyc-gate';
export { MAX_IMAGE_BYTES, decideKycByOperator, runKycReviewer } from './kyc';
export { sweepOrphanUploads } from './upload-quota';
export {
  PERMISSIONS,
  isPermission,
  requirePermission,
  runPermissionReviewer,
  setPermission,
} from './permissions';
export { bankPlugin } from './routes/bank-card';
export { kycPlugin, localizeReason } from './routes/kyc';
export { userPlugin } from './routes/user';
export { guardedCheck, inviteCodeRequired, type SessionInfo } from './users';
