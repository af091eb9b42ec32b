import type { Clock } from '../time/clock';

/**
 * A token bucket as Go's `rate.NewLimiter(rate.Every(interval), burst)` used by the toolkit's
 * `rate_limit`: it starts full with `burst` tokens, gains one every `intervalMs`, and a request
 * is let through when it can take a whole token. A burst of 0 lets nothing through.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
    private readonly clock: Clock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Takes a token when one is available; false when the request must be refused. */
  allow(): boolean {
    const now = this.clock.now();
    const elapsed = Math.max(now - this.last, 0);
    this.tokens = Math.min(this.burst, this.tokens + elapsed / this.intervalMs);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
