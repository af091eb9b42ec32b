import type { Clock } from './clock';

/** A pending timer; pass it to {@link Scheduler.clear}. */
export interface TimerHandle {
  readonly at: number;
}

/**
 * Runs callbacks at times of the injected clock. Group timers, flush deadlines and retry waits
 * all go through it, so tests drive them with {@link FakeScheduler} instead of sleeping.
 */
export interface Scheduler {
  /** Calls `fn` once when the clock reaches `at` (as soon as possible if `at` has passed). */
  set(at: number, fn: () => void): TimerHandle;
  /** Cancels a timer; clearing a fired or cleared timer does nothing. */
  clear(handle: TimerHandle): void;
}

/** Injection token for {@link Scheduler}. */
export const Scheduler = Symbol('Scheduler');

interface RealHandle extends TimerHandle {
  timeout: NodeJS.Timeout | undefined;
}

/** Node fires longer timeouts at once (32-bit overflow), so long waits are re-armed in steps. */
const MAX_TIMEOUT = 2 ** 31 - 1;

/** A scheduler on Node's timers; they do not keep the process alive. */
export function realScheduler(clock: Clock): Scheduler {
  return {
    set(at, fn) {
      const handle: RealHandle = { at, timeout: undefined };
      const arm = () => {
        const delay = Math.max(0, at - clock.now());
        handle.timeout = setTimeout(delay > MAX_TIMEOUT ? arm : fn, Math.min(delay, MAX_TIMEOUT));
        handle.timeout.unref();
      };
      arm();
      return handle;
    },
    clear(handle) {
      clearTimeout((handle as RealHandle).timeout);
    },
  };
}

/**
 * A sleep for the notification pipeline: resolves when the scheduler reaches `until`, or at once
 * when `signal` aborts.
 */
export function sleeperFor(scheduler: Scheduler) {
  return (until: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const onAbort = () => {
        scheduler.clear(handle);
        resolve();
      };
      const handle = scheduler.set(until, () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
}
