import { parser } from '@prometheus-io/lezer-promql';
import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import type { Expr } from '../ast';
import { PromqlEngine } from '../engine/engine';
import { grammarInput } from './grammar-input';
import { readLongChains } from './long-chain-parse';
import { parseExpr } from './parse-expr';
import { SyntaxTreeReader } from './syntax-tree';

const OPTIONS = {
  experimentalFunctions: true,
  durationExpressions: true,
  binopFillModifiers: true,
  extendedRangeSelectors: true,
};

/** A tree or problem without its label matchers' functions, to compare two readings. */
const plain = (read: unknown): unknown => JSON.parse(JSON.stringify(read)) as unknown;

/** A chain of `count` operators from `ops` in turn between `m0`, `m1`, ... */
const chain = (count: number, ops: readonly string[]) =>
  Array.from({ length: count + 1 }, (_, i) =>
    i === 0 ? 'm0' : `${ops[(i - 1) % ops.length]} m${i}`,
  ).join(' ');

describe('operator chains read a part at a time', () => {
  it.each([
    'a + b - c',
    'a + b * c - d / e % f',
    '-a + -b - +c',
    'a + on(x) group_left(y) b + ignoring(z) c',
    'a == bool b != bool c > 1',
    'a and b or c unless d or e',
    'a AND b OR c',
    'a atan2 b atan2 c + d',
    'sum by (x) (a + b + c) + d',
    'sum(a + b + c) by (x) - 1 - 2',
    'topk(5, a + b + c) + d',
    'label_replace(a + b + c, "x", "$1", "y", "(.*)") + d',
    'a + (b + c + d) + e',
    '(a + b) + (c - d) - (e)',
    '(a)and(b)or(c)',
    'rate(x[5m]) + rate(y[5m:1m]) offset 5m + z @ 100 - w @ start()',
    'a offset -5m + b offset 1h - c',
    'a - b offset -(1m) - c',
    '1e-5 + 2 - 0x1f + 1E+3',
    'a # one\n + b # two\n - c',
    'a{x="+ - ,)("} + b{y=~"a|b"} - c',
    'a + fill(0) b + fill_left(-1) c',
    'a * b + c * d + e * f',
    'a ^ b ^ c + d ^ e',
    'a + + b + c',
    'a + b c + d',
    'a + b +',
    'sum(a + b +)',
  ])('%j, one operator at a time, reads as the whole query does', (query) => {
    const whole = new SyntaxTreeReader(query, OPTIONS).read(
      parser.parse(grammarInput(query)).topNode,
    );
    const inParts = readLongChains(query, grammarInput(query), OPTIONS, 1);
    expect(plain(inParts)).toEqual(plain(whole));
  });

  it.each([
    ['a ^ b ^ c', '`^` binds to the right'],
    ['a + b)', 'an unbalanced parenthesis'],
  ])('leaves %j to the grammar whole (%s)', (query) => {
    expect(readLongChains(query, grammarInput(query), OPTIONS, 1)).toBeUndefined();
  });

  it.each([1000, 3000])('parses a chain of %d operators, nested on its left', (count) => {
    const query = chain(count, ['-', '+']);
    const operations: Extract<Expr, { kind: 'binary' }>[] = [];
    let at = parseExpr(query);
    while (at.kind === 'binary') {
      operations.push(at);
      at = at.lhs;
    }
    expect(operations).toHaveLength(count);
    expect(at).toMatchObject({ kind: 'vectorSelector', name: 'm0', pos: { start: 0, end: 2 } });
    operations.reverse();
    operations.forEach((operation, i) => {
      expect(operation).toMatchObject({
        op: i % 2 === 0 ? '-' : '+',
        rhs: { kind: 'vectorSelector', name: `m${i + 1}` },
        pos: { start: 0, end: operation.rhs.pos.end },
      });
    });
    expect(operations[count - 1].pos.end).toBe(query.length);
  });

  it('evaluates a chain of 1000 operators from the left, as Prometheus does', () => {
    const store = new MemoryStore();
    store.append(Labels.fromRecord({ __name__: 'm', job: 'a' }), 0, 3);
    store.append(Labels.fromRecord({ __name__: 'm', job: 'b' }), 0, 5);
    const query = Array.from({ length: 1001 }, () => 'm').join(' - ');
    const result = new PromqlEngine(store, {}).instantQuery(query, 60_000);
    if (result.type !== 'vector') throw new Error(`a vector expected, got ${result.type}`);
    // m - m - ... - m is m - 1000 m from the left; from the right it would be m or 0.
    expect(result.samples.map((s) => [s.metric.toRecord(), s.f])).toEqual([
      [{ job: 'a' }, -2997],
      [{ job: 'b' }, -4995],
    ]);
  });

  it('parses a long chain of a looser operator over long chains of a tighter one', () => {
    const product = chain(300, ['*']);
    const query = `${product} + ${product}`;
    const read = parseExpr(query);
    expect(read).toMatchObject({ kind: 'binary', op: '+', lhs: { op: '*' }, rhs: { op: '*' } });
  });

  it.each([
    [`${chain(1000, ['+'])} +`, 'unexpected end of input', 6898],
    [
      `${chain(499, ['+'])} m500 + ${chain(499, ['+']).replace(/m(\d+)/g, (_, n) => `m${Number(n) + 501}`)}`,
      'unexpected identifier "m500"',
      3389,
    ],
  ])('reports a mistake in a long chain where Prometheus does (%#)', (query, message, column) => {
    expect(() => parseExpr(query)).toThrow(`1:${column}: parse error: ${message}`);
  });
});
