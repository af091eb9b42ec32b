import { mkdtemp, rm } from 'node:fs/promises';
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
