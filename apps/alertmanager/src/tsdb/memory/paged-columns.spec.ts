import { PAGE_MASK, PagedColumns } from './paged-columns';

describe('PagedColumns', () => {
  it('adds pages as entries grow, every page before them too, and never replaces one', () => {
    let made = 0;
    const columns = new PagedColumns((n) => {
      made++;
      return { v: new Float64Array(n), n: new Int32Array(n) };
    });
    const page = PAGE_MASK + 1;
    expect([columns.has(0), made]).toEqual([false, 0]);
    const first = columns.pageOf(5);
    first.v[5] = 1.5;
    expect([columns.has(page - 1), columns.has(page), made]).toEqual([true, false, 1]);
    const third = columns.pageOf(2 * page + 7);
    expect([columns.has(page), columns.has(3 * page), made]).toEqual([true, false, 3]);
    expect(columns.pageOf(0)).toBe(first);
    expect(columns.pageOf(2 * page)).toBe(third);
    expect([first.v[5], first.v.length, third.n.length]).toEqual([1.5, page, page]);
  });
});
