import { Registry } from 'prom-client';
import { ingestAlerts } from './alert-ingest';
import { fixedMuting } from './alert-status';
import { AlertsMetrics } from './alerts-metrics';
import { MemoryAlertStore } from './memory-alert-store';
import { GO_ZERO_TIME } from '../time/go-zero-time';

const NOW = 1_000_000;

it('counts received, invalid, and active/suppressed alerts at scrape time', async () => {
  const registry = new Registry();
  const store = new MemoryAlertStore({ now: () => NOW });
  const muting = fixedMuting([{ mutedBy: (l) => (l['severity'] === 'warning' ? ['s1'] : []) }]);
  const metrics = new AlertsMetrics(registry, store, muting, { now: () => NOW });
  const posted = (labels: Record<string, string>, endsAt = GO_ZERO_TIME) => ({
    labels,
    annotations: {},
    startsAt: GO_ZERO_TIME,
    endsAt,
    generatorURL: '',
  });
  const result = ingestAlerts(
    [
      posted({ alertname: 'A' }),
      posted({ alertname: 'B', severity: 'warning' }),
      posted({ alertname: 'C' }, NOW - 1),
      posted({}),
    ],
    NOW,
    300_000,
  );
  metrics.record(result);
  await store.put(result.valid);

  const text = await registry.metrics();
  const sample = (line: string) => expect(text).toContain(`${line}\n`);
  sample('alertmanager_alerts{state="active"} 1');
  sample('alertmanager_alerts{state="suppressed"} 1');
  sample('alertmanager_alerts_received_total{status="firing"} 3');
  sample('alertmanager_alerts_received_total{status="resolved"} 1');
  sample('alertmanager_alerts_invalid_total 1');
});
