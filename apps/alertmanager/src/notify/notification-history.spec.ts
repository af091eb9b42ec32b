import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamLogger } from '../logging/stream-logger';
import { NotificationHistory, type NotificationRecord } from './notification-history';

const logger = new StreamLogger('error', 'logfmt', () => undefined);
const HOUR = 3_600_000;

function sent(
  at: number,
  fields: Partial<NotificationRecord> = {},
): Omit<NotificationRecord, 'id'> {
  return {
    at,
    startedAt: at - 10,
    receiver: 'team',
    integration: 'webhook',
    index: 0,
    groupKey: '{}:{alertname="A"}',
    groupLabels: { alertname: 'A' },
    reason: 'first notification',
    alerts: [{ fingerprint: 'aaaa', status: 'firing', labels: { alertname: 'A' } }],
    attempts: 1,
    outcome: 'success',
    error: '',
    ...fields,
  };
}

describe('NotificationHistory', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'am-history-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it.each([
    [{}, ['3', '2', '1']],
    [{ receiver: 'ops' }, ['2']],
    [{ integration: 'email' }, ['3']],
    [{ outcome: 'failed' as const }, ['3']],
    [{ fingerprint: 'bbbb' }, ['2']],
    [{ groupKey: 'alertname="B"' }, ['2']],
    [{ limit: 2 }, ['3', '2']],
  ])('lists newest first, filtered by %j', async (filter, expected) => {
    const history = await NotificationHistory.open({
      maxRecords: 10,
      retention: HOUR,
      now: 0,
      logger,
    });
    history.record(sent(1000, { error: '1' }));
    history.record(
      sent(2000, {
        error: '2',
        receiver: 'ops',
        groupKey: '{}:{alertname="B"}',
        alerts: [{ fingerprint: 'bbbb', status: 'firing', labels: {} }],
      }),
    );
    history.record(sent(3000, { error: '3', integration: 'email', outcome: 'failed' }));
    expect(history.list({ limit: 10, ...filter }).map((r) => r.error)).toEqual(expected);
  });

  it('keeps the newest records up to its bound, and none older than the retention', async () => {
    const history = await NotificationHistory.open({
      maxRecords: 3,
      retention: HOUR,
      now: 0,
      logger,
    });
    for (let i = 1; i <= 5; i++) history.record(sent(i * 1000, { error: String(i) }));
    expect(history.list({ limit: 10 }).map((r) => r.error)).toEqual(['5', '4', '3']);
    await history.maintenance(3000 + HOUR + 1);
    expect(history.list({ limit: 10 }).map((r) => r.error)).toEqual(['5', '4']);
  });

  it('survives a restart, with what maintenance dropped still gone', async () => {
    const open = (now: number) =>
      NotificationHistory.open({ storagePath: dir, maxRecords: 3, retention: HOUR, now, logger });
    const first = await open(0);
    for (let i = 1; i <= 4; i++) first.record(sent(i * 1000, { error: String(i) }));
    await first.close();
    const second = await open(5000);
    expect(second.list({ limit: 10 }).map((r) => r.error)).toEqual(['4', '3', '2']);
    const [kept] = second.list({ limit: 1 });
    expect(kept).toEqual({ id: kept.id, ...sent(4000, { error: '4' }) });
    second.record(sent(6000, { error: '6', outcome: 'failed' }));
    await second.maintenance(6000);
    await second.close();
    expect((await readdir(dir)).sort()).toEqual(['notifications-1.log', 'notifications.snapshot']);
    const third = await open(7000);
    expect(third.list({ limit: 10 }).map((r) => [r.error, r.outcome])).toEqual([
      ['6', 'failed'],
      ['4', 'success'],
      ['3', 'success'],
    ]);
    await third.close();
  });
});
