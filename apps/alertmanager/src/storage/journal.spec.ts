import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { openJournal } from './open-journal';
import { decodePutDelete, encodePutDelete, type TupleCodec } from './put-delete-codec';

interface Item {
  key: string;
  value: number;
}
const CODEC: TupleCodec<Item, [string, number]> = {
  toTuple: (i) => [i.key, i.value],
  fromTuple([key, value]) {
    if (typeof key !== 'string' || typeof value !== 'number') throw new Error('not an item');
    return { key, value };
  },
};

let dir: string;
let lines: LoggedLine[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Opens the journal `items` under `dir`, replaying into a map. */
async function open() {
  const state = new Map<string, number>();
  const opened = await openJournal({
    dir,
    name: 'items',
    what: 'item store',
    codec: CODEC,
    restore: (i) => state.set(i.key, i.value),
    forget: (k) => state.delete(k),
    syncIntervalMs: 10,
    logger: recordingLogger(lines),
  });
  return { ...opened, state };
}

describe('the put/delete record codec', () => {
  it.each([
    ['puts', { put: [{ key: 'a', value: 1 }] }, '{"p":[["a",1]]}'],
    ['deletes', { del: ['a', 'b'] }, '{"d":["a","b"]}'],
    ['an empty put', { put: [] }, '{"p":[]}'],
  ])('writes %s as positional tuples and reads them back', (_name, record, text) => {
    const payload = encodePutDelete(record, CODEC);
    expect(payload.toString()).toBe(text);
    expect(decodePutDelete(payload, CODEC)).toEqual(record);
  });

  it.each([
    ['not JSON', '{"p":'],
    ['neither puts nor deletes', '{"x":[]}'],
    ['deletes that are not keys', '{"d":[1]}'],
    ['a tuple the codec refuses', '{"p":[[1,"a"]]}'],
  ])('refuses a payload that is %s', (_name, text) => {
    expect(() => decodePutDelete(Buffer.from(text), CODEC)).toThrow();
  });
});

describe('Journal', () => {
  it('brings back puts and deletes in order after a restart without a snapshot', async () => {
    const first = await open();
    await first.journal.commit([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
    ]);
    first.journal.forget(['a']);
    await first.journal.commit([{ key: 'b', value: 3 }]);
    // No close: as after a crash once the commit resolved.
    const second = await open();
    expect([...second.state]).toEqual([['b', 3]]);
    expect(second.recovery).toMatchObject({ generation: 0, logRecords: 3, ignoredBytes: 0 });
    await second.journal.close();
    await first.journal.close();
  });

  it('compacts into the next generation, keeping later changes in the new log only', async () => {
    const first = await open();
    await first.journal.commit([{ key: 'a', value: 1 }]);
    const bytes = await first.journal.compact(() => [{ key: 'a', value: 1 }][Symbol.iterator]());
    expect(first.journal.snapshotBytes).toBe(bytes);
    expect(first.journal.logBytes).toBe(0);
    await first.journal.commit([{ key: 'c', value: 5 }]);
    await first.journal.close();
    expect((await readdir(dir)).sort()).toEqual(['items-1.log', 'items.snapshot']);
    const second = await open();
    expect(second.recovery).toMatchObject({ generation: 1, snapshotItems: 1, logRecords: 1 });
    expect([...second.state].sort()).toEqual([
      ['a', 1],
      ['c', 5],
    ]);
    await second.journal.close();
  });

  it('reports a torn tail under its name, cuts it off and appends after the last sound record', async () => {
    const first = await open();
    await first.journal.commit([{ key: 'a', value: 1 }]);
    await first.journal.close();
    await appendFile(join(dir, 'items-0.log'), Buffer.from([9, 0, 0, 0, 1, 2, 3, 4, 5]));
    const second = await open();
    expect(second.recovery.problem).toBe('record cut short');
    expect(lines.find((l) => l.level === 'warn')?.msg).toBe(
      'Ignoring a torn or corrupt tail of the item store',
    );
    await second.journal.commit([{ key: 'b', value: 2 }]);
    await second.journal.close();
    const third = await open();
    expect(third.recovery.problem).toBeUndefined();
    expect([...third.state]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect((await readFile(join(dir, 'items-0.log'))).length).toBe(third.recovery.logBytes);
    await third.journal.close();
  });
});
