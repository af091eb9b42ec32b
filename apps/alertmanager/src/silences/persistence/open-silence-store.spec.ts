import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFrames } from '../../storage';
import { recordingLogger, type LoggedLine } from '../../logging/testing/recording-logger';
import { HOUR, silenceInput, T0 } from '../testing/silence-input';
import { openSilenceStore } from './open-silence-store';

let dir: string;
let lines: LoggedLine[];
const open = (retentionMs = 5 * HOUR) =>
  openSilenceStore({
    dir,
    retentionMs,
    limits: { maxSilences: 0, maxSilenceSizeBytes: 0 },
    logger: recordingLogger(lines),
  });
const snapshotOf = (store: { list(): Iterable<unknown> }) =>
  JSON.stringify(
    [...store.list()].sort((a, b) =>
      (a as { id: string }).id < (b as { id: string }).id ? -1 : 1,
    ),
  );

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'silences-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('openSilenceStore', () => {
  it('has a create on disk before it resolves, without closing', async () => {
    const silences = await open();
    const id = await silences.store.set(silenceInput('a="1"'), T0);
    const read = readFrames(await readFile(join(dir, 'silences-0.log')));
    expect(read.problem).toBeUndefined();
    expect(read.records.map(String).join()).toContain(id);
    await silences.close();
  });

  it('brings back creates, updates and expiries after a restart, in the same states', async () => {
    const first = await open();
    const a = await first.store.set(silenceInput('a="1"'), T0);
    const b = await first.store.set(
      silenceInput('b=~"x.*"', { startsAt: T0 + HOUR, endsAt: T0 + 2 * HOUR }),
      T0,
    );
    await first.store.set(
      { ...silenceInput('a="1"'), id: a, comment: 'longer', endsAt: T0 + 3 * HOUR },
      T0 + 1,
    );
    await first.store.expire(b, T0 + 2);
    const before = snapshotOf(first.store);
    await first.close();

    const second = await open();
    expect(snapshotOf(second.store)).toBe(before);
    expect(second.store.mutedBy({ a: '1' }, T0 + 10)).toEqual([a]);
    await second.close();
  });

  it('reports a torn tail, starts with the intact silences and keeps writing after them', async () => {
    const first = await open();
    const kept = await first.store.set(silenceInput('a="1"'), T0);
    // Simulate a crash: leave the log as is (no close, no snapshot) and tear its last record.
    await appendFile(join(dir, 'silences-0.log'), Buffer.from([40, 0, 0, 0, 1, 2, 3, 4, 5]));
    const second = await open();
    expect(second.recovery.problem).toBe('record cut short');
    expect(lines.find((l) => l.level === 'warn')?.msg).toBe(
      'Ignoring a torn or corrupt tail of the silences',
    );
    expect(second.store.get(kept)).toBeDefined();
    const added = await second.store.set(silenceInput('a="2"'), T0);
    await second.close();
    const third = await open();
    expect(third.recovery.problem).toBeUndefined();
    expect([third.store.get(kept), third.store.get(added)].every(Boolean)).toBe(true);
    await third.close();
  });

  it('reports a corrupt snapshot record and keeps the records before it', async () => {
    const first = await open();
    for (let i = 0; i < 1500; i++) await first.store.set(silenceInput(`a="${i}"`), T0);
    await first.close();
    const file = join(dir, 'silences.snapshot');
    const data = await readFile(file);
    // The snapshot holds a header and chunks of 1,000 silences: break a byte of the last chunk.
    data[data.length - 10] ^= 0xff;
    await writeFile(file, data);
    const second = await open();
    expect(second.recovery.problem).toBe('checksum mismatch');
    expect(second.store.size).toBe(1000);
    await second.close();
  });

  it('collects expired silences at maintenance and writes a snapshot without them', async () => {
    const silences = await open(HOUR);
    const gone = await silences.store.set(silenceInput('a="1"'), T0);
    const stays = await silences.store.set(silenceInput('a="2"', { endsAt: T0 + 10 * HOUR }), T0);
    await silences.maintenance(T0 + 2 * HOUR);
    expect(silences.store.get(gone)).toBeUndefined();
    expect((await readdir(dir)).sort()).toEqual(['silences-1.log', 'silences.snapshot']);
    await silences.store.set(silenceInput('a="3"', { endsAt: T0 + 10 * HOUR }), T0 + 2 * HOUR);
    await silences.close();
    const again = await open(HOUR);
    expect(again.store.get(gone)).toBeUndefined();
    expect(again.store.get(stays)).toBeDefined();
    expect(again.store.size).toBe(2);
    await again.close();
  });
});
