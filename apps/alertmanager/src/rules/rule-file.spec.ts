import { parseRuleFile } from './rule-file';

describe('parseRuleFile', () => {
  it('reads groups and rules into the model the rule manager evaluates', () => {
    const result = parseRuleFile(
      [
        'groups:',
        '  - name: redis',
        '    interval: 15s',
        '    limit: 10',
        '    query_offset: 1m',
        '    labels: {team: cache}',
        '    rules:',
        '      - record: job:commands:rate5m',
        '        expr: sum by (job) (rate(myapp_redis_commands_total[5m]))',
        '      - alert: RedisDown',
        '        expr: up{job="redis"} == 0',
        '        for: 1m',
        '        keep_firing_for: 30s',
        '        labels: {severity: critical}',
        '        annotations: {summary: "{{ $labels.instance }} is down"}',
      ].join('\n'),
    );
    if (!result.ok) throw new Error(result.errors.join('\n'));
    const [group] = result.groups;
    expect(group).toMatchObject({
      name: 'redis',
      intervalMs: 15_000,
      limit: 10,
      queryOffsetMs: 60_000,
      labels: { team: 'cache' },
    });
    expect(group.rules.map((r) => r.kind)).toEqual(['recording', 'alerting']);
    expect(group.rules[1]).toMatchObject({
      alert: 'RedisDown',
      forMs: 60_000,
      keepFiringForMs: 30_000,
      labels: { severity: 'critical' },
    });
    expect(group.rules[1].parsed.kind).toBe('binary');
  });

  it.each([
    [
      'groups:\n  - name: g\n    rules: 5\n',
      'yaml: unmarshal errors:\n  line 3: cannot unmarshal !!int `5` into []rulefmt.RuleNode',
    ],
    [
      'groups:\n  - name: g\n    limit: many\n',
      'yaml: unmarshal errors:\n  line 3: cannot unmarshal !!str `many` into int',
    ],
    [
      'groups:\n  - name: g\n    labels: {"a-b": x}\n    rules: []\n',
      '2:5: invalid label name: a-b',
    ],
    [
      'groups:\n  - name: g\n    rules:\n      - record: x\n        expr: up\n        keep_firing_for: 5m\n',
      `4:17: group "g", rule 1, "x": invalid field 'keep_firing_for' in recording rule`,
    ],
    [
      'groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: up\n        annotations: {d: "{{ nope }}"}\n',
      'group "g", rule 1, "A": annotation "d": template: __alert_A:1: function "nope" not defined',
    ],
  ])('refuses %j', (text, error) => {
    const result = parseRuleFile(text);
    expect(result.ok ? [] : result.errors).toEqual([error]);
  });
});
