import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../config';
import { escapeMatcherValue } from '../labels';
import { catastrophicCases } from '../re2/testdata/cases';
import { groupKeyOf, groupLabelsFor } from './group-labels';
import {
  buildRouteTree,
  matchRoutes,
  receiversFor,
  walkRoutes,
  type RouteNode,
} from './route-tree';

const file = join(__dirname, 'testdata', 'routing.yml');
const root = buildRouteTree(parseConfig(readFileSync(file, 'utf8'), file).route);

function fromYaml(yaml: string): RouteNode {
  return buildRouteTree(
    parseConfig(`${yaml}\nreceivers: [{name: r}, {name: db}]\n`, 'x.yml').route,
  );
}

describe('matchRoutes', () => {
  it.each([
    ['no child matches: the root', { alertname: 'X' }, ['default']],
    ['child without a matching grandchild', { owner: 'team-A' }, ['team-a']],
    ['first matching grandchild stops', { owner: 'team-A', env: 'testing' }, ['team-a-testing']],
    [
      'continue goes on to the next sibling',
      { owner: 'team-A', env: 'production', job: 'j' },
      ['team-a-prod-1', 'team-a-prod-2'],
    ],
    ['continue with no later match', { owner: 'team-A', env: 'production' }, ['team-a-prod-1']],
    [
      'regex matcher (anchored) on a later sibling',
      { owner: 'team-A', env: 'prod-eu', job: 'j' },
      ['team-a-prod-2'],
    ],
    ['anchored regex does not match a longer value', { owner: 'team-Bx' }, ['default']],
    ['match_re', { owner: 'team-C' }, ['team-bc']],
    ['match with continue, then the next sibling', { kind: 'db' }, ['db', 'db-copy']],
  ])('%s', (_name, labels, receivers) => {
    expect(matchRoutes(root, labels).map((r) => r.options.receiver)).toEqual(receivers);
    expect(receiversFor(root, labels)).toEqual(receivers);
  });

  it('keeps duplicate receivers in match order', () => {
    const tree = fromYaml(`
route:
  receiver: r
  routes:
    - { matchers: ['a="1"'], receiver: db, continue: true }
    - { matchers: ['a="1"'], receiver: r, continue: true }
    - { matchers: ['a="1"'], receiver: db }`);
    expect(receiversFor(tree, { a: '1' })).toEqual(['db', 'r', 'db']);
  });

  it('a missing label compares as the empty string', () => {
    const tree = fromYaml(`
route:
  receiver: r
  routes: [{ matchers: ['team!="x"'], receiver: db }]`);
    expect(receiversFor(tree, {})).toEqual(['db']);
  });
});

describe('buildRouteTree', () => {
  const find = (receiver: string) => {
    let found: RouteNode | undefined;
    walkRoutes(root, (n) => (found ??= n.options.receiver === receiver ? n : undefined));
    return found as RouteNode;
  };

  it.each([
    ['default', '{}', '{}', ['alertname'], false, 30_000, 300_000, 14_400_000],
    [
      'team-a',
      '{}/{owner="team-A"}',
      '{}/{owner="team-A"}/0',
      ['alertname'],
      false,
      30_000,
      300_000,
      14_400_000,
    ],
    [
      'team-a-testing',
      '{}/{owner="team-A"}/{env="testing"}',
      '{}/{owner="team-A"}/{env="testing"}/0',
      [],
      true,
      30_000,
      300_000,
      14_400_000,
    ],
    [
      'team-a-prod-1',
      '{}/{owner="team-A"}/{env="production"}',
      '{}/{owner="team-A"}/{env="production"}/1',
      ['alertname'],
      false,
      60_000,
      300_000,
      14_400_000,
    ],
    [
      'team-a-prod-2',
      '{}/{owner="team-A"}/{env=~"prod.*",job=~".+"}',
      '{}/{owner="team-A"}/{env=~"prod.*",job=~".+"}/2',
      ['job'],
      false,
      30_000,
      120_000,
      3_600_000,
    ],
    [
      'team-bc',
      '{}/{owner=~"^(?:team-(B|C))$"}',
      '{}/{owner=~"^(?:team-(B|C))$"}/1',
      ['foo', 'bar'],
      false,
      120_000,
      300_000,
      14_400_000,
    ],
    ['db-copy', '{}/{kind="db"}', '{}/{kind="db"}/3', [], false, 30_000, 300_000, 14_400_000],
  ])(
    '%s: key %s, id %s, inherited options',
    (receiver, key, id, groupBy, all, wait, interval, repeat) => {
      const node = find(receiver);
      expect(node.key).toBe(key);
      expect(node.id).toBe(id);
      expect(node.options).toMatchObject({
        groupBy,
        groupByAll: all,
        groupWait: wait,
        groupInterval: interval,
        repeatInterval: repeat,
      });
    },
  );

  it('does not inherit time intervals', () => {
    expect(find('team-bc').options.muteTimeIntervals).toEqual(['nights']);
    expect(find('db').options.activeTimeIntervals).toEqual(['office']);
    expect(find('db-copy').options.activeTimeIntervals).toEqual([]);
    expect(root.options.muteTimeIntervals).toEqual([]);
  });

  it('keeps continue and the parent link', () => {
    expect(find('team-a-prod-1').continue).toBe(true);
    expect(find('team-a-prod-1').parent).toBe(find('team-a'));
    expect(root.parent).toBeUndefined();
  });
});

describe('group keys (upstream examples)', () => {
  it.each([
    [
      'route: {receiver: r, group_by: [alertname]}',
      { alertname: 'TestAlert', x: '1' },
      '{}:{alertname="TestAlert"}',
    ],
    [
      'route: {receiver: r, routes: [{matchers: [team="db"], group_by: [alertname], receiver: db}]}',
      { alertname: 'DB', team: 'db', instance: 'i' },
      '{}/{team="db"}:{alertname="DB"}',
    ],
    ['route: {receiver: r}', { alertname: 'A' }, '{}:{}'],
    [
      "route: {receiver: r, routes: [{match: {all: 'yes'}, group_by: ['...'], receiver: db}]}",
      { all: 'yes', alertname: 'B' },
      '{}/{all="yes"}:{alertname="B", all="yes"}',
    ],
    [
      'route: {receiver: r, group_by: [alertname, missing]}',
      { alertname: 'A' },
      '{}:{alertname="A"}',
    ],
    ['route: {receiver: r, group_by: [a]}', { a: 'q"\\\n\t' }, '{}:{a="q\\"\\\\\\n\\t"}'],
    ['route: {receiver: r, group_by: [a]}', { a: 'é\u00a0\u0001' }, '{}:{a="é\\u00a0\\x01"}'],
  ])('%s with %j -> %s', (yaml, labels, key) => {
    const routes = matchRoutes(fromYaml(yaml), labels);
    expect(routes).toHaveLength(1);
    expect(groupKeyOf(routes[0].key, groupLabelsFor(routes[0].options, labels))).toBe(key);
  });
});

describe('hostile regexes in routes', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const started = performance.now();
    const matcher = `v=~"${escapeMatcherValue(c.pattern)}"`;
    const tree = fromYaml(`route:
  receiver: r
  routes:
    - {receiver: db, match_re: {v: ${JSON.stringify(c.pattern)}}}
    - {receiver: db, matchers: [${JSON.stringify(matcher)}], continue: true}`);
    const expected = c.matches ? ['db'] : ['r'];
    expect(receiversFor(tree, { alertname: 'R', v: c.value })).toEqual(expected);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
