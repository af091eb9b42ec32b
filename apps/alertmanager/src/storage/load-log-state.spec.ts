import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logging/logger';
import { loadLogState, type LogReplay } from './load-log-state';
import { LogFiles } from './log-files';
import { frame } from './record-framing';

const warnings: unknown[] = [];
const logger = {
  debug() {},
  info() {},
  warn: (...args: unknown[]) => warnings.push(args),
  error() {},
  with: () => logger,
} as unknown as Logger;

const header = frame(Buffer.from(JSON.stringify({ generation: 3 })));
const record = (text: string) => frame(Buffer.from(text));

describe('loadLogState with records prepared off the event loop', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'load-log-state-'));
    warnings.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Loads a snapshot of `records`; what was applied, in order, and the recovery. */
  async function load(records: string[], prepare: (text: string) => Promise<string>) {
    const files = new LogFiles(dir, 'test');
    await files.writeSnapshot(Buffer.concat([header, ...records.map(record)]));
    const applied: string[] = [];
    const replay: LogReplay = {
      what: 'test store',
      prepareSnapshot: async (payload) => Buffer.from(await prepare(payload.toString())),
      applySnapshot: (payload) => {
        applied.push(payload.toString());
        return 1;
      },
      applyLog: () => undefined,
    };
    return { applied, recovery: await loadLogState(files, replay, logger) };
  }

  it('applies records in their order, whatever order their preparation ends in', async () => {
    const delays: Record<string, number> = { a: 30, b: 0, c: 10 };
    const { applied, recovery } = await load(['a', 'b', 'c'], async (text) => {
      await new Promise((r) => setTimeout(r, delays[text]));
      return text.toUpperCase();
    });
    expect(applied).toEqual(['A', 'B', 'C']);
    expect([recovery.generation, recovery.snapshotItems, recovery.problem]).toEqual([
      3,
      3,
      undefined,
    ]);
  });

  it('takes a record whose preparation fails as damaged: the ones before it are kept', async () => {
    const { applied, recovery } = await load(['a', 'bad', 'c'], async (text) => {
      if (text === 'bad') throw new Error('invalid stored block lengths');
      return text;
    });
    expect(applied).toEqual(['a']);
    expect(recovery.problem).toBe('undecodable record');
    expect(recovery.ignoredBytes).toBe(2 * 8 + 'bad'.length + 'c'.length);
    expect(warnings).toHaveLength(1);
  });
});

