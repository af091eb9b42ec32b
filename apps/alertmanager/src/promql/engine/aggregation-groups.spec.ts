import { parseExpr } from '../parser/parse-expr';
import type { AggregateExpr } from '../ast';
import { Labels } from '../../tsdb/labels';
import { groupKey, groupLabels, groupsOf } from './aggregation-groups';

const metric = Labels.fromRecord({
  __name__: 'latency_bucket',
  instance: 'r1:9121',
  command: 'get',
  le: '0.5',
});

function aggregation(text: string): AggregateExpr {
  const expr = parseExpr(text);
  if (expr.kind !== 'aggregate') throw new Error(text);
  return expr;
}

describe('groupsOf', () => {
  it.each([
    ['sum by (le) (x)', '{le="0.5"}'],
    ['sum by (command, instance) (x)', '{command="get", instance="r1:9121"}'],
    ['sum without (le) (x)', '{command="get", instance="r1:9121"}'],
    ['sum (x)', '{}'],
    ['count by (missing) (x)', '{}'],
  ])('%s: the key and labels of groupKey and groupLabels', (text, labels) => {
    const expr = aggregation(text);
    const grouping = [...expr.grouping].sort();
    const group = groupsOf(expr, grouping)(metric);
    expect(group.key).toBe(groupKey(metric, expr, grouping));
    expect(group.labels.toString()).toBe(labels);
    expect(group.labels.key).toBe(groupLabels(metric, expr, grouping).key);
  });

  it('remembers a label set by identity under the same grouping, query after query', () => {
    const expr = aggregation('sum by (le) (x)');
    const first = groupsOf(expr, ['le'])(metric);
    expect(groupsOf(aggregation('max by (le) (y)'), ['le'])(metric)).toBe(first);
    // `without (le)` is another grouping.
    expect(groupsOf(aggregation('sum without (le) (x)'), ['le'])(metric)).not.toBe(first);
  });

  it('forgets the groupings least recently used beyond the last 32', () => {
    const expr = aggregation('sum by (le) (x)');
    const first = groupsOf(expr, ['le'])(metric);
    for (let i = 0; i < 32; i++) groupsOf(expr, [`label${i}`])(metric);
    expect(groupsOf(expr, ['le'])(metric)).not.toBe(first);
    expect(groupsOf(expr, ['le'])(metric).key).toBe(first.key);
  });
});
