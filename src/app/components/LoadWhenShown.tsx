import { useEffect, useState, type ComponentType } from 'react';

interface LoadWhenShownProps {
  /** Whether the component is wanted on screen now; its code loads the first time this is true. */
  shown: boolean;
  load: () => Promise<ComponentType>;
  /** A failed load (offline before the service worker has stored that chunk); the next show tries again. */
  onFailed?: () => void;
}

/**
 * Something that is not on screen at start (a sheet, a prompt), whose code loads the first time it is shown
 * instead of with the shell: it stays out of the first visit's JavaScript (README, the /home budget). Once
 * loaded it stays mounted and shows or hides itself, as it would have if imported statically; it overlays
 * the page, so the short wait for its code moves nothing.
 */
export function LoadWhenShown({ shown, load, onFailed }: LoadWhenShownProps) {
  const [Loaded, setLoaded] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!shown || Loaded) return;
    let current = true;
    load().then(
      (component) => {
        if (current) setLoaded(() => component);
      },
      () => {
        if (current) onFailed?.();
      },
    );
    return () => {
      current = false;
    };
  }, [shown, Loaded, load, onFailed]);
  return Loaded ? <Loaded /> : null;
}
