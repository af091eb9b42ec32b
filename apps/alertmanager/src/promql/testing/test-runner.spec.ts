import { runTestScript } from './test-runner';
import { parseTestScript } from './test-script';

const run = (script: string) =>
  runTestScript(parseTestScript(script)).map((o) => ({ line: o.line, status: o.status }));

describe('runTestScript', () => {
  it('counts an eval as unsupported only when it reads a series the store does not hold', () => {
    const script = [
      'load 1m',
      '  floats{a="1"} 1 2 3',
      '  hist{a="1"} {{schema:0 sum:1 count:1}}',
      '',
      'eval instant at 1m floats',
      '  floats{a="1"} 5',
      '',
      'eval instant at 1m hist',
      '  hist{a="1"} 5',
      '',
      'eval instant at 1m {a="1"}',
      '  floats{a="1"} 5',
      '',
      'eval instant at 1m floats',
      '  floats{a="1"} 2',
    ].join('\n');
    expect(run(script)).toEqual([
      { line: 5, status: 'failed' },
      { line: 8, status: 'unsupported' },
      { line: 11, status: 'unsupported' },
      { line: 14, status: 'passed' },
    ]);
  });

  it('treats the custom-bucket histograms of load_with_nhcb as native histograms', () => {
    const script = [
      'load_with_nhcb 1m',
      '  req_bucket{le="1"} 1 2',
      '  req_bucket{le="+Inf"} 2 4',
      '',
      'eval instant at 1m req',
      '  req 1',
      '',
      'eval instant at 1m req_bucket{le="1"}',
      '  req_bucket{le="1"} 3',
    ].join('\n');
    expect(run(script)).toEqual([
      { line: 5, status: 'unsupported' },
      { line: 8, status: 'failed' },
    ]);
  });

  it.each([
    [
      'an expected error worded as a refusal',
      [
        'eval_fail instant at 1m m[5m:1m] anchored',
        '  expected_fail_message anchored modifier is not supported for subqueries',
      ],
      'passed',
    ],
    [
      'an expected error, its message not given',
      ['eval_fail instant at 1m m[5m:1m] anchored'],
      'passed',
    ],
    [
      'a refusal where a result is expected',
      ['eval instant at 1m start_timestamp(m)', '  {} 1'],
      'unsupported',
    ],
    [
      'a refusal instead of the error expected',
      ['eval_fail instant at 1m start_timestamp(m)', '  expected_fail_message no such thing'],
      'unsupported',
    ],
    [
      'another error than the one expected',
      ['eval_fail instant at 1m m + on() m', '  expected_fail_message no such thing'],
      'failed',
    ],
  ])('decides on a refusal only after the expected error: %s', (_, evalLines, status) => {
    const script = ['load 1m', '  m 1 2 3', '', ...evalLines].join('\n');
    expect(run(script)).toEqual([{ line: 4, status }]);
  });

  it('reruns an instant eval at other times with its selectors pinned by @', () => {
    const outcomes = runTestScript(
      parseTestScript(
        ['load 1m', '  m 1 2 3', '', 'eval instant at 2m m + m @ 1m', '  {} 5'].join('\n'),
      ),
    );
    expect(outcomes).toEqual([expect.objectContaining({ status: 'passed' })]);
  });
});
