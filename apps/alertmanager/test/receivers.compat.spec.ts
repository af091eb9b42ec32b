import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXED_TIMES, freshTimes } from './support/notification-scenario';
import { runScenario, SCENARIO_PATHS } from './support/scenario-run';
import { UPSTREAM_BIN } from './support/upstream-alertmanager';
import { RECORDING_FILE, type Recording } from './support/upstream-recording';
import { describeWhen } from '@redisx/testing';

/**
 * The notification scenario run on upstream Alertmanager (Debian's 0.25) and on this server
 * side by side: every chat, paging, webhook and email request must be equal field by field.
 * With `RECORD_UPSTREAM_FIXTURES=1` upstream's requests are also written to
 * `testdata/upstream-notifications.json`, the fixture the e2e and template tests compare with.
 */
const describeWithUpstream = describeWhen(
  !!UPSTREAM_BIN,
  'upstream receiver comparison skipped: prometheus-alertmanager is not installed',
);

describeWithUpstream('receivers, side by side with upstream Alertmanager', () => {
  let dir: string;
  let theirs: Recording;
  let ours: Recording;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-receivers-'));
    // The fixture keeps its fixed times; a comparison gives both servers the same fresh ones.
    const recording = process.env.RECORD_UPSTREAM_FIXTURES === '1';
    const times = recording ? FIXED_TIMES : freshTimes(3_000);
    [theirs, ours] = await Promise.all([
      runScenario(true, dir, times),
      runScenario(false, dir, times),
    ]);
    if (recording) {
      await writeFile(RECORDING_FILE, `${JSON.stringify(theirs, null, 2)}\n`);
    }
  }, 60_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(SCENARIO_PATHS)('sends the same %s requests', (path) => {
    expect(ours.http[path]).toEqual(theirs.http[path]);
  });

  it('sends the same mails (headers, subject and text part)', () => {
    expect(ours.mails.map((m) => m.comparable)).toEqual(theirs.mails.map((m) => m.comparable));
  });
});
