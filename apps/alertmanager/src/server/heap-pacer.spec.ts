import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { HeapPacer } from './heap-pacer';

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

  it("starts a full collection of a process's heap, hears of its end, and prints no warning", () => {
    // In a process of its own: Node's experimental warning goes to the real process, which a
    // test's \`process\` is not. The file needs nothing but Node's modules once its types are gone.
    const dir = mkdtempSync(join(tmpdir(), 'heap-pacer-'));
    try {
      const { code } = transformFileSync(join(__dirname, 'heap-pacer.ts'), {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      writeFileSync(join(dir, 'heap-pacer.js'), code);
      const script = [
        "const { processHeap } = require('./heap-pacer.js');",
        'const heap = processHeap();',
        // Nothing else keeps the process alive while the collection runs.
        'const alive = setTimeout(() => process.exit(2), 20000);',
        'const stop = heap.onFullCollection(() => {',
        "  stop(); clearTimeout(alive); console.log('collected', heap.usedHeapBytes() > 0);",
        '});',
        'heap.promptCollection();',
      ].join('\n');
      const child = spawnSync(process.execPath, ['-e', script], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ stdout: child.stdout, stderr: child.stderr, status: child.status }).toEqual({
        stdout: 'collected true\n',
        stderr: '',
        status: 0,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
