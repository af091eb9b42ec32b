import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExpositionError, parseExposition, scrapedSamples } from './exposition-parser';

const DIR = join(__dirname, 'testdata', 'exposition');
const show = (samples: ReturnType<typeof parseExposition>) =>
  samples.map(
    (s) =>
      `${s.labels.toString()} ${s.value}${s.timestampMs === undefined ? '' : ` @${s.timestampMs}`}`,
  );

describe('exposition formats', () => {
  it("reads the text format as upstream's promparse tests do", () => {
    const samples = parseExposition(readFileSync(join(DIR, 'text-format.prom'), 'utf8'), false);
    expect(show(samples)).toEqual([
      '{__name__="go_gc_duration_seconds", quantile="0"} 0.000049351',
      '{__name__="go_gc_duration_seconds", quantile="0.25"} 0.00007424100000000001',
      '{__name__="go_gc_duration_seconds", a="b", quantile="0.5"} 0.000083835',
      '{__name__="go_gc_duration_seconds", a="b", quantile="0.8"} 0.000083835',
      '{__name__="go_gc_duration_seconds", a="b", quantile="0.9"} 0.000083835',
      '{A="2", __name__="wind_speed", c="3"} 12345',
      '{__name__="go_gc_duration_seconds", a="b", quantile="1.0"} 0.000083835',
      '{__name__="go_gc_duration_seconds", a="b", quantile="1.0"} 0.000083835',
      '{__name__="go_gc_duration_seconds", a="b", quantile="1.0"} 0.000083835',
      '{__name__="go_gc_duration_seconds", a="b", quantile="1.0"} 0.000083835',
      '{__name__="go_gc_duration_seconds_count"} 99',
      '{__name__="some:aggregate:rate5m", a_b="c"} 1',
      '{__name__="go_goroutines"} 33 @123123',
      '{__name__="_metric_starting_with_underscore"} 1',
      '{__name__="testmetric", _label_starting_with_underscore="foo"} 1',
      '{__name__="testmetric", label="\\"bar\\""} 1',
      '{__name__="testmetric", label="new\\nline", path="C:\\\\x"} 2',
      '{__name__="null_byte_metric", a="abc"} 1',
      '{__name__="empty_value", b="x"} 3',
      '{__name__="special_values", v="nan"} NaN',
      '{__name__="special_values", v="inf"} Infinity',
      '{__name__="special_values", v="-inf"} -Infinity',
    ]);
  });

  it('reads OpenMetrics by its content type: timestamps in seconds, exemplars apart', () => {
    const body = readFileSync(join(DIR, 'openmetrics.txt'), 'utf8');
    expect(
      show([...scrapedSamples(body, 'application/openmetrics-text; version=1.0.0; charset=utf-8')]),
    ).toEqual([
      '{__name__="go_gc_duration_seconds", quantile="0"} 0.000049351',
      '{__name__="go_gc_duration_seconds_count"} 99',
      '{__name__="http_requests_total", code="200"} 1027 @1520879607789',
      '{__name__="http_requests_created", code="200"} 1520872607.123',
      '{__name__="foo_bucket", le="0.01"} 0',
      '{__name__="foo_bucket", le="+Inf"} 17',
    ]);
  });

  it.each([
    ['text', 'metric', 'text format parsing error in line 1: expected value after metric, got ""'],
    [
      'text',
      'a{b="c"} abc',
      'text format parsing error in line 1: strconv.ParseFloat: parsing "abc": invalid syntax',
    ],
    [
      'text',
      'a 1 2.5',
      'text format parsing error in line 1: strconv.ParseInt: parsing "2.5": invalid syntax',
    ],
    [
      'text',
      'a 1 2 3',
      'text format parsing error in line 1: expected timestamp or new record, got "3"',
    ],
    ['text', '{a="b"} 1', 'text format parsing error in line 1: "{" is not a valid start token'],
    ['text', 'a{b=c} 1', 'text format parsing error in line 1: expected label value, got "c} 1"'],
    [
      'text',
      'a{b="c" d="e"} 1',
      'text format parsing error in line 1: expected comma or "}", got "d=\\"e\\"} 1"',
    ],
    [
      'text',
      'a{b="c",b="d"} 1',
      'text format parsing error in line 1: label name "b" is not unique',
    ],
    [
      'text',
      'ok 1\n# TYPE a sparkline',
      'text format parsing error in line 2: invalid metric type "sparkline"',
    ],
    ['text', 'a{b="c} 1', 'text format parsing error in line 1: unterminated label value'],
    ['openmetrics', 'a 1\n', 'OpenMetrics parsing error: data does not end with # EOF'],
    [
      'openmetrics',
      'a 1\n# EOF\nb 2\n',
      'OpenMetrics parsing error in line 3: unexpected data after # EOF',
    ],
    [
      'openmetrics',
      '# random\n# EOF\n',
      'OpenMetrics parsing error in line 1: invalid comment "# random"',
    ],
  ])('refuses a bad %s body: %j', (format, body, message) => {
    const run = () => parseExposition(body, format === 'openmetrics');
    expect(run).toThrow(ExpositionError);
    expect(run).toThrow(message);
  });
});

