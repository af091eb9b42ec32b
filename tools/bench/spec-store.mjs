// Writes the specification's metrics into our metric store on disk, as a server would have
// scraped them, so a benchmark can start the server on that `--storage.path`.
import { requireFromRepo } from './bench-support.mjs';
import { generateSamples } from './spec-metrics.mjs';

const { MetricStorage, Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/index.js');
const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };

/**
 * Appends `steps` scrapes of `series` from `start` (one commit per scrape) to the store in `dir`,
 * checkpoints and closes it.
 */
export async function writeSpecStore(dir, series, start, steps, stepMs) {
  const storage = await MetricStorage.open({
    dir,
    retentionMs: 24 * 3_600_000,
    syncIntervalMs: 50,
    logger: silent,
  });
  const labels = series.map((s) => Labels.fromRecord(s.labels));
  let appender = storage.appender();
  let filled = 0;
  generateSamples(series, start, steps, stepMs, (i, t, v) => {
    appender.add(labels[i], t, v);
    if (++filled === series.length) {
      filled = 0;
      appender.commit();
      appender = storage.appender();
    }
  });
  await storage.checkpoint(Date.now());
  await storage.close();
}
