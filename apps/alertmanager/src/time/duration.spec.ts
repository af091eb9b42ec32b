import { formatDuration, parseDuration } from './duration';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['0s', 0],
    ['250ms', 250],
    ['30s', 30 * S],
    ['5m', 5 * M],
    ['4h', 4 * H],
    ['1h30m', H + 30 * M],
    ['1d', D],
    ['1w', 7 * D],
    ['1y', 365 * D],
    ['1y2w3d4h5m6s7ms', 365 * D + 14 * D + 3 * D + 4 * H + 5 * M + 6 * S + 7],
  ])('parses %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['5x', 'not a valid duration string: "5x"'],
    ['', 'empty duration string'],
    ['m', 'not a valid duration string: "m"'],
    ['5', 'not a valid duration string: "5"'],
    ['1m1h', 'not a valid duration string: "1m1h"'],
    ['1s1s', 'not a valid duration string: "1s1s"'],
    ['-5m', 'not a valid duration string: "-5m"'],
    ['1.5h', 'not a valid duration string: "1.5h"'],
    [' 5m', 'not a valid duration string: " 5m"'],
    ['300y', 'duration out of range'],
  ])('rejects %j', (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [250, '250ms'],
    [30 * S, '30s'],
    [5 * M, '5m'],
    [H + 30 * M, '1h30m'],
    [4 * H, '4h'],
    [D, '1d'],
    [7 * D, '1w'],
    [8 * D, '8d'],
    [90 * D, '90d'],
    [365 * D, '1y'],
    [M + 500, '1m500ms'],
    [-5 * M, '-5m'],
  ])('formats %d as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each(['30s', '5m', '1h30m', '4h', '1w', '1y', '8d', '1d2h3m4s5ms'])(
    'round-trips %s',
    (text) => {
      expect(formatDuration(parseDuration(text))).toBe(text);
    },
  );
});
