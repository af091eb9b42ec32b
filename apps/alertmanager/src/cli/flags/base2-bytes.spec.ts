import { parseBase2Bytes } from './base2-bytes';

describe('parseBase2Bytes', () => {
  it.each([
    ['512MB', 512 * 2 ** 20],
    ['1KiB', 1024],
    ['1KB', 1024],
    ['1.5GB', 1.5 * 2 ** 30],
    ['1GB512MB', 2 ** 30 + 512 * 2 ** 20],
    ['10B', 10],
    ['0', 0],
    ['-1MB', -(2 ** 20)],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseBase2Bytes(text)).toBe(bytes);
  });

  // Prometheus's words, e.g. `prometheus --storage.tsdb.retention.size=12XB`.
  it.each([
    ['12XB', 'units: unknown unit XB in 12XB'],
    ['512', 'units: unknown unit  in 512'],
    ['1kb', 'units: unknown unit kb in 1kb'],
    ['', 'units: invalid '],
    ['MB', 'units: invalid MB'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseBase2Bytes(text)).toThrow(message);
  });
});
