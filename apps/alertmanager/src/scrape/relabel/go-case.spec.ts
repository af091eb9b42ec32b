import { goToLower, goToUpper } from './go-case';

describe("Go's case mapping", () => {
  it.each([
    ['ASCII Text 123', 'ascii text 123'],
    ['ÀÉÎ', 'àéî'],
    ['İstanbul', 'istanbul'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['Ǆ ǅ', 'ǆ ǆ'],
    ['𐐀', '𐐨'],
  ])('lowercases %j as %j', (text, lower) => {
    expect(goToLower(text)).toBe(lower);
  });

  it.each([
    ['ascii text 123', 'ASCII TEXT 123'],
    ['àéî', 'ÀÉÎ'],
    ['straße', 'STRAßE'],
    ['ﬁne', 'ﬁNE'],
    ['ᾳ ᾀ ᾈ ῳ', 'ᾼ ᾈ ᾈ ῼ'],
    ['ǆ ǅ ı ſ', 'Ǆ Ǆ I S'],
    ['𐐨', '𐐀'],
  ])('uppercases %j as %j', (text, upper) => {
    expect(goToUpper(text)).toBe(upper);
  });
});
