import type { SilenceInput } from './silence';
import { SilenceStore } from './silence-store';
import { HOUR, silenceInput, T0 } from './testing/silence-input';

/** Creates `original` at T0, posts `change(stored)` with its id at `at`, and reports what happened. */
async function update(
  original: SilenceInput,
  at: number,
  change: (stored: SilenceInput) => Partial<SilenceInput>,
) {
  const store = new SilenceStore();
  const id = await store.set(original, T0);
  const get = (key: string) => {
    const silence = store.get(key);
    if (!silence) throw new Error(`no silence ${key}`);
    return silence;
  };
  const stored = get(id);
  const newId = await store.set({ ...stored, ...change(stored), id }, at);
  return { sameId: newId === id, old: get(id), current: get(newId), at };
}

const active = silenceInput('a="1"');
const pending = silenceInput('a="1"', { startsAt: T0 + HOUR, endsAt: T0 + 2 * HOUR });

type Change = (stored: SilenceInput) => Partial<SilenceInput>;
const AFTER = T0 + 10;

describe('silence update rules', () => {
  const rows: Array<[string, boolean, SilenceInput, number, Change]> = [
    ['active, new end', true, active, AFTER, (s) => ({ endsAt: s.endsAt + HOUR })],
    [
      'active, new comment and author',
      true,
      active,
      AFTER,
      () => ({ comment: 'c', createdBy: 'b' }),
    ],
    [
      'active, start sent back to the ms',
      true,
      active,
      AFTER,
      (s) => ({ startsAt: s.startsAt + 7 }),
    ],
    [
      'active, start moved by a second',
      false,
      active,
      AFTER,
      (s) => ({ startsAt: s.startsAt + 1000 }),
    ],
    ['active, new matchers', false, active, AFTER, () => silenceInput('a="2"')],
    [
      'active, matchers reordered',
      false,
      silenceInput('a="1",b="2"'),
      AFTER,
      () => silenceInput('b="2",a="1"'),
    ],
    [
      'pending, still pending',
      true,
      pending,
      AFTER,
      (s) => ({ startsAt: s.startsAt + HOUR, endsAt: s.endsAt + HOUR }),
    ],
    ['pending, start moved to the past', false, pending, AFTER, () => ({ startsAt: T0 })],
    ['expired, any change', false, active, T0 + 2 * HOUR, (s) => ({ endsAt: s.endsAt + 2 * HOUR })],
  ];
  it.each(rows)('%s (same id: %p)', async (_, sameId, original, at, change) => {
    const result = await update(original, at, change);
    expect(result.sameId).toBe(sameId);
    if (!sameId) {
      // The old silence ends now (unless it already had), the new one starts no earlier than now.
      expect(result.old.endsAt).toBeLessThanOrEqual(Math.max(at, original.endsAt));
      expect(result.current.startsAt).toBeGreaterThanOrEqual(at);
    }
    expect(result.current.updatedAt).toBe(at);
  });

  it('keeps the stored start of an active silence updated in place', async () => {
    const result = await update(active, T0 + 10, (s) => ({ startsAt: s.startsAt + 7 }));
    expect(result.current.startsAt).toBe(T0);
  });

  it('clamps the start of a new silence to now', async () => {
    const store = new SilenceStore();
    const id = await store.set(silenceInput('a="1"', { startsAt: T0 - HOUR }), T0);
    expect(store.get(id)?.startsAt).toBe(T0);
  });
});

describe('silence expiry', () => {
  it.each<[string, SilenceInput, { startsAt: number; endsAt: number }]>([
    ['an active silence ends now', active, { startsAt: T0, endsAt: T0 + 60_000 }],
    [
      'a pending silence starts and ends now',
      pending,
      { startsAt: T0 + 60_000, endsAt: T0 + 60_000 },
    ],
  ])('%s', async (_, input, expected) => {
    const store = new SilenceStore();
    const id = await store.set(input, T0);
    await store.expire(id, T0 + 60_000);
    expect(store.get(id)).toMatchObject(expected);
  });

  it('leaves an expired silence as it is', async () => {
    const store = new SilenceStore();
    const id = await store.set(active, T0);
    await store.expire(id, T0 + 10);
    const expired = store.get(id);
    await store.expire(id, T0 + 20);
    expect(store.get(id)).toBe(expired);
  });

  it('refuses an unknown id with 404', async () => {
    await expect(new SilenceStore().expire('nope', T0)).rejects.toMatchObject({ status: 404 });
  });

  it('collects silences once they ended the retention ago', async () => {
    const store = new SilenceStore();
    const id = await store.set(active, T0);
    expect(store.gc(T0 + HOUR + 5 * HOUR - 1, 5 * HOUR)).toBe(0);
    expect(store.gc(T0 + HOUR + 5 * HOUR, 5 * HOUR)).toBe(1);
    expect(store.get(id)).toBeUndefined();
  });
});
