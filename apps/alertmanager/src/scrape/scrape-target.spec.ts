import { join } from 'node:path';
import type { ScrapeConfig } from '../config';
import { Labels } from '../tsdb/labels';
import { withTargetLabels } from './sample-labels';
import { populateTarget, publicLabels } from './scrape-target';
import { readTargetFile, staticGroups } from './target-groups';
import { specScrapeConfig } from './testing/spec-scrape-config';

const TESTDATA = join(__dirname, 'testdata');

const job = (over: Partial<ScrapeConfig> = {}): ScrapeConfig =>
  specScrapeConfig({ jobName: 'redis', scrapeTimeoutMs: 10_000, ...over });

const keep = (labels: Labels) => labels;

describe('populateTarget', () => {
  it("adds the job's settings, defaults instance to the address and builds the URL", () => {
    const outcome = populateTarget(
      Labels.fromRecord({ __address__: '127.0.0.1:9121', __meta_filepath: '/x.json', env: 'prod' }),
      job({ params: { module: ['redis', 'extra'] }, metricsPath: '/probe', scheme: 'https' }),
      keep,
    );
    expect(outcome.kind).toBe('target');
    if (outcome.kind !== 'target') return;
    expect(outcome.target.labels.toRecord()).toEqual({
      __address__: '127.0.0.1:9121',
      __metrics_path__: '/probe',
      __param_module: 'redis',
      __scheme__: 'https',
      __scrape_interval__: '15s',
      __scrape_timeout__: '10s',
      env: 'prod',
      instance: '127.0.0.1:9121',
      job: 'redis',
    });
    expect(outcome.target.discoveredLabels.get('__meta_filepath')).toBe('/x.json');
    expect(outcome.target.url).toBe('https://127.0.0.1:9121/probe?module=redis&module=extra');
    expect(publicLabels(outcome.target.labels).toRecord()).toEqual({
      env: 'prod',
      instance: '127.0.0.1:9121',
      job: 'redis',
    });
  });

  it('keeps labels set by discovery, lets relabeling drop a target, and refuses one without address', () => {
    const own = populateTarget(
      Labels.fromRecord({ __address__: 'a:1', job: 'mine', instance: 'i' }),
      job(),
      keep,
    );
    expect(own.kind === 'target' && own.target.labels.get('job')).toBe('mine');
    expect(own.kind === 'target' && own.target.labels.get('instance')).toBe('i');
    expect(
      populateTarget(Labels.fromRecord({ __address__: 'a:1' }), job(), () => undefined).kind,
    ).toBe('dropped');
    expect(
      populateTarget(Labels.fromRecord({ __address__: 'a:1' }), job(), (l) =>
        l.without(['__address__']),
      ),
    ).toEqual({ kind: 'invalid', error: 'no address' });
  });
});

describe('withTargetLabels', () => {
  const target = Labels.fromRecord({ job: 'redis', instance: 'a:1' });
  it.each([
    [{ __name__: 'up' }, false, { __name__: 'up', instance: 'a:1', job: 'redis' }],
    [
      { __name__: 'x', job: 'app' },
      false,
      { __name__: 'x', exported_job: 'app', instance: 'a:1', job: 'redis' },
    ],
    [
      { __name__: 'x', job: 'app', exported_job: 'older' },
      false,
      {
        __name__: 'x',
        exported_exported_job: 'app',
        exported_job: 'older',
        instance: 'a:1',
        job: 'redis',
      },
    ],
    [{ __name__: 'x', job: 'app' }, true, { __name__: 'x', instance: 'a:1', job: 'app' }],
  ])('%j with honor_labels %s gives %j', (sample, honor, expected) => {
    expect(withTargetLabels(Labels.fromRecord(sample), target, honor).toRecord()).toEqual(expected);
  });
});

describe('target groups', () => {
  it('reads static configs and JSON and YAML target files', async () => {
    expect(
      staticGroups([{ targets: ['a:1'], labels: { x: 'y' } }])[0].targets[0].toRecord(),
    ).toEqual({
      __address__: 'a:1',
      x: 'y',
    });
    const json = join(TESTDATA, 'targets.json');
    const groups = await readTargetFile(json);
    expect(groups.flatMap((g) => g.targets.map((t) => t.toRecord()))).toEqual([
      { __address__: '127.0.0.1:9121', __meta_filepath: json, env: 'prod' },
      { __address__: '127.0.0.1:9122', __meta_filepath: json, env: 'prod' },
      { __address__: '127.0.0.1:9100', __meta_filepath: json },
    ]);
    const yml = join(TESTDATA, 'targets.yml');
    expect((await readTargetFile(yml))[0].targets[0].toRecord()).toEqual({
      __address__: '127.0.0.1:9200',
      __meta_filepath: yml,
      team: 'cache',
    });
  });

  it('refuses a target file with a bad label name or that does not exist, naming it', async () => {
    const bad = join(TESTDATA, 'bad-label.json');
    await expect(readTargetFile(bad)).rejects.toThrow(
      `${bad}: group 0: "bad-name" is not a valid label name`,
    );
    await expect(readTargetFile(join(TESTDATA, 'nope.json'))).rejects.toThrow(
      /^error reading file ".*nope.json": ENOENT/,
    );
  });
});
