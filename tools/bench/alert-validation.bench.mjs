// Why the alert-ingest path keeps its own body decoder rather than class-validator: the cost of
// checking one `POST /api/v2/alerts` body of 1,000 alerts both ways, in process.
//
// - ours: `decodePostableAlerts` on the body's bytes, as the route does: Go's JSON scanner (for
//   Go's error texts), the schema checks with go-openapi's codes, and the alerts built;
// - class-validator: `JSON.parse`, each alert copied into a class decorated with the same checks
//   (labels and annotations string maps, RFC 3339 times, a URI generator URL), `validateSync` on
//   each. Its messages are not upstream's (go-swagger's codes and texts), so this side does less
//   than ours and would still need a translation of its errors.
import { fmt, median, requireFromRepo } from './bench-support.mjs';

const { decodePostableAlerts } = requireFromRepo(
  './apps/alertmanager/dist/api/v2/decode/decode-postable-alerts.js',
);
const cv = requireFromRepo('class-validator');

const ALERTS = Number(process.env.ALERTS ?? 1_000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

function body(n) {
  const now = Date.now();
  return Buffer.from(
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        labels: {
          alertname: 'HighLatency',
          instance: `host-${i % 50}:9121`,
          job: 'redis',
          i: `${i}`,
        },
        annotations: { summary: `latency on host-${i % 50}`, runbook: 'https://runbooks/latency' },
        startsAt: new Date(now - 60_000).toISOString(),
        endsAt: new Date(now + 300_000).toISOString(),
        generatorURL: `http://prometheus:9090/graph?g0.expr=latency&i=${i}`,
      })),
    ),
  );
}

/** The schema of a posted alert as class-validator sees it (decorators applied by hand in JS). */
// The class carries only its decorators, applied below as plain calls.
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
class PostableAlert {
  constructor(item) {
    Object.assign(this, item);
  }
}
function decorate(property, ...decorators) {
  for (const decorator of decorators) decorator(PostableAlert.prototype, property);
}
const stringMap = (property, required) =>
  decorate(
    property,
    ...(required ? [cv.IsDefined()] : [cv.IsOptional()]),
    cv.IsObject(),
    cv.ValidateBy({
      name: 'isStringMap',
      validator: {
        validate: (value) =>
          value !== null &&
          typeof value === 'object' &&
          Object.values(value).every((v) => typeof v === 'string'),
      },
    }),
  );
stringMap('labels', true);
stringMap('annotations', false);
decorate('startsAt', cv.IsOptional(), cv.IsRFC3339());
decorate('endsAt', cv.IsOptional(), cv.IsRFC3339());
decorate('generatorURL', cv.IsOptional(), cv.IsUrl({ require_tld: false }));

function withClassValidator(bytes) {
  const items = JSON.parse(bytes.toString('utf8'));
  let errors = 0;
  for (const item of items) {
    const alert = new PostableAlert(item);
    errors += cv.validateSync(alert, { forbidUnknownValues: true }).length;
  }
  if (errors > 0) throw new Error(`class-validator refused ${errors} fields`);
  return items.length;
}

function ours(bytes) {
  const decoded = decodePostableAlerts(bytes);
  if (!Array.isArray(decoded)) throw new Error(`refused: ${decoded.message}`);
  return decoded.length;
}

function measure(fn, bytes) {
  for (let i = 0; i < 20; i++) fn(bytes);
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    fn(bytes);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}

const bytes = body(ALERTS);
// Alternate the two, twice, so that neither has the machine to itself.
const results = { ours: [], classValidator: [] };
for (let pass = 0; pass < 2; pass++) {
  results.ours.push(measure(ours, bytes));
  results.classValidator.push(measure(withClassValidator, bytes));
}
const a = median(results.ours);
const b = median(results.classValidator);
console.log(
  `one body of ${ALERTS} alerts (${fmt(bytes.length / 1024, 0)} KiB), median of ${ROUNDS}`,
);
console.log(`  ours (Go's JSON scanner, schema, alerts built): ${fmt(a, 2)} ms`);
console.log(`  class-validator (JSON.parse, validateSync per alert): ${fmt(b, 2)} ms`);
console.log(`  ratio class-validator/ours: ${fmt(b / a, 2)}`);
