import { ingestAlerts, type PostedAlert } from './alert-ingest';
import { GO_ZERO_TIME } from '../time/go-zero-time';

const NOW = Date.UTC(2026, 10, 21, 4, 0, 0);
const FIVE_MIN = 5 * 60_000;

function posted(fields: Partial<PostedAlert>): PostedAlert {
  return {
    labels: { a: 'b' },
    annotations: {},
    startsAt: GO_ZERO_TIME,
    endsAt: GO_ZERO_TIME,
    generatorURL: '',
    ...fields,
  };
}

describe('ingestAlerts', () => {
  it.each([
    ['no times', {}, { startsAt: NOW, endsAt: NOW + FIVE_MIN, timeout: true }],
    [
      'only start',
      { startsAt: NOW - 1000 },
      { startsAt: NOW - 1000, endsAt: NOW + FIVE_MIN, timeout: true },
    ],
    [
      'only end (resolved)',
      { endsAt: NOW - 1000 },
      { startsAt: NOW - 1000, endsAt: NOW - 1000, timeout: false },
    ],
    [
      'only end (future)',
      { endsAt: NOW + 1000 },
      { startsAt: NOW + 1000, endsAt: NOW + 1000, timeout: false },
    ],
    [
      'only end, at the Unix epoch (a time like any other)',
      { endsAt: 0 },
      { startsAt: 0, endsAt: 0, timeout: false },
    ],
    [
      'both',
      { startsAt: NOW - 2000, endsAt: NOW + 1000 },
      { startsAt: NOW - 2000, endsAt: NOW + 1000, timeout: false },
    ],
  ])('defaults times: %s', (_name, input, expected) => {
    const { valid, errors } = ingestAlerts([posted(input)], NOW, FIVE_MIN);
    expect(errors).toEqual([]);
    expect(valid[0]).toMatchObject({
      ...expected,
      updatedAt: NOW,
      fingerprint: 'd2b371819297f98a',
    });
  });

  it('drops empty-valued labels before validating and fingerprinting', () => {
    const { valid, errors } = ingestAlerts(
      [posted({ labels: { a: 'b', gone: '' } }), posted({ labels: { only: '' } })],
      NOW,
      FIVE_MIN,
    );
    expect(valid.map((a) => a.labels)).toEqual([{ a: 'b' }]);
    expect(valid[0].fingerprint).toBe('d2b371819297f98a');
    expect(errors).toEqual(['at least one label pair required']);
  });

  it('keeps the valid alerts of a batch and reports each invalid one in order', () => {
    const result = ingestAlerts(
      [
        posted({ labels: { '0bad': 'b' } }),
        posted({ labels: { ok: '1' } }),
        posted({ startsAt: NOW, endsAt: NOW - 1 }),
      ],
      NOW,
      FIVE_MIN,
    );
    expect(result.valid.map((a) => a.labels)).toEqual([{ ok: '1' }]);
    expect(result.errors).toEqual([
      'invalid label set: invalid name "0bad"',
      'start time must be before end time',
    ]);
  });

  it('counts firing and resolved alerts, invalid ones included', () => {
    const result = ingestAlerts(
      [posted({}), posted({ endsAt: NOW }), posted({ labels: {}, endsAt: NOW - 5 })],
      NOW,
      FIVE_MIN,
    );
    expect([result.firing, result.resolved]).toEqual([1, 2]);
  });
});
