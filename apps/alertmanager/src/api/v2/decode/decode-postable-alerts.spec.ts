import { decodePostableAlerts } from './decode-postable-alerts';
import { decodePostableAlertsInSlices } from './decode-postable-alerts-in-slices';
import { GO_ZERO_TIME } from '../../../time/go-zero-time';

/** The decoder for long bodies, in slices of a few bytes and one alert, to cross every seam. */
const pauses: number[] = [];
const inSlices = (body: string) =>
  decodePostableAlertsInSlices(
    Buffer.from(body),
    () => {
      pauses.push(1);
      return new Promise(setImmediate);
    },
    { bytes: 3, alerts: 1 },
  );

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
    ['null', []],
    ['  [] trailing', []],
    ['"x"', parsing('json: cannot unmarshal string into Go value of type models.PostableAlerts')],
    ['true', parsing('json: cannot unmarshal bool into Go value of type models.PostableAlerts')],
    [
      '-1.5e3',
      parsing('json: cannot unmarshal number into Go value of type models.PostableAlerts'),
    ],
    ['[1]', parsing('json: cannot unmarshal number into Go value of type models.PostableAlert')],
    ['[null]', { status: 422, code: 602, message: '0.labels in body is required' }],
    ['[{"labels":{"a":"é"}}, é]', parsing("invalid character 'Ã' looking for beginning of value")],
    ['[{"labels":{"a":"b"}}\u0001]', parsing("invalid character '\\x01' after array element")],
    [
      '[{"labels":{"a":"b"},"startsAt":"2027-02-30T00:00:00Z"},{"labels":{}}]',
      parsing(
        'parsing time "2027-02-30T00:00:00Z" as "2006-01-02 15:04:05": cannot parse "T00:00:00Z" as " "',
      ),
    ],
    [`${'['.repeat(10_001)}`, parsing("invalid character '[' exceeded max depth")],
  ])('%s', async (body, expected) => {
    expect(decodePostableAlerts(body)).toEqual(expected);
    expect(await inSlices(body)).toEqual(expected);
  });

  it('pauses between slices of a long body', async () => {
    pauses.length = 0;
    const alerts = Array.from({ length: 5 }, (_, i) => ({ labels: { i: String(i) } }));
    const decoded = await inSlices(JSON.stringify(alerts));
    expect(decoded).toEqual(decodePostableAlerts(JSON.stringify(alerts)));
    expect(pauses.length).toBeGreaterThan(10);
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
        endsAt: GO_ZERO_TIME,
        generatorURL: 'http://gen/x?y=1',
      },
      {
        labels: { a: 'b' },
        annotations: {},
        startsAt: GO_ZERO_TIME,
        endsAt: GO_ZERO_TIME,
        generatorURL: '',
      },
    ]);
    expect(Object.keys((decoded as Array<{ labels: object }>)[0].labels)).toEqual(['a', 'z']);
  });

  it('ignores data after the first JSON value, as Go’s Decoder does', () => {
    expect(decodePostableAlerts('[] trailing')).toEqual([]);
  });
});
