import { join } from 'node:path';
import { loadConfigFile, parseConfig, type AlertmanagerConfig } from '../config';
import { escapeMatcherValue } from '../labels';
import { catastrophicCases } from '../re2/testdata/cases';
import { runRoutesShow, runRoutesTest } from './config-routes.command';

let config: AlertmanagerConfig;
beforeAll(
  async () => (config = (await loadConfigFile(join(__dirname, 'testdata', 'routes.yml'))).config),
);

function capture(fn: (out: (line: string) => void) => number): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = fn((line) => lines.push(line));
  return { code, lines };
}

// Expected outputs are amtool 0.25's for the same file.
describe('config routes', () => {
  it('show prints the routing tree', () => {
    expect(capture((out) => runRoutesShow(config, out)).lines).toEqual([
      'Routing tree:',
      '.',
      '└── default-route  receiver: default',
      '    ├── {severity="critical"}  continue: true  receiver: pager',
      '    │   └── {team="db"}  receiver: db',
      '    └── {team=~"^(?:front.*)$"}  receiver: frontend',
      '',
    ]);
  });

  it.each([
    [['severity=critical', 'team=db'], 'db'],
    [['severity=critical', 'team=frontend'], 'pager,frontend'],
    [['team=frontend-2'], 'frontend'],
    [[], 'default'],
  ])('test %j -> %s', (labels, receivers) => {
    const result = capture((out) =>
      runRoutesTest(config, { labels, tree: false, verifyReceivers: '' }, out),
    );
    expect(result).toEqual({ code: 0, lines: [receivers] });
  });

  it('test --tree prints the matching branches first', () => {
    const options = {
      labels: ['severity=critical', 'team=frontend'],
      tree: true,
      verifyReceivers: '',
    };
    expect(capture((out) => runRoutesTest(config, options, out)).lines).toEqual([
      'Matching routes:',
      '.',
      '└── default-route',
      '    ├── {severity="critical"}  receiver: pager',
      '    └── {team=~"^(?:front.*)$"}  receiver: frontend',
      '',
      '',
      'pager,frontend',
    ]);
  });

  it.each([
    ['pager,frontend', 0, ['pager,frontend']],
    [
      'pager',
      1,
      ['pager,frontend', 'WARNING: Expected receivers did not match resolved receivers.'],
    ],
  ])('test --verify.receivers=%s exits %d', (verify, code, lines) => {
    const options = {
      labels: ['severity=critical', 'team=frontend'],
      tree: false,
      verifyReceivers: verify,
    };
    expect(capture((out) => runRoutesTest(config, options, out))).toEqual({ code, lines });
  });

  it('refuses labels that are not key=value', () => {
    expect(() =>
      runRoutesTest(config, { labels: ['foo=~bar'], tree: false, verifyReceivers: '' }, () => 0),
    ).toThrow('Failed to parse labels: labels must be specified as key=value pairs');
  });
});

describe('config routes test with hostile regexes', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const started = performance.now();
    const matcher = JSON.stringify(`v=~"${escapeMatcherValue(c.pattern)}"`);
    const routes = parseConfig(
      `route:
  receiver: default
  routes:
    - {receiver: re, match_re: {v: ${JSON.stringify(c.pattern)}}, continue: true}
    - {receiver: matchers, matchers: [${matcher}]}
receivers: [{name: default}, {name: re}, {name: matchers}]
`,
      'routes.yml',
    );
    const options = {
      labels: [`v="${escapeMatcherValue(c.value)}"`],
      tree: false,
      verifyReceivers: '',
    };
    const result = capture((out) => runRoutesTest(routes, options, out));
    expect(result).toEqual({ code: 0, lines: [c.matches ? 're,matchers' : 'default'] });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
