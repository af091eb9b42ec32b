import { FakeScheduler } from '../time/testing/fake-scheduler';
import { HeapPacer, processHeap } from './heap-pacer';

const MiB = 1 << 20;

/**
 * Steps, two seconds apart (the pacer's check): the heap in use at the step (MiB), whether a
 * full collection ends just before it (`gc`), and whether the step's check prompts one.
 */
type Step = { used: number; gc?: boolean; prompts: boolean };

const cases: [string, number, Step[]][] = [
  [
    'prompts once the heap has grown by a quarter and 8 MiB over the start',
    100,
    [
      { used: 120, prompts: false },
      { used: 133, prompts: false },
      { used: 134, prompts: true },
    ],
  ],
  [
    'waits for the prompted collection to end before prompting again',
    100,
    [
      { used: 140, prompts: true },
      { used: 160, prompts: false },
      { used: 90, gc: true, prompts: false },
      { used: 121, prompts: true },
    ],
  ],
  [
    "measures growth from what V8's own full collections leave",
    100,
    [
      { used: 60, gc: true, prompts: false },
      { used: 90, prompts: true },
    ],
  ],
  [
    'gives a prompt up when no collection is seen to end within 30 s',
    10,
    [
      { used: 40, prompts: true },
      ...Array.from({ length: 14 }, () => ({ used: 40, prompts: false })),
      { used: 40, prompts: true },
    ],
  ],
];

describe('HeapPacer', () => {
  it.each(cases)('%s', async (_name, start, steps) => {
    const scheduler = new FakeScheduler(0);
    let used = start * MiB;
    let collected: (() => void) | undefined;
    let prompts = 0;
    const pacer = new HeapPacer({
      clock: scheduler,
      scheduler,
      usedHeapBytes: () => used,
      promptCollection: () => prompts++,
      onFullCollection: (listener) => {
        collected = listener;
        return () => (collected = undefined);
      },
    });
    pacer.start();
    const seen: boolean[] = [];
    for (const step of steps) {
      used = step.used * MiB;
      if (step.gc) collected?.();
      const before = prompts;
      await scheduler.advance(2000);
      seen.push(prompts > before);
    }
    expect(seen).toEqual(steps.map((s) => s.prompts));
    pacer.stop();
    expect([collected, scheduler.pending]).toEqual([undefined, 0]);
  });

  it("starts a full collection of this process's heap, and hears of its end", async () => {
    const heap = processHeap();
    const ended = new Promise<void>((resolve) => {
      const stop = heap.onFullCollection(() => {
        stop();
        resolve();
      });
    });
    heap.promptCollection();
    await ended;
    expect(heap.usedHeapBytes()).toBeGreaterThan(0);
  });
});
