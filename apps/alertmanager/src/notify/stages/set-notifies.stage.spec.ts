import type { Alert } from '../../alerts/alert.model';
import { StreamLogger } from '../../logging/stream-logger';
import type { NflogEntry } from '../nflog-entry';
import { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import { SetNotifiesStage } from './set-notifies.stage';

const NOW = Date.UTC(2026, 0, 5, 12);
const RECEIVER = { groupName: 'hook', integration: 'webhook', idx: 0 };
const GROUP = '{}:{alertname="G"}';
const CTX = {
  now: NOW,
  groupKey: GROUP,
  repeatInterval: 3_600_000,
  firing: ['a'],
  resolved: ['b'],
} as unknown as NotifyContext;
const ALERTS = [{ fingerprint: 'a' }, { fingerprint: 'b' }] as Alert[];

describe('SetNotifiesStage', () => {
  it('counts a notification done only once the record of deliveries holds it too', async () => {
    const nflog = await NotificationLog.open({
      now: NOW,
      logger: new StreamLogger('error', 'logfmt', () => undefined),
    });
    const recorded: NflogEntry[] = [];
    let answer: () => void = () => undefined;
    const shared = {
      record: (entry: NflogEntry) => {
        recorded.push(entry);
        return new Promise<void>((resolve) => (answer = resolve));
      },
      attempt: async () => undefined,
      withdraw: async () => undefined,
      latest: async () => undefined,
    };
    let done = false;
    const exec = new SetNotifiesStage(nflog, RECEIVER, shared)
      .exec(CTX, ALERTS)
      .then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    answer();
    await exec;
    expect(recorded).toEqual([nflog.query(GROUP, RECEIVER)]);
    expect(recorded[0]).toEqual({
      groupKey: GROUP,
      receiver: RECEIVER,
      timestamp: NOW,
      firingAlerts: ['a'],
      resolvedAlerts: ['b'],
      expiresAt: NOW + 2 * 3_600_000,
    });
  });
});
