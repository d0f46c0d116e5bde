/**
 * What the personal centre reads first: the screen's queries and its route's preload (route-prefetch.ts)
 * share them.
 */
import { RATES_READ, read, USER_READ, type StationRead } from '../../api/reads';

/** The count of unread messages. */
export const UNREAD_READ = read('GET /user/cash/getUnreadCount.do', {});

export const USER_CENTRE_READS: readonly StationRead[] = [USER_READ, RATES_READ, UNREAD_READ];
