import type { BinaryExpr, Expr, VectorSelector } from '../ast';
import { typeOf } from '../ast';
import { parseExpr } from './parse-expr';
import { PromqlParseError } from './parse-error';

const options = { experimentalFunctions: true, durationExpressions: true };

/** A compact rendering of a tree, to compare shapes in tables. */
function shape(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return String(e.value);
    case 'string':
      return JSON.stringify(e.value);
    case 'vectorSelector': {
      const m = e.matchers.map((x) => `${x.name}${x.type}${JSON.stringify(x.value)}`).join(',');
      const offset = e.offsetMs !== 0 ? ` offset ${e.offsetMs}` : '';
      const at = e.at.kind === 'none' ? '' : ` @${e.at.kind === 'timestamp' ? e.at.ms : e.at.kind}`;
      return `{${m}}${offset}${at}`;
    }
    case 'matrixSelector':
      return `${shape(e.selector)}[${e.rangeMs}]`;
    case 'subquery':
      return `(${shape(e.expr)})[${e.rangeMs}:${e.stepMs}]${e.offsetMs ? ` offset ${e.offsetMs}` : ''}`;
    case 'paren':
      return `(${shape(e.expr)})`;
    case 'unary':
      return `${e.op}(${shape(e.expr)})`;
    case 'binary': {
      const m = e.matching;
      const mod =
        m && (m.labels.length > 0 || m.on)
          ? ` ${m.on ? 'on' : 'ignoring'}(${m.labels.join(',')})`
          : '';
      const group =
        m && m.card !== 'one-to-one' && m.card !== 'many-to-many'
          ? ` ${m.card}(${m.include.join(',')})`
          : '';
      return `(${shape(e.lhs)} ${e.op}${e.returnBool ? ' bool' : ''}${mod}${group} ${shape(e.rhs)})`;
    }
    case 'aggregate':
      return `${e.op}${e.without ? ' without' : ' by'}(${e.grouping.join(',')})(${e.param ? `${shape(e.param)}, ` : ''}${shape(e.expr)})`;
    case 'call':
      return `${e.func.name}(${e.args.map(shape).join(', ')})`;
  }
}

