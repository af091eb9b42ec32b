import { parseExposition } from './exposition-parser';
import { MetadataCache, type MetricMetadata } from './metadata-cache';

/** Parses each body into one cache, ending a successful scrape after each, as the loop does. */
function scraped(bodies: readonly string[], openMetrics = false): MetadataCache {
  const cache = new MetadataCache();
  for (const body of bodies) {
    parseExposition(body, openMetrics, cache);
    cache.iterDone(body.length > 0);
  }
  return cache;
}

const row = (metric: string, type: string, help = '', unit = ''): MetricMetadata =>
  ({ metric, type, help, unit }) as MetricMetadata;

describe('MetadataCache from the text format', () => {
  it.each<[string, string, MetricMetadata[]]>([
    [
      'a counter',
      '# HELP a_total Requests.\n# TYPE a_total counter\na_total 1\n',
      [row('a_total', 'counter', 'Requests.')],
    ],
    ['untyped is unknown', '# TYPE u untyped\nu 1\n', [row('u', 'unknown')]],
    ['help without type', '# HELP h Only help.\nh 1\n', [row('h', 'unknown', 'Only help.')]],
    ['a sample without metadata gives none', 'plain 1\n', []],
    ['metadata without samples', '# TYPE m gauge\n', [row('m', 'gauge')]],
    [
      'a histogram under its family name',
      '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
      [row('h', 'histogram')],
    ],
    [
      'a summary',
      '# TYPE s summary\ns{quantile="0.5"} 1\ns_sum 1\ns_count 1\n',
      [row('s', 'summary')],
    ],
    [
      'escapes \\\\ and \\n; others stay',
      '# HELP e a \\\\ b \\n c \\" d \\t\n',
      [row('e', 'unknown', 'a \\ b \n c \\" d \\t')],
    ],
    ['a run of escapes read left to right', '# HELP e \\\\n\n', [row('e', 'unknown', '\\n')]],
    ['blanks after the first kept', '# HELP w   two  \n', [row('w', 'unknown', '  two  ')]],
    ['a tab as the separator', '# HELP w\ttabbed\n', [row('w', 'unknown', 'tabbed')]],
    ['no help text', '# HELP n\n', [row('n', 'unknown')]],
    ['blanks alone are no text', '# HELP n   \n', [row('n', 'unknown')]],
    ['a carriage return is text', '# HELP r with cr\r\n', [row('r', 'unknown', 'with cr\r')]],
    ['an indented line', '  # HELP i indented\n', [row('i', 'unknown', 'indented')]],
    ['the last of two helps', '# HELP d first\n# HELP d second\n', [row('d', 'unknown', 'second')]],
    [
      'UNIT is a comment',
      '# UNIT x_seconds seconds\n# TYPE x_seconds gauge\n',
      [row('x_seconds', 'gauge')],
    ],
    ['by name', '# TYPE b gauge\n# TYPE a gauge\n', [row('a', 'gauge'), row('b', 'gauge')]],
  ])('%s', (_name, body, expected) => {
    expect(scraped([body]).list()).toEqual(expected);
  });
});

