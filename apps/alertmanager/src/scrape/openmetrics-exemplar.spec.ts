import { ExpositionError, parseExposition } from './exposition-parser';

/** One sample line of an OpenMetrics body, parsed; its exemplar shown as `{labels} value @ms`. */
function exemplarOf(line: string): string | undefined {
  const [sample] = parseExposition(`${line}\n# EOF\n`, true);
  const e = sample.exemplar;
  if (e === undefined) return undefined;
  return `${e.labels.toString()} ${e.value}${e.timestampMs === undefined ? '' : ` @${e.timestampMs}`}`;
}

describe('OpenMetrics exemplars', () => {
  it.each([
    [
      'a counter',
      'foo_total 17 # {trace_id="abc"} 0.67 1600000000.123',
      '{trace_id="abc"} 0.67 @1600000000123',
    ],
    ['a histogram bucket', 'hh_bucket{le="+Inf"} 1 # {aa="bb"} 4', '{aa="bb"} 4'],
    ['after the sample timestamp', 'foo_total 17.0 1520879607.789 # {xx="yy"} 5', '{xx="yy"} 5'],
    [
      'several labels, sorted',
      'ggh_bucket{le="+Inf"} 1 # {cc="dd",xx="yy"} 4 123.123',
      '{cc="dd", xx="yy"} 4 @123123',
    ],
    ['no labels', 'foo_total 1 # {} 2', '{} 2'],
    ['a label with an empty value left out', 'foo_total 1 # {a="",b="c"} 2', '{b="c"} 2'],
    ['escapes kept as written', 'foo_total 1 # {a="x\\"y\\n"} 2', '{a="x\\\\\\"y\\\\n"} 2'],
    ['blanks inside a label value', 'foo_total 1 # {a="x y # z"} 2', '{a="x y # z"} 2'],
    ['special values', 'foo_total 1 # {a="b"} -Inf -1.5', '{a="b"} -Infinity @-1500'],
    [
      'the timestamp truncated to the millisecond',
      'foo_total 1 # {a="b"} 1 0.0019',
      '{a="b"} 1 @1',
    ],
    [
      '128 label characters (the store checks the limit)',
      `foo_total 1 # {t="${'x'.repeat(127)}"} 1`,
      `{t="${'x'.repeat(127)}"} 1`,
    ],
    ['none without ` # `', 'foo_total 1', undefined],
  ])('reads %s', (_name, line, expected) => {
    expect(exemplarOf(line)).toEqual(expected);
  });

  it('reads the sample of an exemplar line as of any other', () => {
    const [sample] = parseExposition(
      'foo_total{a="b"} 17 1520879607.789 # {x="y"} 1\n# EOF\n',
      true,
    );
    expect([sample.labels.toString(), sample.value, sample.timestampMs]).toEqual([
      '{__name__="foo_total", a="b"}',
      17,
      1520879607789,
    ]);
  });

  it.each([
    ['foo 1 # {a="b"} 1', 'metric name foo does not support exemplars'],
    ['foo_total 1 # {a="b"}', 'expected value after exemplar labels, got "INVALID"'],
    ['foo_total 1 # {a="b"} x', 'strconv.ParseFloat: parsing "x": invalid syntax'],
    ['foo_total 1 # {a="b"} 1_0', 'unsupported character in float'],
    ['foo_total 1 # {a="b"} 0x1p-3', 'unsupported character in float'],
    ['foo_total 1 # {a="b"} true', 'strconv.ParseFloat: parsing "true": invalid syntax'],
    ['foo_total 1 #  {a="b"} 1', 'expected timestamp or # symbol, got "INVALID"'],
    ['foo_total 1 # x', 'expected timestamp or # symbol, got "INVALID"'],
    ['foo_total 1 # ', 'expected timestamp or # symbol, got "INVALID"'],
    ['foo_total 1 #', 'strconv.ParseFloat: parsing "#": invalid syntax'],
    ['foo_total # {a="b"} 1', 'strconv.ParseFloat: parsing "#": invalid syntax'],
    ['foo_total 1 2 # x', 'expected next entry after timestamp, got "INVALID"'],
    ['foo_total 1 2 #', 'expected next entry after timestamp, got "TIMESTAMP"'],
    [
      'foo_total 1 # {a="b"} 1 2 3',
      'expected next entry after exemplar timestamp, got "TIMESTAMP"',
    ],
    ['foo_total 1 # {a="b"} 1 2 ', 'expected next entry after exemplar timestamp, got "INVALID"'],
    ['foo_total 1 # {a="b"} 1 NaN', 'invalid exemplar timestamp'],
    ['foo_total 1 # {a="b"} 1 -Inf', 'invalid exemplar timestamp'],
    ['foo_total 1 # {a="b"} 1 Inf', 'invalid exemplar timestamp'],
    ['foo_total 1 # {a="b"}  1', 'expected value after exemplar labels, got "INVALID"'],
    ['foo_total 1 # {a= "b"} 1', 'expected label value, got "VALUE"'],
    ['foo_total 1 # {a=b} 1', 'expected label value, got "INVALID"'],
    ['foo_total 1 # {a="b} 1', 'expected label value, got "INVALID"'],
    ['foo_total 1 # {a="b",cc=}', 'expected label value, got "INVALID"'],
    ['foo_total 1 # {a="b" } 1', 'expected comma or left brace, got "INVALID"'],
    ['foo_total 1 # {a:b="c"} 1', 'expected equal, got "INVALID"'],
    ['foo_total 1 # {a="b",} 1', 'expected label name, got "BCLOSE"'],
    ['foo_total 1 # {a="b",,c="d"} 1', 'expected label name, got "COMMA"'],
    ['foo_total 1 # {,a="b"} 1', 'expected label name or left brace, got "COMMA"'],
    ['foo_total 1 # {=""} 1', 'expected label name or left brace, got "EQUAL"'],
    ['foo_total 1 # {a="b"c="d"} 1', 'expected comma, got "LNAME"'],
  ])('refuses %j as upstream words it', (line, reason) => {
    const run = () => parseExposition(`# TYPE foo counter\n${line}\n# EOF\n`, true);
    expect(run).toThrow(ExpositionError);
    expect(run).toThrow(`OpenMetrics parsing error in line 2: ${reason}`);
  });

  it('takes ` # ` for no exemplar in the text format, where the line does not parse', () => {
    const run = () => parseExposition('foo_total 1 # {a="b"} 1\n', false);
    expect(run).toThrow(ExpositionError);
    expect(run).toThrow('text format parsing error in line 1: expected timestamp or new record');
  });
});
