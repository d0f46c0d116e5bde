import { useEffect, useState } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { displaySettings$, replayDateAt } from '../state/display-settings';

/** How often a running replay's date is read again (a replayed day may pass in minutes). */
const REPLAY_DATE_EVERY_MS = 10_000;

/**
 * ARCHITECTURE: the product says on every screen that it is a test station with no real trading; a station
 * replaying real history says which day it replays, wherever it says "test station".
 */
export function TestStationNotice() {
  const { LL } = useI18nContext();
  const replay = useSelector(() => displaySettings$.replay.get());
  const [now, setNow] = useState(() => Date.now());
  const running = replay !== null && !replay.info.paused;
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), REPLAY_DATE_EVERY_MS);
    return () => clearInterval(timer);
  }, [running, replay]);
  const text = !replay
    ? LL.notice.testStation()
    : replay.info.paused
      ? LL.notice.testStationReplayPaused({ date: replayDateAt(replay.info, replay.receivedAt, now) })
      : LL.notice.testStationReplay({ date: replayDateAt(replay.info, replay.receivedAt, now) });
  return (
    <div className="notice-strip" role="note" data-testid="test-station-notice">
      {text}
    </div>
  );
}
