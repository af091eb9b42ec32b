import { systemClock } from '../time/clock';
import { parseConfig } from '../config';
import { MemoryAlertStore } from '../alerts/memory-alert-store';
import { testAlert } from '../alerts/testing/test-alert';
import type { LabelSet } from '../labels';
import { escapeMatcherValue } from '../labels';
import { catastrophicCases } from '../re2/testdata/cases';
import { Inhibitor } from './inhibitor';

const NOW = 1_000_000;

function setup(rules: string, store = new MemoryAlertStore(systemClock)) {
  const config = parseConfig(
    `route: {receiver: r}\nreceivers: [{name: r}]\ninhibit_rules:\n${rules}\n`,
    'x.yml',
  );
  const inhibitor = new Inhibitor(config, store);
  inhibitor.start();
  return { inhibitor, store };
}

const firing = (labels: LabelSet) => testAlert(labels, { startsAt: 1, endsAt: NOW + 60_000 });

describe('Inhibitor', () => {
  const RULE = `
  - source_matchers: [severity="critical"]
    target_matchers: [severity="warning"]
    equal: [cluster]`;

  it.each([
    ['equal label values match', { severity: 'warning', cluster: 'a' }, true],
    ['equal label differs', { severity: 'warning', cluster: 'b' }, false],
    ['equal label missing on the target only', { severity: 'warning' }, false],
    ['target matchers fail', { severity: 'info', cluster: 'a' }, false],
  ])('%s', async (_name, target, muted) => {
    const { inhibitor, store } = setup(RULE);
    const source = firing({ alertname: 'S', severity: 'critical', cluster: 'a' });
    await store.put([source]);
    expect(inhibitor.mutedBy(target, NOW)).toEqual(muted ? [source.fingerprint] : []);
  });

  it('treats a label missing on both sides as equal', async () => {
    const { inhibitor, store } = setup(RULE);
    const source = firing({ severity: 'critical' });
    await store.put([source]);
    expect(inhibitor.mutedBy({ severity: 'warning' }, NOW)).toEqual([source.fingerprint]);
  });

  it('is fed from alerts already in the store when it starts', async () => {
    const store = new MemoryAlertStore(systemClock);
    const source = firing({ severity: 'critical', cluster: 'a' });
    await store.put([source]);
    const { inhibitor: ih } = setup(RULE, store);
    expect(ih.mutedBy({ severity: 'warning', cluster: 'a' }, NOW)).toEqual([source.fingerprint]);
  });

  it('ignores resolved sources, and gc drops them', async () => {
    const { inhibitor, store } = setup(RULE);
    await store.put([
      testAlert({ severity: 'critical', cluster: 'a' }, { startsAt: 1, endsAt: NOW - 1 }),
    ]);
    expect(inhibitor.mutedBy({ severity: 'warning', cluster: 'a' }, NOW)).toEqual([]);
    expect(inhibitor.mutedBy({ severity: 'warning', cluster: 'a' }, NOW - 10)).toHaveLength(1);
    expect(inhibitor.gc(NOW)).toBe(1);
    expect(inhibitor.mutedBy({ severity: 'warning', cluster: 'a' }, NOW - 10)).toEqual([]);
  });

  it('does not let an alert matching both sides inhibit itself', async () => {
    const { inhibitor, store } = setup(`
  - source_matchers: [alertname=~"A|B"]
    target_matchers: [alertname=~"A|B"]
    equal: [zone]`);
    const a = firing({ alertname: 'A', zone: 'z' });
    await store.put([a]);
    expect(inhibitor.mutedBy(a.labels, NOW)).toEqual([]);
    // Both sides match for both alerts: neither inhibits the other.
    await store.put([firing({ alertname: 'B', zone: 'z' })]);
    expect(inhibitor.mutedBy(a.labels, NOW)).toEqual([]);
  });

  it('still inhibits a two-sided target by a source that does not match the target side', async () => {
    const { inhibitor, store } = setup(`
  - source_matchers: [severity=~"critical|warning"]
    target_matchers: [severity="warning"]`);
    const critical = firing({ alertname: 'C', severity: 'critical' });
    await store.put([critical, firing({ alertname: 'W2', severity: 'warning' })]);
    expect(inhibitor.mutedBy({ alertname: 'W', severity: 'warning' }, NOW)).toEqual([
      critical.fingerprint,
    ]);
  });

  it('supports the deprecated match forms and no target matchers (matches all)', async () => {
    const { inhibitor, store } = setup(`
  - source_match: {alertname: Down}
    source_match_re: {dc: "eu-.*"}
    equal: [dc]`);
    const down = firing({ alertname: 'Down', dc: 'eu-1' });
    await store.put([down, firing({ alertname: 'Down', dc: 'us-1' })]);
    expect(inhibitor.mutedBy({ alertname: 'Other', dc: 'eu-1' }, NOW)).toEqual([down.fingerprint]);
    expect(inhibitor.mutedBy({ alertname: 'Other', dc: 'us-1' }, NOW)).toEqual([]);
  });

  it('uses target_match / target_match_re', async () => {
    const { inhibitor, store } = setup(`
  - source_matchers: [alertname=Down]
    target_match: {severity: warning}
    target_match_re: {service: "api|web"}`);
    await store.put([firing({ alertname: 'Down' })]);
    expect(inhibitor.mutedBy({ severity: 'warning', service: 'web' }, NOW)).toHaveLength(1);
    expect(inhibitor.mutedBy({ severity: 'warning', service: 'db' }, NOW)).toEqual([]);
  });

  it('stops listening after stop()', async () => {
    const { inhibitor, store } = setup(RULE);
    inhibitor.stop();
    await store.put([firing({ severity: 'critical', cluster: 'a' })]);
    expect(inhibitor.mutedBy({ severity: 'warning', cluster: 'a' }, NOW)).toEqual([]);
  });
});

describe('hostile regexes in inhibit rules', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const started = performance.now();
    const pattern = JSON.stringify(c.pattern);
    const matcher = JSON.stringify(`v=~"${escapeMatcherValue(c.pattern)}"`);
    // Patterns may match the empty string, which a missing label compares as: pin both sides.
    const { inhibitor, store } = setup(`
  - {source_matchers: [alertname="S"], source_match_re: {v: ${pattern}}, target_matchers: [t="1"]}
  - {source_matchers: [s="1"], target_matchers: [t="2", ${matcher}]}`);
    const source = firing({ alertname: 'S', v: c.value });
    const otherSource = firing({ alertname: 'S2', s: '1' });
    await store.put([source, otherSource]);
    const expected = (fp: string) => (c.matches ? [fp] : []);
    expect(inhibitor.mutedBy({ t: '1' }, NOW)).toEqual(expected(source.fingerprint));
    expect(inhibitor.mutedBy({ t: '2', v: c.value }, NOW)).toEqual(
      expected(otherSource.fingerprint),
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
