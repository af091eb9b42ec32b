import { Labels } from './labels';
import { xxhash64 } from './xxhash64';

describe('xxhash64', () => {
  it.each([
    ['', 'ef46db3751d8e999'],
    ['a', 'd24ec4f1a98c6e5b'],
    ['abc', '44bc2cf5ad770999'],
    ['Nobody inspects the spammish repetition', 'fbcea83c8a378bf1'],
    ['xxhash64 of a string that is longer than thirty two bytes for sure', '271109efa349c6b1'],
  ])('of %j is %s', (text, hex) => {
    expect(xxhash64(Buffer.from(text)).toString(16).padStart(16, '0')).toBe(hex);
  });

  it("hashes a label set as Prometheus's labels.Hash: name 0xff value 0xff ...", () => {
    const bytes = Buffer.concat([
      Buffer.from('a'),
      Buffer.from([0xff]),
      Buffer.from('b'),
      Buffer.from([0xff]),
    ]);
    expect(Labels.fromRecord({ a: 'b' }).hash()).toBe(xxhash64(bytes));
  });
});
