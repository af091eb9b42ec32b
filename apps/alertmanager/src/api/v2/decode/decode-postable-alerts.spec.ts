import { decodePostableAlerts } from './decode-postable-alerts';

const parsing = (why: string) => ({
  status: 400,
  code: 400,
  message: `parsing alerts body from "" failed, because ${why}`,
});

describe('decodePostableAlerts', () => {
  // Each expectation is what Alertmanager 0.25 answered for the same body.
  it.each([
    ['xx', parsing("invalid character 'x' looking for beginning of value")],
    ['', { status: 422, code: 602, message: 'alerts in body is required' }],
    ['{}', parsing('json: cannot unmarshal object into Go value of type models.PostableAlerts')],
    ['[{}]', { status: 422, code: 602, message: '0.labels in body is required' }],
    [
      '[{"labels":{"a":"b"},"generatorURL":"::bad"}]',
      { status: 422, code: 601, message: '0.generatorURL in body must be of type uri: "::bad"' },
    ],
    [
      '[{"labels":"x"}]',
      parsing(
        'json: cannot unmarshal string into Go struct field Alert.labels of type models.LabelSet',
      ),
    ],
    [
      '[{"labels":{"a":1}}]',
      parsing('json: cannot unmarshal number into Go struct field Alert.labels of type string'),
    ],
    [
      '[{"labels":{"a":"b"},"startsAt":"nope"}]',
      parsing('parsing time "nope" as "2006-01-02 15:04:05": cannot parse "nope" as "2006"'),
    ],
    ['[{"labels":{"a":"b"}}', parsing('unexpected EOF')],
    ['[', parsing('unexpected EOF')],
    ['[{"labels" {}}]', parsing("invalid character '{' after object key")],
    ['[{"labels":{}} {}]', parsing("invalid character '{' after array element")],
    [
      '[{}, {}]',
      {
        status: 422,
        code: 602,
        message:
          'validation failure list:\n0.labels in body is required\n1.labels in body is required',
      },
    ],
  ])('%s', (body, expected) => {
    expect(decodePostableAlerts(body)).toEqual(expected);
  });

  it('decodes fields, sorts label keys, treats Go zero time and null as unset', () => {
    const decoded = decodePostableAlerts(
      JSON.stringify([
        {
          labels: { z: '1', a: '2' },
          annotations: { summary: 's' },
          startsAt: '2026-01-02T03:04:05.678+01:00',
          endsAt: '0001-01-01T00:00:00.000Z',
          generatorURL: 'http://gen/x?y=1',
          extra: 'ignored',
        },
        { labels: { a: 'b' }, startsAt: null },
      ]),
    );
    expect(decoded).toEqual([
      {
        labels: { a: '2', z: '1' },
        annotations: { summary: 's' },
        startsAt: Date.UTC(2026, 0, 2, 2, 4, 5, 678),
        endsAt: 0,
        generatorURL: 'http://gen/x?y=1',
      },
      { labels: { a: 'b' }, annotations: {}, startsAt: 0, endsAt: 0, generatorURL: '' },
    ]);
    expect(Object.keys((decoded as Array<{ labels: object }>)[0].labels)).toEqual(['a', 'z']);
  });

  it('ignores data after the first JSON value, as Go’s Decoder does', () => {
    expect(decodePostableAlerts('[] trailing')).toEqual([]);
  });
});
