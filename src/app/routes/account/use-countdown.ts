import { useEffect, useState } from 'react';

/** spec §5/§9: the verification code is valid for 1 minute; the send button waits that long. */
export const DEFAULT_RESEND_SECONDS = 60;

/** Seconds left until `until` (epoch ms), ticking once a second. */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}