describe('parseExpr', () => {
  it.each([
    ['1', '1'],
    ['-2 ^ 2', '-((2 ^ 2))'],
    ['-2 ^ -2', '-((2 ^ -2))'],
    ['2 ^ 3 ^ 2', '(2 ^ (3 ^ 2))'],
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['0x1f', '31'],
    ['010', '8'],
    ['1_000', '1000'],
    ['1e3', '1000'],
    ['Inf', 'Infinity'],
    ['-inf', '-Infinity'],
    ['5m', '300'],
    ['"a\\tb"', '"a\\tb"'],
    ["'single \\' quote'", `"single ' quote"`],
    ['`raw\\n`', '"raw\\\\n"'],
    ['foo', '{__name__="foo"}'],
    ['{"foo"}', '{__name__="foo"}'],
    ['foo{a="b", c!~"d.*"}', '{a="b",c!~"d.*",__name__="foo"}'],
    ['foo offset 5m', '{__name__="foo"} offset 300000'],
    ['foo offset -1m', '{__name__="foo"} offset -60000'],
    ['foo @ 100', '{__name__="foo"} @100000'],
    ['foo @ start()', '{__name__="foo"} @start'],
    ['a + b offset 5m', '({__name__="a"} + {__name__="b"} offset 300000)'],
    ['-a offset 1m', '-({__name__="a"} offset 60000)'],
    ['rate(foo[5m])', 'rate({__name__="foo"}[300000])'],
    ['foo[5m:1m]', '({__name__="foo"})[300000:60000]'],
    ['foo[5m:]', '({__name__="foo"})[300000:0]'],
    ['sum by (a) (foo)', 'sum by(a)({__name__="foo"})'],
    ['sum(foo) without (a, b)', 'sum without(a,b)({__name__="foo"})'],
    ['SUM BY (a) (foo)', 'sum by(a)({__name__="foo"})'],
    ['topk(3, foo)', 'topk by()(3, {__name__="foo"})'],
    ['count_values("v", foo)', 'count_values by()("v", {__name__="foo"})'],
    ['a / on(x) group_left(y) b', '({__name__="a"} / on(x) many-to-one(y) {__name__="b"})'],
    ['a > bool 1', '({__name__="a"} > bool 1)'],
    ['a and ignoring(x) b', '({__name__="a"} and ignoring(x) {__name__="b"})'],
    ['foo[5m+1m]', '{__name__="foo"}[360000]'],
    // Comments are skipped wherever whitespace may stand.
    ['sum( # total\n foo)', 'sum by()({__name__="foo"})'],
    ['topk(# k\n3, foo)', 'topk by()(3, {__name__="foo"})'],
    [
      'label_replace(foo, # dst\n "a", "b", # src\n "c", "d")',
      'label_replace({__name__="foo"}, "a", "b", "c", "d")',
    ],
    ['rate(foo[5m] # window\n)', 'rate({__name__="foo"}[300000])'],
    ['(# inner\n a) + # right\n b', '(({__name__="a"}) + {__name__="b"})'],
  ])('%s', (input, expected) => {
    expect(shape(parseExpr(input, options))).toBe(expected);
  });

  it('gives every node its position in the query', () => {
    const expr = parseExpr('a + on(x) sum(b)', options) as BinaryExpr;
    expect(expr.pos).toEqual({ start: 0, end: 16 });
    expect(expr.lhs.pos).toEqual({ start: 0, end: 1 });
    expect(expr.rhs.pos).toEqual({ start: 10, end: 16 });
  });

  it('compiles regex matchers anchored, with `.` matching newlines', () => {
    const selector = parseExpr('foo{a=~"b.c"}', options) as VectorSelector;
    const [matcher] = selector.matchers;
    expect([matcher.matches('b\nc'), matcher.matches('xbxc'), matcher.matches('bxc')]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it.each([
    ['sum(rate(foo[5m]))', 'vector'],
    ['foo[5m]', 'matrix'],
    ['1 + 1', 'scalar'],
    ['"x"', 'string'],
    ['scalar(foo) * 2', 'scalar'],
  ])('types %s as %s', (input, type) => {
    expect(typeOf(parseExpr(input, options))).toBe(type);
  });

  it.each([
    ['', '1:1: parse error: no expression found in input'],
    ['1 +', '1:4: parse error: unexpected end of input'],
    ['foo{', '1:5: parse error: unexpected end of input inside braces'],
    // Upstream's error rules name where the error is and what was expected (Prometheus 2.42's
    // answers to the same queries; the rules are the same in 3.x).
    ['foo{a=}', '1:7: parse error: unexpected "}" in label matching, expected string'],
    [
      'foo{a}',
      '1:6: parse error: unexpected "}" in label matching, expected label matching operator',
    ],
    [
      'foo{=~"x"}',
      '1:5: parse error: unexpected <op:=~> in label matching, expected identifier or "}"',
    ],
    ['x{,}', '1:3: parse error: unexpected "," in label matching, expected identifier or "}"'],
    [
      'x{a="b",,}',
      '1:9: parse error: unexpected "," in label matching, expected identifier or "}"',
    ],
    [
      'foo{a="b" c}',
      '1:11: parse error: unexpected identifier "c" in label matching, expected "," or "}"',
    ],
    [
      'sum by (a b) (x)',
      '1:11: parse error: unexpected identifier "b" in grouping opts, expected "," or ")"',
    ],
    ['sum by (1) (x)', '1:9: parse error: unexpected number "1" in grouping opts, expected label'],
    [
      'count without (a,,b) (x)',
      '1:18: parse error: unexpected "," in grouping opts, expected label',
    ],
    [
      'sum without x',
      '1:13: parse error: unexpected identifier "x" in grouping opts, expected "("',
    ],
    ['sum by (a) x', '1:12: parse error: unexpected identifier "x" in aggregation'],
    // The same rules for offset, @ and brackets, in the words of the grammar this parser follows
    // (3.x with duration expressions: step() and range()).
    [
      'x offset foo',
      '1:10: parse error: unexpected identifier "foo" in offset, expected number, duration, step(), or range()',
    ],
    [
      'rate(x[5m] offset)',
      '1:18: parse error: unexpected ")" in offset, expected number, duration, step(), or range()',
    ],
    ['x @ foo', '1:5: parse error: unexpected identifier "foo" in @, expected timestamp'],
    ['x @', '1:4: parse error: unexpected end of input in @, expected timestamp'],
    [
      'x[5m 1m]',
      '1:6: parse error: unexpected duration "1m" in subquery or range, expected ":" or "]"',
    ],
    [
      'x[5m:1m 2m]',
      '1:9: parse error: unexpected duration "2m" in subquery selector, expected "]"',
    ],
    [
      'x[5m: ,]',
      '1:7: parse error: unexpected "," in subquery selector, expected number, duration, step(), range(), or "]"',
    ],
    [
      'sum by (5m) (x)',
      '1:9: parse error: unexpected duration "5m" in grouping opts, expected label',
    ],
    [
      'x[]',
      '1:3: parse error: unexpected "]" in subquery or range selector, expected number, duration, step(), or range()',
    ],
    [
      '1 unless 1',
      '1:1: parse error: set operator "unless" not allowed in binary scalar expression',
    ],
    ['1 == 1', '1:3: parse error: comparisons between scalars must use BOOL modifier'],
    ['foo + bool bar', '1:5: parse error: bool modifier can only be used on comparison operators'],
    ['foo offset 1s offset 2s', '1:1: parse error: offset may not be set multiple times'],
    ['foo @ 1 @ 2', '1:1: parse error: @ <timestamp> may not be set multiple times'],
    [
      'sum(foo) offset 1m',
      '1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery',
    ],
    ['1 or on(bar) foo', '1:1: parse error: vector matching only allowed between instant vectors'],
    [
      'foo unless on(bar) group_right(baz) bar',
      '1:1: parse error: no grouping allowed for "unless" operation',
    ],
    [
      'foo and on(a) group_left(b) bar',
      '1:1: parse error: no grouping allowed for "and" operation',
    ],
    ['{x!="a"}', '1:1: parse error: vector selector must contain at least one non-empty matcher'],
    ['foo{__name__="bar"}', '1:1: parse error: metric name must not be set twice: "foo" or "bar"'],
    ['foo[0m]', '1:5: parse error: duration must be greater than 0'],
    // At the range, `[` to `]`, as upstream reports them.
    ['some_metric offset 1m[5m]', '1:22: parse error: no offset modifiers allowed before range'],
    ['x @ 1 [5m]', '1:7: parse error: no @ modifiers allowed before range'],
    ['x{a="b"}[5m][5m]', '1:13: parse error: ranges only allowed for vector selectors'],
    ['(x)[5m]', '1:4: parse error: ranges only allowed for vector selectors'],
    ['1 + x[5m][1m]', '1:10: parse error: ranges only allowed for vector selectors'],
    [
      'rate(avg)',
      '1:6: parse error: expected type range vector in call to function "rate", got instant vector',
    ],
    ['rate(foo[5m], 1)', '1:1: parse error: expected 1 argument(s) in call to "rate", got 2'],
    ['round()', '1:1: parse error: expected at least 1 argument(s) in call to "round", got 0'],
    [
      'non_existent_function_far_bar()',
      '1:1: parse error: unknown function with name "non_existent_function_far_bar"',
    ],
    ['sum()', '1:1: parse error: no arguments for aggregate expression provided'],
    [
      'topk(foo)',
      '1:1: parse error: wrong number of arguments for aggregate expression provided, expected 2, got 1',
    ],
    [
      'count_values(5, foo)',
      '1:14: parse error: expected type string in aggregation parameter, got scalar',
    ],
    [
      '-foo[5m]',
      '1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "range vector"',
    ],
    [
      'foo[5m] + 1',
      '1:1: parse error: binary expression must contain only scalar and instant vector types',
    ],
    [
      '(foo[5m])[5m:]',
      '1:1: parse error: subquery is only allowed on instant vector, got matrix instead',
    ],
    ['foo{a=~"("}', '1:5: parse error: error parsing regexp: missing closing ): `^(?s:()$`'],
    ['"\\c"', "1:1: parse error: unknown escape sequence U+0063 'c'"],
    ['"\\x.\"', "1:1: parse error: illegal character U+002E '.' in escape sequence"],
    ['((1)', '1:5: parse error: unclosed left parenthesis'],
    // After the `)`, as upstream's lexer reports it (its parser tests: position 4 to 4).
    ['(1))', "1:5: parse error: unexpected right parenthesis ')'"],
    [')', "1:2: parse error: unexpected right parenthesis ')'"],
    ['x[(1m))]', "1:8: parse error: unexpected right parenthesis ')'"],
    ['2.5.', '1:1: parse error: bad number or duration syntax: "2.5."'],
    ['foo{a>="b"}', "1:6: parse error: unexpected character inside braces: '>'"],
    ['1 !~ 1', "1:3: parse error: unexpected character after '!': '~'"],
    ['sum by ("foo)(bar)', '1:9: parse error: unterminated quoted string'],
    ['foo[5m1h]', '1:5: parse error: not a valid duration string: "5m1h"'],
    ['foo[5s x 5s]', "1:8: parse error: unexpected character: 'x', expected ':'"],
    ['*1', '1:1: parse error: unexpected <op:*>'],
    // Tokens described as upstream's lexer items print (Prometheus 2.42's query API alike).
    ['up 1234567890123', '1:4: parse error: unexpected number "1234567890"...'],
    ['up "a long string here"', '1:4: parse error: unexpected string "\\"a long st"...'],
    ['up a:b', '1:4: parse error: unexpected metric identifier "a:b"'],
    ['up START', '1:4: parse error: unexpected "START"'],
    [
      'up{a="b" or}',
      '1:10: parse error: unexpected identifier "or" in label matching, expected "," or "}"',
    ],
    ['{a==="b"}', '1:4: parse error: unexpected "=" in label matching, expected string'],
    [
      '{a "b"}',
      '1:4: parse error: unexpected string "\\"b\\"" in label matching, expected label matching operator',
    ],
    ['{a=#c\nx}', '2:1: parse error: unexpected identifier "x" in label matching, expected string'],
    ["{a:b='x'}", "1:3: parse error: unexpected character inside braces: ':'"],
    ['{a="\uFFFD"}', '1:4: parse error: invalid UTF-8 rune'],
    ['up !', "1:4: parse error: unexpected character after '!': '\uFFFD'"],
    ['"\\\'"', "1:1: parse error: unknown escape sequence U+0027 '''"],
    ['up #c\r x', '1:8: parse error: unexpected identifier "x"'],
    ['foo @ NaN', '1:1: parse error: timestamp out of bounds for @ modifier: NaN'],
    [
      'a / on(x) group_left(x) b',
      '1:3: parse error: label "x" must not occur in ON and GROUP clause at once',
    ],
  ])('refuses %j', (input, message) => {
    let error: unknown;
    try {
      parseExpr(input, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PromqlParseError);
    expect((error as Error).message).toBe(message);
  });

  it.each([
    ['rate(foo[5m] anchored)', 'rate({__name__="foo"}[300000])', { anchored: true }],
    ['foo smoothed', '{__name__="foo"}', { smoothed: true }],
    ['a + b smoothed', '({__name__="a"} + {__name__="b"})', undefined],
  ])('reads %s with the extended range modifiers enabled', (input, expected, flags) => {
    const expr = parseExpr(input, { ...options, extendedRangeSelectors: true });
    expect(shape(expr)).toBe(expected);
    const selector =
      expr.kind === 'call' && expr.args[0].kind === 'matrixSelector'
        ? expr.args[0].selector
        : expr.kind === 'vectorSelector'
          ? expr
          : undefined;
    if (flags) expect(selector).toMatchObject(flags);
  });

  it.each([
    ['foo[5m] anchored smoothed', 'anchored and smoothed modifiers cannot be used together'],
    ['foo[5m:1m] anchored', 'anchored modifier is not supported for subqueries'],
    ['sum(foo) smoothed', 'smoothed modifier not implemented'],
  ])('refuses %s', (input, message) => {
    expect(() => parseExpr(input, { ...options, extendedRangeSelectors: true })).toThrow(message);
  });

  it('refuses experimental functions and duration arithmetic unless enabled', () => {
    expect(() => parseExpr('rate(foo[5m] anchored)')).toThrow(
      'anchored modifier is experimental and not enabled',
    );
    expect(() => parseExpr('limitk(1, foo)')).toThrow('limitk() is experimental');
    expect(() => parseExpr('sort_by_label(foo, "a")')).toThrow(
      'function "sort_by_label" is not enabled',
    );
    expect(() => parseExpr('foo[1m+1m]')).toThrow(
      'experimental duration expression is not enabled',
    );
    expect(() => parseExpr('limitk(1, foo)', options)).not.toThrow();
  });
});
