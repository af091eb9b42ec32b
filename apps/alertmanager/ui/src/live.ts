// Live data: a request repeated every few seconds while the page is visible, so the pages follow
// the server without reloading.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

interface Live<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Asks again now (after a change the page made). */
  refresh: () => void;
}

const REFRESH_MS = 5000;

export function useLive<T>(load: () => Promise<T>, deps: unknown[], everyMs = REFRESH_MS): Live<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(load, deps);
  const refresh = useCallback(() => {
    const mine = ++generation.current;
    run().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (mine !== generation.current) return;
        setError(err instanceof Error ? err.message : String(err));
        setLoading(false);
      },
    );
  }, [run]);
  useEffect(() => {
    setLoading(true);
    refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [refresh, everyMs]);
  return { data, error, loading, refresh };
}
