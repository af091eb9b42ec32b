// Child process for the crash test: opens the alert store in argv[2] and puts one alert every few
// milliseconds, printing `ack <n>` once put() has resolved, until it is killed.
require('../../../../test/support/register-typescript.js');

const { openAlertStore } = require('../open-alert-store.ts');
const { fingerprint } = require('../../fingerprint.ts');

const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };

async function main() {
  const store = await openAlertStore({ dir: process.argv[2], clock: { now: Date.now }, logger: silent });
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) {
    const labels = { alertname: 'Crash', n: String(n) };
    const now = Date.now();
    await store.put([
      { labels, annotations: {}, startsAt: now, endsAt: now + 3_600_000, updatedAt: now, generatorURL: '', timeout: false, fingerprint: fingerprint(labels) },
    ]);
    process.stdout.write(`ack ${n}\n`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