describe('MetadataCache from OpenMetrics', () => {
  it.each<[string, string, MetricMetadata[]]>([
    [
      'a counter family without _total',
      '# TYPE c counter\n# HELP c Count.\nc_total 1\n# EOF\n',
      [row('c', 'counter', 'Count.')],
    ],
    [
      'a unit',
      '# TYPE l_seconds histogram\n# UNIT l_seconds seconds\nl_seconds_count 1\nl_seconds_sum 1\n# EOF\n',
      [row('l_seconds', 'histogram', '', 'seconds')],
    ],
    ['an empty unit', '# UNIT u \n# EOF\n', [row('u', 'unknown')]],
    [
      "OpenMetrics' types",
      '# TYPE a info\n# TYPE b stateset\n# TYPE c gaugehistogram\n# TYPE d unknown\n# EOF\n',
      [row('a', 'info'), row('b', 'stateset'), row('c', 'gaugehistogram'), row('d', 'unknown')],
    ],
    [
      'escapes \\\\, \\n and \\"',
      '# HELP e a \\\\ b \\n c \\" d \\t\n# EOF\n',
      [row('e', 'unknown', 'a \\ b \n c " d \\t')],
    ],
    ['an empty help', '# HELP e \n# EOF\n', [row('e', 'unknown')]],
  ])('%s', (_name, body, expected) => {
    expect(scraped([body], true).list()).toEqual(expected);
  });

  it.each([
    ['# UNIT a_seconds ms\n# EOF\n', 'unit not a suffix of metric "a_seconds"'],
    ['# UNIT seconds seconds\n# EOF\n', 'unit not a suffix of metric "seconds"'],
    ['# HELP a\n# EOF\n', 'expected text in HELP'],
    ['# TYPE a\n# EOF\n', 'expected text in TYPE'],
  ])('refuses %j', (body, message) => {
    expect(() => parseExposition(body, true, new MetadataCache())).toThrow(message);
  });

  it.each([
    ['# TYPE a  counter\n', 'invalid metric type " counter"'],
    ['# TYPE a counter \n', 'invalid metric type "counter "'],
  ])('refuses the text format line %j as upstream does', (body, message) => {
    expect(() => parseExposition(body, false, new MetadataCache())).toThrow(message);
  });
});

describe('MetadataCache over scrapes', () => {
  const FAMILY = '# HELP a Help.\n# TYPE a gauge\na 1\n';
  const OTHER = '# TYPE b gauge\nb 1\n';

  it.each<[string, string[], string[]]>([
    [
      'a family stays through ten scrapes without it',
      [FAMILY, ...Array(10).fill(OTHER)],
      ['a', 'b'],
    ],
    ['and goes at the end of the eleventh', [FAMILY, ...Array(11).fill(OTHER)], ['b']],
    ['a line of it keeps it', [FAMILY, ...Array(10).fill(OTHER), FAMILY, OTHER], ['a', 'b']],
    ['empty bodies do not count', [FAMILY, ...Array(20).fill(''), OTHER], ['a', 'b']],
    ['a scrape with no metadata counts', [FAMILY, ...Array(11).fill('plain 1\n')], []],
  ])('%s', (_name, bodies, names) => {
    expect(
      scraped(bodies)
        .list()
        .map((m) => m.metric),
    ).toEqual(names);
  });

  it('changes only the fields a scrape gives lines for', () => {
    const cache = scraped(['# HELP a Old.\n# TYPE a counter\n', '# TYPE a gauge\n']);
    expect(cache.get('a')).toEqual(row('a', 'gauge', 'Old.'));
  });

  it('keeps the lines read before a scrape failed, and failed scrapes move no iteration on', () => {
    const cache = new MetadataCache();
    cache.setType('a', 'gauge');
    cache.iterDone(true);
    expect(() => parseExposition('# TYPE b counter\nbad{ 1\n', false, cache)).toThrow();
    for (let i = 0; i < 30; i++) cache.iterDone(false);
    expect(cache.list().map((m) => m.metric)).toEqual(['a', 'b']);
  });

  it.each([
    [1002, false],
    [1001, true],
  ])('after %d new families a failed scrape flushes: old family kept %s', (added, kept) => {
    // Flushing drops what no line was given for in more than ten iterations: `old` after ten more
    // successful scrapes. A failed one flushes when the cache passes twice its last size + 1,000.
    const cache = new MetadataCache();
    cache.setType('old', 'gauge');
    for (let i = 0; i < 11; i++) cache.iterDone(true);
    for (let i = 0; i < added; i++) cache.setType(`new_${i}`, 'gauge');
    cache.iterDone(false);
    expect(cache.get('old') !== undefined).toBe(kept);
    expect(cache.size).toBe(added + (kept ? 1 : 0));
  });

  it('answers undefined for a family it does not have', () => {
    expect(scraped([FAMILY]).get('b')).toBeUndefined();
  });
});
