import { ChunkSegments, refOffset, refSegment, SEGMENT_BYTES } from './chunk-segments';
import { HeadSlots } from './head-slots';
import { ReadEpochs } from './read-epochs';
import { SealedChunks } from './sealed-chunks';

describe('SealedChunks', () => {
  const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

  it('copies chunks one after another at 8-byte boundaries, and reads them back', () => {
    const segments = new ChunkSegments();
    const sealed = new SealedChunks(segments, () => undefined);
    const a = sealed.store(bytes(13, 1));
    const b = sealed.store(bytes(5, 2));
    expect([refSegment(a), refOffset(a)]).toEqual([0, 0]);
    expect([refSegment(b), refOffset(b)]).toEqual([0, 16]);
    expect([...segments.at(a, 13)]).toEqual(Array(13).fill(1));
    expect([...segments.at(b, 5)]).toEqual(Array(5).fill(2));
  });

  it('moves to a new segment when one is full, and hands back an emptied one for reuse', () => {
    const segments = new ChunkSegments();
    const emptied: number[] = [];
    const sealed = new SealedChunks(segments, (segment) => emptied.push(segment));
    const chunk = SEGMENT_BYTES / 4;
    const first = [0, 1, 2, 3].map((i) => sealed.store(bytes(chunk, i)));
    const next = sealed.store(bytes(8, 9));
    expect(first.map(refSegment)).toEqual([0, 0, 0, 0]);
    expect(refSegment(next)).toBe(1);
    for (const ref of first.slice(0, 3)) sealed.release(ref);
    expect(emptied).toEqual([]);
    sealed.release(first[3]);
    expect(emptied).toEqual([0]);
    sealed.recycle(0);
    // Segment 1 fills up; the next chunks go to the recycled segment 0, from its start.
    for (let i = 0; i < 3; i++) sealed.store(bytes(chunk, 7));
    const reused = sealed.store(bytes(chunk, 8));
    expect([refSegment(reused), refOffset(reused)]).toEqual([0, 0]);
    expect(segments.count).toBe(2);
  });
});

describe('HeadSlots', () => {
  it.each([
    [1, 64],
    [64, 64],
    [65, 128],
    [300, 512],
    [4_500, 8192],
  ])('gives a slot of the next size for %i bytes (%i)', (needed, size) => {
    expect(HeadSlots.sizeFor(needed)).toBe(size);
  });

  it('reuses a released slot of the same size, zeroed', () => {
    const segments = new ChunkSegments();
    const slots = new HeadSlots(segments);
    const a = slots.allocate(64);
    segments.at(a.ref, a.size).fill(0xff);
    const b = slots.allocate(64);
    expect(b.ref).not.toBe(a.ref);
    slots.release(a.ref, a.size);
    const c = slots.allocate(10);
    expect(c.ref).toBe(a.ref);
    expect([...segments.at(c.ref, c.size)].every((x) => x === 0)).toBe(true);
  });

  it('refuses a chunk larger than any slot', () => {
    expect(() => HeadSlots.sizeFor(10_000)).toThrow('chunk of 10000 bytes is larger than any slot');
  });
});

describe('ReadEpochs', () => {
  it('runs a release once every read running at its retirement has ended, and no later read holds it', () => {
    const epochs = new ReadEpochs();
    const released: string[] = [];
    epochs.retire(() => released.push('no reads: at once'));
    const first = epochs.begin();
    epochs.retire(() => released.push('after first'));
    const second = epochs.begin();
    epochs.retire(() => released.push('after both'));
    expect(released).toEqual(['no reads: at once']);
    epochs.end(second);
    expect(released).toEqual(['no reads: at once']);
    epochs.end(first);
    expect(released).toEqual(['no reads: at once', 'after first', 'after both']);
    const third = epochs.begin();
    epochs.end(third);
    expect(epochs.pending).toBe(0);
  });

  it('keeps what a later read could not reach waiting only for the earlier reads', () => {
    const epochs = new ReadEpochs();
    const released: string[] = [];
    const early = epochs.begin();
    epochs.retire(() => released.push('x'));
    const late = epochs.begin();
    epochs.end(early);
    // The late read began after x was unlinked: x does not wait for it.
    expect(released).toEqual(['x']);
    epochs.end(late);
  });
});