describe('parseExposition with the series a scrape cache knows', () => {
  const body = [
    '# TYPE a counter',
    'a_total{x="1"} 1',
    'a_total {x="}{",y="say \\"}\\""} 2 1700000000000',
    'b 3',
    'c{x="1"} 4',
    'c{x="a\\\\"} 5',
    '',
  ].join('\n');

  it.each([
    ['nothing known', [], 0],
    [
      'every series known',
      ['a_total{x="1"}', 'a_total {x="}{",y="say \\"}\\""}', 'b', 'c{x="1"}', 'c{x="a\\\\"}'],
      5,
    ],
    ['some known', ['a_total {x="}{",y="say \\"}\\""}', 'b'], 2],
    ['a prefix of a series is not it', ['a_total', 'c{x="1"'], 0],
  ])('%s: the known pass over their labels, the rest read as without a cache', (_, known, hits) => {
    const full = parseExposition(body, false);
    expect(full.filter((s) => known.includes(s.series as string))).toHaveLength(hits);
    const cached = parseExposition(body, false, undefined, (s) => known.includes(s));
    expect(cached.map((s) => s.series)).toEqual(full.map((s) => s.series));
    expect(cached.map((s) => [s.value, s.timestampMs])).toEqual(
      full.map((s) => [s.value, s.timestampMs]),
    );
    expect(cached.map((s) => s.labels.toRecord())).toEqual(
      full.map((s) => (known.includes(s.series as string) ? {} : s.labels.toRecord())),
    );
  });
});

describe('a body given as bytes, decoded a piece at a time', () => {
  const line = (i: number, width = 0) =>
    `m{city="Zürich – 東京 ${i}",pad="${'x'.repeat(width)}"} ${i}`;
  it.each([
    ['lines across many pieces', Array.from({ length: 5000 }, (_, i) => line(i))],
    ['a line longer than a piece', [line(1), line(2, 100_000), line(3)]],
    ['blank lines and comments between', ['# HELP m Zürich', '', line(1), '', '', line(2), '']],
    ['no newline at the end', [line(1), line(2)]],
  ])('%s: the samples the text gives', (_what, body) => {
    const text = body.join('\n') + (_what === 'no newline at the end' ? '' : '\n');
    const fromText = parseExposition(text, false);
    const fromBytes = parseExposition(Buffer.from(text, 'utf8'), false);
    expect(fromBytes.map((s) => [s.series, s.value])).toEqual(
      fromText.map((s) => [s.series, s.value]),
    );
    expect(fromBytes.length).toBe(body.filter((l) => l.startsWith('m')).length);
  });

  it('names the line that does not parse by its number in the whole body', () => {
    const text = `${Array.from({ length: 3000 }, (_, i) => line(i)).join('\n')}\nm{x=} 1\n`;
    expect(() => parseExposition(Buffer.from(text, 'utf8'), false)).toThrow(
      'text format parsing error in line 3001: expected label value, got "} 1"',
    );
  });
});
