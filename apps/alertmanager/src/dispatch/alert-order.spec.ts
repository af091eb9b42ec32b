import { sortAlerts } from './alert-order';
import { labelSetBefore } from '../labels/label-set-format';

const names = (labels: Record<string, string>[]) =>
  sortAlerts(labels.map((l) => ({ labels: l }))).map((a) => JSON.stringify(a.labels));

describe('sortAlerts (upstream AlertSlice order)', () => {
  it('orders by job, then instance, alerts missing the label last', () => {
    expect(
      names([
        { alertname: 'x' },
        { job: 'b', instance: '1' },
        { job: 'a', instance: '2' },
        { job: 'a', instance: '1' },
        { job: 'a' },
        { instance: '0' },
      ]),
    ).toEqual([
      '{"job":"a","instance":"1"}',
      '{"job":"a","instance":"2"}',
      '{"job":"a"}',
      '{"job":"b","instance":"1"}',
      '{"instance":"0"}',
      '{"alertname":"x"}',
    ]);
  });

  it('then by label set: fewer labels first, then values in name order', () => {
    expect(names([{ a: '2' }, { a: '1', b: '1' }, { a: '1' }, { a: '1', c: '0' }])).toEqual([
      '{"a":"1"}',
      '{"a":"2"}',
      '{"a":"1","c":"0"}',
      '{"a":"1","b":"1"}',
    ]);
  });

  it('compares strings in UTF-8 byte order like Go', () => {
    expect(labelSetBefore({ a: '\u{1F600}' }, { a: '\uFFFD' })).toBeGreaterThan(0);
    expect(labelSetBefore({ a: 'B' }, { a: 'a' })).toBeLessThan(0);
    expect(labelSetBefore({ a: 'x' }, { a: 'x' })).toBe(0);
  });
});
