import { join } from 'node:path';
import { Labels, MetricStorage } from '../../src/tsdb';

const STEP = 15_000;
const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };

/**
 * Writes a store of `series` counters `work_total{i, group}` (ten groups), one sample every 15 s
 * for `steps` steps ending at `end`, into `dir/data`, checkpointed and closed: a server started
 * on it has enough to make a query or a rule slow.
 */
export async function writeWorkStore(
  dir: string,
  series: number,
  steps: number,
  end: number,
): Promise<void> {
  const storage = await MetricStorage.open({
    dir: join(dir, 'data'),
    retentionMs: 24 * 3_600_000,
    syncIntervalMs: 10,
    logger: silent,
  });
  const labels = Array.from({ length: series }, (_, i) =>
    Labels.fromRecord({ __name__: 'work_total', i: `${i}`, group: `${i % 10}` }),
  );
  for (let k = 0; k < steps; k++) {
    const appender = storage.appender();
    for (let i = 0; i < series; i++)
      appender.add(labels[i], end - (steps - 1 - k) * STEP, k * (i + 1));
    appender.commit();
  }
  await storage.checkpoint(Date.now());
  await storage.close();
}

/** An Alertmanager configuration sending every alert to `url`'s `/hook` after a 1 s group wait. */
export function webhookConfig(url: string): string {
  return `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 1s
receivers:
  - name: hook
    webhook_configs:
      - url: ${url}/hook
`;
}
