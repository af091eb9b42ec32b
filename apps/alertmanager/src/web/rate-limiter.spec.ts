import { RateLimiter } from './rate-limiter';

describe('rate limiter', () => {
  it('lets a full burst through, then one request per interval', () => {
    const clock = { t: 0, now: () => clock.t };
    const limiter = new RateLimiter(2, 1000, clock);
    expect([limiter.allow(), limiter.allow(), limiter.allow()]).toEqual([true, true, false]);
    clock.t = 999;
    expect(limiter.allow()).toBe(false);
    clock.t = 1001;
    expect([limiter.allow(), limiter.allow()]).toEqual([true, false]);
    // Idle time refills up to the burst, never beyond.
    clock.t = 60_000;
    expect([limiter.allow(), limiter.allow(), limiter.allow()]).toEqual([true, true, false]);
  });

  it('lets nothing through with a burst of 0', () => {
    const limiter = new RateLimiter(0, 10, { now: () => 1e9 });
    expect(limiter.allow()).toBe(false);
  });
});
