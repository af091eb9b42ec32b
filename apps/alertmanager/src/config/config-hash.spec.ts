import { configHash } from './config-hash';

describe('configHash', () => {
  // Expected values computed independently: md5 digest bytes 0..5, little-endian.
  it.each([
    ['', 617830161876],
    ['route:\n  receiver: a\nreceivers:\n  - name: a\n', 40428214146070],
  ])('hashes %j', (text, expected) => {
    expect(configHash(text)).toBe(expected);
    expect(configHash(Buffer.from(text))).toBe(expected);
  });

  it('stays within the exact range of a float64', () => {
    expect(Number.isSafeInteger(configHash('anything'))).toBe(true);
  });
});