describe('loadLogState over log segments', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'load-log-state-'));
    warnings.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const snapshotOf = (generation: number, ...records: string[]) =>
    Buffer.concat([frame(Buffer.from(JSON.stringify({ generation }))), ...records.map(record)]);
  const segmentOf = (...records: string[]) => Buffer.concat(records.map(record));

  /** Writes `files` (name -> bytes) and loads them; what was applied, in order, and the recovery. */
  async function load(files: Record<string, Buffer>, segmented = true) {
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    const applied: string[] = [];
    const replay: LogReplay = {
      what: 'test store',
      applySnapshot: (payload) => {
        applied.push(`snapshot ${payload.toString()}`);
        return 1;
      },
      applyLog: (payload) => {
        if (payload.toString() === 'undecodable') throw new Error('not a record');
        applied.push(payload.toString());
      },
      beginSegment: (generation) => applied.push(`segment ${generation}`),
    };
    const logFiles = new LogFiles(dir, 'test', { segmented });
    const recovery = await loadLogState(logFiles, replay, logger);
    return { applied, recovery };
  }

  it.each<[string, Record<string, Buffer>, string[], [number, number, number]]>([
    [
      'the snapshot, then every segment from its generation on, oldest first',
      {
        'test.snapshot': snapshotOf(4, 's'),
        'test-3.log': segmentOf('older than the snapshot'),
        'test-4.log': segmentOf('a', 'b'),
        'test-5.log': segmentOf('c'),
        'test-10.log': segmentOf('d'),
      },
      ['snapshot s', 'segment 4', 'a', 'b', 'segment 5', 'c', 'segment 10', 'd'],
      [4, 10, 3],
    ],
    [
      'segments from 0 on without a snapshot',
      { 'test-0.log': segmentOf('a'), 'test-1.log': segmentOf('b') },
      ['segment 0', 'a', 'segment 1', 'b'],
      [0, 1, 2],
    ],
    [
      'a snapshot whose segment is not there yet',
      { 'test.snapshot': snapshotOf(2, 's'), 'test-1.log': segmentOf('a') },
      ['snapshot s'],
      [2, 2, 0],
    ],
  ])('replays %s', async (_, files, applied, [snapshotGeneration, generation, segments]) => {
    const loaded = await load(files);
    expect(loaded.applied).toEqual(applied);
    const { recovery } = loaded;
    expect([recovery.snapshotGeneration, recovery.generation, recovery.segments]).toEqual([
      snapshotGeneration,
      generation,
      segments,
    ]);
    expect(warnings).toEqual([]);
  });

  it("replays a journal's log of the snapshot's generation alone: other files are stale", async () => {
    const files = {
      'test.snapshot': snapshotOf(4, 's'),
      'test-3.log': segmentOf('older'),
      'test-4.log': segmentOf('a'),
      'test-5.log': segmentOf('never written by a journal'),
    };
    const { applied, recovery } = await load(files, false);
    expect(applied).toEqual(['snapshot s', 'segment 4', 'a']);
    expect([recovery.snapshotGeneration, recovery.generation]).toEqual([4, 4]);
    await new LogFiles(dir, 'test').removeStale(4);
    expect((await readdir(dir)).sort()).toEqual(['test-4.log', 'test.snapshot']);
  });

  it('cuts a torn tail off the last segment only', async () => {
    const torn = Buffer.concat([segmentOf('b'), Buffer.from([9, 0, 0, 0, 1])]);
    const { applied, recovery } = await load({
      'test.snapshot': snapshotOf(1, 's'),
      'test-1.log': segmentOf('a'),
      'test-2.log': torn,
    });
    expect(applied).toEqual(['snapshot s', 'segment 1', 'a', 'segment 2', 'b']);
    expect([recovery.ignoredBytes, recovery.problem, recovery.logBytes]).toEqual([
      5,
      'record header cut short',
      torn.length - 5,
    ]);
    expect((await stat(join(dir, 'test-2.log'))).size).toBe(torn.length - 5);
    expect(warnings).toHaveLength(1);
  });

  it('reports a corrupt record in an earlier segment, leaves that file, and replays the next', async () => {
    const corrupt = segmentOf('a', 'undecodable', 'lost');
    const { applied, recovery } = await load({
      'test-1.log': corrupt,
      'test-2.log': segmentOf('b'),
    });
    expect(applied).toEqual(['segment 1', 'a', 'segment 2', 'b']);
    expect(recovery.problem).toBe('undecodable record');
    expect(recovery.ignoredBytes).toBe(2 * 8 + 'undecodable'.length + 'lost'.length);
    expect((await stat(join(dir, 'test-1.log'))).size).toBe(corrupt.length);
    expect(warnings).toEqual([
      [
        'Ignoring the corrupt rest of a log segment of the test store',
        expect.objectContaining({ reason: 'undecodable record' }),
      ],
    ]);
  });

  it('removes the segments older than the snapshot and an unfinished snapshot as stale', async () => {
    await load({
      'test.snapshot': snapshotOf(3, 's'),
      'test.snapshot.tmp': snapshotOf(4, 'unfinished'),
      'test-2.log': segmentOf('a'),
      'test-3.log': segmentOf('b'),
      'test-4.log': segmentOf('c'),
    });
    await new LogFiles(dir, 'test', { segmented: true }).removeStale(3);
    expect((await readdir(dir)).sort()).toEqual(['test-3.log', 'test-4.log', 'test.snapshot']);
  });
});
