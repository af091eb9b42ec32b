import { SeriesStates, slot } from './series-states';

describe('SeriesStates', () => {
  it('starts each id as a series with no samples, on pages that keep earlier ids as ids grow', () => {
    const states = new SeriesStates();
    const ids = [0, 4095, 4096, 5000, 70_000];
    for (const id of ids) {
      states.reset(id);
      const page = states.at(id);
      page.lastT[slot(id)] = id * 15_000;
      page.lastV[slot(id)] = id + 0.5;
      page.head[slot(id)] = id;
      page.count[slot(id)] = id + 1;
    }
    const read = (id: number) => {
      const page = states.at(id);
      const i = slot(id);
      return [page.lastT[i], page.lastV[i], page.head[i], page.count[i]];
    };
    expect(ids.map(read)).toEqual(ids.map((id) => [id * 15_000, id + 0.5, id, id + 1]));
    // Ids on one page share its columns; a page is never replaced by a later one.
    expect(states.at(4095)).not.toBe(states.at(4096));
    expect(states.at(4096)).toBe(states.at(5000));
    states.reset(4096);
    const page = states.at(4096);
    const i = slot(4096);
    expect([
      page.lastT[i],
      page.lastV[i],
      page.lastStale[i],
      page.coldMaxT[i],
      page.head[i],
      page.count[i],
      page.oldest[i],
      page.ring[i],
    ]).toEqual([-Infinity, NaN, 0, -Infinity, -1, 0, -1, -1]);
    expect(read(5000)).toEqual([5000 * 15_000, 5000.5, 5000, 5001]);
  });
});
