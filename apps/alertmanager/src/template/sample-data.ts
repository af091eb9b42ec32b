import type { Alert } from '../alerts/alert.model';
import { templateData } from './template-data';
import type { GoStruct } from './exec/values';
import { GO_ZERO_TIME } from '../time/go-zero-time';

const alert = (labels: Record<string, string>, endsAt: number): Alert => ({
  labels: { alertname: 'SampleAlert', severity: 'critical', ...labels },
  annotations: { summary: 'A sample alert', description: 'Rendered by check-config.' },
  startsAt: Date.UTC(2024, 0, 1),
  endsAt,
  updatedAt: Date.UTC(2024, 0, 1),
  generatorURL: 'http://prometheus.example:9090/graph',
  timeout: false,
  fingerprint: '0000000000000000',
});

/**
 * Data that exercises a template the way a notification does: one firing and one resolved
 * alert with `alertname`, `severity`, `summary` and `description`. `check-config` renders
 * every configured template field against it.
 */
export function sampleTemplateData(receiver: string): GoStruct {
  const now = Date.UTC(2024, 0, 1, 1);
  return templateData({
    receiver,
    groupLabels: { alertname: 'SampleAlert' },
    externalURL: 'http://alertmanager.example:9093',
    now,
    alerts: [
      alert({ instance: 'a:9100' }, GO_ZERO_TIME),
      alert({ instance: 'b:9100' }, now - 60_000),
    ],
  });
}
