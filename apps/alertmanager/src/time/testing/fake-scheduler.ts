import type { Clock } from '../clock';
import type { Scheduler, TimerHandle } from '../scheduler';

interface FakeTimer extends TimerHandle {
  seq: number;
  fn: () => void;
}

/** Lets pending promise callbacks (pipeline stages, HTTP-free fakes) run to completion. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A fake clock and scheduler for tests: time moves only through {@link FakeScheduler.advance},
 * which runs due timers in time order (ties in creation order), letting the work each one
 * starts settle before the next.
 */
export class FakeScheduler implements Scheduler, Clock {
  private current: number;
  private seq = 0;
  private timers: FakeTimer[] = [];

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  set(at: number, fn: () => void): TimerHandle {
    const timer: FakeTimer = { at: Math.max(at, this.current), seq: this.seq++, fn };
    this.timers.push(timer);
    return timer;
  }

  clear(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t !== handle);
  }

  /** Number of pending timers. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock forward by `ms`, running every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.fn();
      await settle();
    }
    this.current = target;
  }
}
