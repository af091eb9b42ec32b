// Child process for the crash test: opens the metric store in argv[2] and appends one scrape of
// 200 series every few milliseconds (ten seconds of data each), checkpointing every 300 ms so
// closed chunks are being written to disk when it is killed; prints `ack <n>` once scrape n is
// durable.
require('../../../../test/support/register-typescript.js');

const { MetricStorage } = require('../../metric-storage.ts');
const { Labels } = require('../../labels.ts');

const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };
const series = Array.from({ length: 200 }, (_, i) =>
  Labels.fromRecord({ __name__: 'crash_test_value', series: String(i) }),
);

async function main() {
  const storage = await MetricStorage.open({
    dir: process.argv[2],
    retentionMs: 365 * 24 * 3_600_000,
    syncIntervalMs: 5,
    logger: silent,
  });
  process.stdout.write('ready\n');
  let checkpointing = false;
  let lastCheckpoint = Date.now();
  for (let n = 0; ; n++) {
    const appender = storage.appender();
    series.forEach((labels, i) => appender.add(labels, n * 10_000, n * 1000 + i));
    appender.commit();
    if (!checkpointing && Date.now() - lastCheckpoint > 300) {
      checkpointing = true;
      lastCheckpoint = Date.now();
      void storage.checkpoint(n * 10_000).finally(() => (checkpointing = false));
    }
    await storage.flush();
    process.stdout.write(`ack ${n}\n`);
    if (n % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
