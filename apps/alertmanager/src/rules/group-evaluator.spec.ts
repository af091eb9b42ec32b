import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger } from '../logging/testing/recording-logger';
import { PromqlEngine } from '../promql';
import { Labels } from '../tsdb/labels';
import { MetricStorage } from '../tsdb/metric-storage';
import { firstSlotAfter, groupOffsetNs, nextSlot, slotAtOrBefore } from './evaluation-slots';
import { GroupEvaluator } from './group-evaluator';
import { parseRuleFile } from './rule-file';
import { InProcessRuleQueries, type RuleQueries } from './rule-queries';

const MINUTE = 60_000;
const RULES = `
groups:
  - name: redis
    interval: 1m
    rules:
      - record: job:up:sum
        expr: sum by (job) (up)
      - alert: RedisDown
        expr: job:up:sum{job="redis"} < 2
        for: 2m
        labels: {severity: critical, instance_count: "{{ $value }}"}
        annotations: {summary: "only {{ $value }} of redis is up ({{ $labels.job }})"}
`;

let dir: string;
let storage: MetricStorage;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rules-'));
  storage = await MetricStorage.open({
    dir,
    retentionMs: 3_600_000,
    syncIntervalMs: 5,
    logger: recordingLogger([]),
  });
});
afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

function evaluator() {
  const result = parseRuleFile(RULES);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return new GroupEvaluator(result.groups[0], MINUTE, {
    queries: new InProcessRuleQueries(new PromqlEngine(storage), storage),
    storage,
    externalLabels: { cluster: 'eu' },
    externalUrl: 'http://am:9093',
    resendDelayMs: MINUTE,
  });
}

/** `up` of two redis instances each minute; instance b is down from minute `downFrom` to `downTo`. */
function scrape(minute: number, downFrom: number, downTo: number) {
  const appender = storage.appender();
  for (const instance of ['a', 'b']) {
    const down = instance === 'b' && minute >= downFrom && minute <= downTo;
    appender.add(
      Labels.fromRecord({ __name__: 'up', job: 'redis', instance }),
      minute * MINUTE,
      down ? 0 : 1,
    );
  }
  appender.commit();
}

describe('GroupEvaluator', () => {
  it('records, raises the alert after for, sends it with expanded templates, resolves it', async () => {
    const group = evaluator();
    group.markRestored();
    const sent: string[] = [];
    const alertsSeries: string[] = [];
    for (let m = 0; m <= 8; m++) {
      scrape(m, 2, 5);
      const { alerts } = await group.evaluate(m * MINUTE);
      for (const a of alerts)
        sent.push(
          `${m}: ${a.labels.get('instance_count')} ${a.annotations['summary']} ends ${a.endsAt / MINUTE}`,
        );
      const active = storage.store
        .select([{ name: '__name__', type: '=', value: 'ALERTS', matches: (v) => v === 'ALERTS' }])
        .map((s) => s.samples(m * MINUTE, m * MINUTE))
        .filter((run) => run.t.length === 1 && run.stale?.[0] !== 1).length;
      alertsSeries.push(String(active));
    }
    // Pending at 2 and 3, firing from 4 (for 2m), sent every second minute, resolved at 6.
    expect(sent).toEqual([
      '4: 1 only 1 of redis is up (redis) ends 8',
      '6: 1 only 1 of redis is up (redis) ends 6',
      '8: 1 only 1 of redis is up (redis) ends 6',
    ]);
    expect(alertsSeries.join('')).toBe('001111000');
    const [rule] = group.rules;
    expect(rule.status).toMatchObject({ health: 'ok', lastError: '', lastEvaluation: 8 * MINUTE });
  });

  it('links each alert to its expression', async () => {
    const group = evaluator();
    scrape(0, 0, 0);
    scrape(2, 0, 2);
    await group.evaluate(0);
    const { alerts } = await group.evaluate(2 * MINUTE);
    expect(alerts[0].generatorUrl).toBe(
      'http://am:9093/graph?g0.expr=job%3Aup%3Asum%7Bjob%3D%22redis%22%7D+%3C+2&g0.tab=1',
    );
  });

  it('marks a rule whose query fails as err and keeps evaluating the others', async () => {
    const result = parseRuleFile(
      'groups:\n  - name: g\n    rules:\n      - record: r\n        expr: rate(up[5m])\n',
    );
    if (!result.ok) throw new Error();
    const bad = new GroupEvaluator(result.groups[0], MINUTE, {
      queries: new InProcessRuleQueries(new PromqlEngine(storage, { maxSamples: 0 }), storage),
      storage,
      externalLabels: {},
      externalUrl: '',
      resendDelayMs: MINUTE,
    });
    scrape(0, 9, 9);
    scrape(1, 9, 9);
    await bad.evaluate(MINUTE);
    expect(bad.rules[0].status).toMatchObject({
      health: 'err',
      lastError: 'query processing would load too many samples into memory in query execution',
    });
  });
});

describe('evaluation slots', () => {
  it('spreads groups by the hash of their file and name, within the interval', () => {
    const offset = groupOffsetNs('rules.yml', 'redis', MINUTE);
    expect(offset).toBeGreaterThanOrEqual(0n);
    expect(offset).toBeLessThan(BigInt(MINUTE) * 1_000_000n);
    expect(groupOffsetNs('rules.yml', 'redis', MINUTE)).toBe(offset);
    expect(groupOffsetNs('rules.yml', 'cache', MINUTE)).not.toBe(offset);
  });

  it('aligns evaluations to interval + offset and counts missed ones', () => {
    const offset = 15_000n * 1_000_000n;
    expect(slotAtOrBefore(130_000, MINUTE, offset)).toBe(75_000);
    expect(firstSlotAfter(130_000, MINUTE, offset)).toBe(135_000);
    expect(nextSlot(135_000, 200_000, MINUTE)).toEqual({ slot: 195_000, missed: 0 });
    expect(nextSlot(135_000, 330_000, MINUTE)).toEqual({ slot: 315_000, missed: 2 });
  });

  it.each([
    ['no query', 'up {{ $value }}', 'up 0', 1],
    ['a query', '{{ with query "sum(up)" }}{{ . | first | value }}{{ end }} up', '1 up', 2],
    [
      'a query built from another query',
      '{{ range query "up" }}{{ with query (printf "up{instance=%q} * 10" .Labels.instance) }}{{ . | first | value }} {{ end }}{{ end }}',
      '10 0 ',
      3,
    ],
    ['a query that fails', '{{ query "sum(" }}', 'error executing template', 2],
  ])(
    'expands templates with %s, answered in rounds (%s -> %s, %d calls)',
    async (_name, template, expected, calls) => {
      const result = parseRuleFile(
        `groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: sum(up) - 1\n        annotations: {text: '${template}'}\n`,
      );
      if (!result.ok) throw new Error(result.errors.join('\n'));
      const inner = new InProcessRuleQueries(new PromqlEngine(storage), storage);
      let asked = 0;
      const queries: RuleQueries = {
        queryAll: (exprs, t) => {
          asked++;
          return inner.queryAll(exprs, t);
        },
        lastSamples: (series, mint, maxt) => inner.lastSamples(series, mint, maxt),
      };
      const group = new GroupEvaluator(result.groups[0], MINUTE, {
        queries,
        storage,
        externalLabels: {},
        externalUrl: '',
        resendDelayMs: MINUTE,
      });
      group.markRestored();
      scrape(0, 0, 0);
      const { alerts } = await group.evaluate(0);
      expect(alerts).toHaveLength(1);
      expect(alerts[0].annotations['text']).toContain(expected);
      expect(asked).toBe(calls);
    },
  );
});
