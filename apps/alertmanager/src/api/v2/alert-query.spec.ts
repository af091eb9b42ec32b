import { parseMatcher } from '../../labels';
import { matchesFilter, parseAlertQuery } from './alert-query';

describe('matchesFilter', () => {
  it.each([
    ['a="1"', { a: '1' }, true],
    ['a="1"', { a: '2' }, false],
    ['a=""', {}, true],
    ['a=""', { a: 'x' }, false],
    ['a=~""', {}, true],
    ['a=~""', { a: 'x' }, false],
    ['a!=""', { a: 'x' }, true],
    ['a!=""', {}, false],
    ['a!~""', { a: 'x' }, true],
    ['a!~""', {}, false],
    ['a=~".*"', {}, true],
    ['a=~"x|y"', { a: 'y' }, true],
    ['a=~"x"', { a: 'xx' }, false],
    ['a!="1"', {}, true],
    ['a!~"1"', { a: '1' }, false],
  ])('%s on %j -> %s', (matcher, labels, expected) => {
    expect(matchesFilter([parseMatcher(matcher)], labels)).toBe(expected);
  });
});

describe('parseAlertQuery', () => {
  it.each([
    ['', { active: true, silenced: true, inhibited: true, unprocessed: true }],
    ['active=false&silenced=0', { active: false, silenced: false, inhibited: true }],
    ['active=maybe&inhibited=yes', { active: false, inhibited: true }],
    ['active=TRUE&silenced=on', { active: true, silenced: true }],
  ])('booleans in %j', (qs, expected) => {
    expect(parseAlertQuery(new URLSearchParams(qs))).toMatchObject(expected);
  });

  it('collects repeated filters and anchors the receiver regex', () => {
    const q = parseAlertQuery(new URLSearchParams('filter=a="1"&filter=b=~"x"&receiver=pag.*'));
    expect(q.matchers.map(String)).toEqual(['a="1"', 'b=~"x"']);
    expect(q.receiver?.test('pager')).toBe(true);
    expect(q.receiver?.test('xpager')).toBe(false);
  });

  it.each([
    ['filter={foo', 'bad matcher format: {foo'],
    ['receiver=[', /^failed to parse receiver param: /],
  ])('rejects %s', (qs, message) => {
    expect(() => parseAlertQuery(new URLSearchParams(qs))).toThrow(message);
  });
});
