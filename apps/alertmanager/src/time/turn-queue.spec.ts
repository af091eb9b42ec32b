import { TurnQueue } from './turn-queue';

describe('TurnQueue', () => {
  it('lets waiters go in order, each in a turn of the event loop of its own', async () => {
    const turns = new TurnQueue();
    // Counts the turns of the event loop (one immediate per turn).
    let turn = 0;
    let spinning = true;
    const spin = () => {
      turn++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const seen: [number, number][] = [];
    await Promise.all([1, 2, 3].map((n) => turns.take().then(() => seen.push([n, turn]))));
    spinning = false;
    expect(seen.map(([n]) => n)).toEqual([1, 2, 3]);
    expect(seen[1][1]).toBeGreaterThan(seen[0][1]);
    expect(seen[2][1]).toBeGreaterThan(seen[1][1]);
  });
});
