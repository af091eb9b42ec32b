import { fingerprint } from './fingerprint';

// Straightforward BigInt FNV-1a 64 over UTF-8 bytes, to check the fast version against.
function referenceFingerprint(labels: Record<string, string>): string {
  let hash = 0xcbf29ce484222325n;
  const add = (byte: number) => {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  };
  for (const name of Object.keys(labels).sort()) {
    for (const byte of Buffer.from(name, 'utf8')) add(byte);
    add(0xff);
    for (const byte of Buffer.from(labels[name], 'utf8')) add(byte);
    add(0xff);
  }
  return hash.toString(16).padStart(16, '0');
}

describe('fingerprint', () => {
  // Values read back from Alertmanager 0.25's GET /api/v2/alerts, or computed with Python.
  it.each([
    [{}, 'cbf29ce484222325'],
    [{ alertname: 'TestAlert' }, 'dab43189276e5f48'],
    [{ a: 'b' }, 'd2b371819297f98a'],
    [{ alertname: 'TestAlert', severity: 'critical', team: 'db' }, '021f1b773c1c6853'],
    [{ team: 'db', severity: 'critical', alertname: 'TestAlert' }, '021f1b773c1c6853'],
    [{ alertname: 'Other', severity: 'warning' }, '62489c3f7a5be28d'],
    [{ alertname: 'TestAlert', instance: 'i1', severity: 'warning' }, '3b87c442903e7b00'],
    [{ z: '1', a: '2', _m: 'x y' }, '98905f24e5839916'],
    [{ alertname: 'Ünïcødé ✓', zone: '日本', emoji: '😀' }, '6c3b6c04804fb159'],
    [{ alertname: 'TestAlert', instance: 'localhost:9090', job: 'prometheus' }, '2dfb5dbd768c668f'],
    [
      { alertname: 'BenchAlert7', instance: 'host-7', job: 'bench', severity: 'warning' },
      '031fc990cff09dfe',
    ],
  ])('%j -> %s', (labels, expected) => {
    expect(fingerprint(labels)).toBe(expected);
  });

  it('agrees with a BigInt FNV-1a over many label sets', () => {
    for (let i = 0; i < 500; i++) {
      const labels: Record<string, string> = {
        alertname: `Alert${i}`,
        instance: `host-${i * 7919}:${i % 65536}`,
        [`l${i % 13}`]: 'é'.repeat(i % 5) + String.fromCodePoint(0x1f600 + (i % 40)),
      };
      expect(fingerprint(labels)).toBe(referenceFingerprint(labels));
    }
  });

  it('does not count annotations or key order', () => {
    expect(fingerprint({ b: '2', a: '1' })).toBe(fingerprint({ a: '1', b: '2' }));
  });
});
