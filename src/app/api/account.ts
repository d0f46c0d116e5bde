/** The calls that change who is logged in; they write the session, screens only read it. */
import type { User } from '../../shared/api/types';
import { normalizePassword } from '../../shared/validation';
import { clearSession, setSession } from '../state/session';
import { call } from './client';
import { fetchFreshUser } from './query-client';

export async function login(phone: string, password: string): Promise<User> {
  const { token, user } = await call('POST /api/user/login.do', {
    phone: phone.trim(),
    password: normalizePassword(password),
  });
  setSession(token, user);
  return user;
}

export async function register(input: {
  phone: string;
  password: string;
  code: string;
  inviteCode?: string;
}): Promise<User> {
  const inviteCode = input.inviteCode?.trim();
  const { token, user } = await call('POST /api/user/reg.do', {
    phone: input.phone.trim(),
    password: normalizePassword(input.password),
    code: input.code.trim(),
    ...(inviteCode ? { inviteCode } : {}),
  });
  setSession(token, user);
  return user;
}

/** Ends the session on the station and here; the local session is cleared even when offline. */
export async function logout(): Promise<void> {
  try {
    await call('POST /api/user/logout.do', {}, { onNotLoggedIn: 'ignore' });
  } finally {
    clearSession();
  }
}

/** Fresh user info (accounts and balances) into the session, through the query cache. */
export function refreshUser(signal?: AbortSignal): Promise<User> {
  return fetchFreshUser(signal);
}
