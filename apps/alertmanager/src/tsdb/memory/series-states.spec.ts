import { SeriesStates } from './series-states';

describe('SeriesStates', () => {
  it('starts each id as a series with no samples, and keeps earlier ids as the arrays grow', () => {
    const states = new SeriesStates();
    const ids = [0, 1023, 1024, 5000, 70_000];
    for (const id of ids) {
      states.reset(id);
      states.lastT[id] = id * 15_000;
      states.lastV[id] = id + 0.5;
      states.head[id] = id;
      states.count[id] = id + 1;
    }
    expect(
      ids.map((id) => [states.lastT[id], states.lastV[id], states.head[id], states.count[id]]),
    ).toEqual(ids.map((id) => [id * 15_000, id + 0.5, id, id + 1]));
    states.reset(1024);
    expect([
      states.lastT[1024],
      states.lastV[1024],
      states.lastStale[1024],
      states.coldMaxT[1024],
      states.head[1024],
      states.count[1024],
      states.oldest[1024],
      states.ring[1024],
    ]).toEqual([-Infinity, NaN, 0, -Infinity, -1, 0, -1, -1]);
  });
});
