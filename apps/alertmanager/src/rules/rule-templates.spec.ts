import { expandRuleTemplate } from './rule-templates';

const context = {
  now: 1_435_065_584_128,
  externalUrl: 'http://am.example:9093/prefix',
  query: () => [],
};
const expand = (
  text: string,
  value = 123456789,
  labels: Record<string, string> = { instance: 'a:9100', job: 'node' },
) =>
  expandRuleTemplate(
    'Test',
    text,
    { labels, externalLabels: { cluster: 'eu' }, externalUrl: context.externalUrl, value },
    context,
  );

describe('rule templates', () => {
  // Outputs as Prometheus 2.42's promtool printed them.
  it.each([
    ['{{ humanize 123456789 }}', '123.5M'],
    ['{{ humanize 0.000123 }}', '123u'],
    ['{{ humanize 1000 }}', '1k'],
    ['{{ humanize 999.95 }}', '1000'],
    ['{{ humanize -1234 }}', '-1.234k'],
    ['{{ humanize 1e30 }}', '1e+06Y'],
    ['{{ humanize 0 }}', '0'],
    ['{{ humanize1024 1048576 }}', '1Mi'],
    ['{{ humanize1024 1024 }}', '1ki'],
    ['{{ humanize1024 1023 }}', '1023'],
    ['{{ humanize1024 0.5 }}', '0.5'],
    ['{{ humanizeDuration 3661 }}', '1h 1m 1s'],
    ['{{ humanizeDuration 0.0123 }}', '12.3ms'],
    ['{{ humanizeDuration 86461.5 }}', '1d 0h 1m 1s'],
    ['{{ humanizePercentage 0.1234 }}', '12.34%'],
    ['{{ humanizePercentage 1 }}', '100%'],
    ['{{ humanizeTimestamp 1435065584.128 }}', '2015-06-23 13:19:44.128 +0000 UTC'],
    ['{{ printf "%.2f" $value }}', '123456789.00'],
    ['{{ $value }}', '1.23456789e+08'],
    ['{{ title "hello world" }}', 'Hello World'],
    ['{{ reReplaceAll "(a+)" "<$1>" "xaay" }}', 'x<aa>y'],
    [
      '{{ $labels.instance }} of {{ .Labels.job }} in {{ $externalLabels.cluster }}',
      'a:9100 of node in eu',
    ],
    ['[{{ $labels.nonexistent }}]', '[]'],
    ['{{ stripPort $labels.instance }}', 'a'],
    ['{{ externalURL }}{{ pathPrefix }}', 'http://am.example:9093/prefix/prefix'],
  ])('%s gives %j', (text, expected) => {
    expect(expand(text)).toBe(expected);
  });

  it('turns a failing template into the text upstream puts in its place', () => {
    expect(expand('{{ first (query "up") }}')).toMatch(
      /^<error expanding template: error executing template __alert_Test: template: __alert_Test:1:\d+: executing "__alert_Test" at <first \(query "up"\)>: error calling first: first\(\) called on vector with no elements>$/,
    );
  });

  it('runs query at the evaluation time and reads its samples', () => {
    const withData = { ...context, query: () => [{ labels: { instance: 'b' }, value: 0.25 }] };
    const text =
      '{{ with query "up" }}{{ . | first | label "instance" }}={{ . | first | value | humanizePercentage }}{{ end }}';
    expect(
      expandRuleTemplate(
        'T',
        text,
        { labels: {}, externalLabels: {}, externalUrl: '', value: 0 },
        withData,
      ),
    ).toBe('b=25%');
  });
});
