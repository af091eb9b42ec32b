import { FakeScheduler } from './testing/fake-scheduler';
import { realScheduler, sleeperFor } from './scheduler';

describe('FakeScheduler', () => {
  it('runs due timers in time order, ties in creation order, and moves the clock', async () => {
    const s = new FakeScheduler(1000);
    const seen: string[] = [];
    s.set(1300, () => seen.push(`b@${s.now()}`));
    s.set(1100, () => seen.push(`a@${s.now()}`));
    s.set(1300, () => seen.push(`c@${s.now()}`));
    const cleared = s.set(1200, () => seen.push('cleared'));
    s.clear(cleared);
    s.set(5000, () => seen.push('later'));
    await s.advance(300);
    expect(seen).toEqual(['a@1100', 'b@1300', 'c@1300']);
    expect(s.now()).toBe(1300);
    expect(s.pending).toBe(1);
  });

  it('runs timers that due timers set within the advanced span', async () => {
    const s = new FakeScheduler(0);
    const seen: number[] = [];
    const every100 = () =>
      s.set(s.now() + 100, () => {
        seen.push(s.now());
        every100();
      });
    every100();
    await s.advance(350);
    expect(seen).toEqual([100, 200, 300]);
  });
});

describe('sleeperFor', () => {
  it('resolves at the time, or at once when aborted', async () => {
    const s = new FakeScheduler(0);
    const sleep = sleeperFor(s);
    let done = false;
    void sleep(500, new AbortController().signal).then(() => (done = true));
    await s.advance(499);
    expect(done).toBe(false);
    await s.advance(1);
    expect(done).toBe(true);
    const controller = new AbortController();
    const aborted = sleep(10_000, controller.signal);
    controller.abort();
    await aborted;
    expect(s.pending).toBe(0);
  });
});

describe('realScheduler', () => {
  it('can cancel a timer, including one beyond the 32-bit timeout range', () => {
    const s = realScheduler({ now: () => 0 });
    const fn = jest.fn();
    const far = s.set(2 ** 33, fn);
    const near = s.set(0, fn);
    s.clear(far);
    s.clear(near);
    expect(fn).not.toHaveBeenCalled();
  });
});
