import { parseGoDuration } from './go-duration';

describe('Go durations', () => {
  it.each([
    ['0', 0],
    ['1s', 1000],
    ['1.5s', 1500],
    ['300ms', 300],
    ['1h30m', 5_400_000],
    ['2us', 0.002],
    ['1000000ns', 1],
    ['-1m', -60_000],
    ['+.5h', 1_800_000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBeCloseTo(ms, 9);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['.s', 'time: invalid duration ".s"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['5m3', 'time: missing unit in duration "5m3"'],
  ])('refuses %j', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});
