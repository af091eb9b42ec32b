import type { LabelMatcher, VectorSelector } from '../ast';
import type { PromqlDialect } from './dialect';
import { parseMetricSelector } from './metric-selector';
import { PromqlParseError } from './parse-error';
import { parseExpr } from './parse-expr';

/** The matchers as `name=value` texts, or the refusal's message. */
function read(input: string, dialect: PromqlDialect): string[] | string {
  try {
    return parseMetricSelector(input, dialect).map((m) => `${m.name}${m.type}${m.value}`);
  } catch (error) {
    expect(error).toBeInstanceOf(PromqlParseError);
    return (error as Error).message;
  }
}

// `match_target`'s 2.42 readings are held to Prometheus 2.42's answers in
// `api/prometheus/testdata/match-target.prometheus-2.42.json`; these rows are where the two
// dialects part.
describe('parseMetricSelector', () => {
  it.each<[string, string[] | string, string[] | string]>([
    ['up', ['__name__=up'], ['__name__=up']],
    ['{}', [], []],
    // Words the grammar reads as keywords elsewhere are metric names here.
    ['offset{a="b"}', ['a=b', '__name__=offset'], ['a=b', '__name__=offset']],
    ['limitk', ['__name__=limitk'], ['__name__=limitk']],
    [
      '{"quoted"}',
      ['__name__=quoted'],
      '1:2: parse error: unexpected string "\\"quoted\\"" in label matching, expected identifier or "}"',
    ],
    [
      '{"a"="b"}',
      ['a=b'],
      '1:2: parse error: unexpected string "\\"a\\"" in label matching, expected identifier or "}"',
    ],
    ['sum(up)', '1:4: parse error: unexpected "("', '1:4: parse error: unexpected "("'],
    ['up[5m]', '1:3: parse error: unexpected "["', '1:3: parse error: unexpected "["'],
    [
      'up{a="b"} offset 5m',
      '1:11: parse error: unexpected <offset>',
      '1:11: parse error: unexpected <offset>',
    ],
    [
      'up limitk',
      '1:4: parse error: unexpected <aggr:limitk>',
      '1:4: parse error: unexpected identifier "limitk"',
    ],
    [
      'up step',
      '1:4: parse error: unexpected "step"',
      '1:4: parse error: unexpected identifier "step"',
    ],
    [
      'up @ 5',
      '1:4: parse error: unexpected <op:@>',
      '1:4: parse error: unexpected "<Item 57385>" <op:@>',
    ],
    [
      'up 1_000',
      '1:4: parse error: unexpected number "1_000"',
      '1:4: parse error: bad number or duration syntax: "1"',
    ],
    [
      'up{job=~"("}',
      '1:4: parse error: error parsing regexp: missing closing ): `^(?s:()$`',
      '1:4: parse error: error parsing regexp: missing closing ): `^(?:()$`',
    ],
    // A matcher is built as it is read, before a later problem is reached.
    [
      '{job=~"("} foo',
      '1:2: parse error: error parsing regexp: missing closing ): `^(?s:()$`',
      '1:2: parse error: error parsing regexp: missing closing ): `^(?:()$`',
    ],
    [
      '  ',
      '1:3: parse error: unexpected end of input',
      '1:3: parse error: unexpected end of input',
    ],
  ])('reads %j', (input, v3, v242) => {
    expect(read(input, 'v3')).toEqual(v3);
    expect(read(input, 'v2.42')).toEqual(v242);
  });

  it('builds the matchers parseExpr builds for a selector', () => {
    const input = '{__name__=~"up|down", job!="a", env=~"p.*", zone!~"e"}';
    const fields = (ms: readonly LabelMatcher[]) =>
      ms.map(({ name, type, value }) => ({ name, type, value }));
    expect(fields(parseMetricSelector(input))).toEqual(
      fields((parseExpr(input) as VectorSelector).matchers),
    );
  });

  it('anchors regexes as each Prometheus does: `.` matches a newline from 3.0 on', () => {
    const [v3] = parseMetricSelector('{a=~"x.y"}');
    const [v242] = parseMetricSelector('{a=~"x.y"}', 'v2.42');
    expect([v3.matches('x\ny'), v242.matches('x\ny'), v242.matches('x-y')]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
