import type { Alert } from '../../alerts/alert.model';
import { StreamLogger } from '../../logging/stream-logger';
import { GO_ZERO_TIME } from '../../time/go-zero-time';
import type { NflogEntry } from '../nflog-entry';
import { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { SharedDeliveries } from '../shared-deliveries';
import { sequence } from '../stage';
import { CatchUpStage } from './catch-up.stage';
import { DedupStage } from './dedup.stage';

const NOW = Date.UTC(2026, 0, 5, 12);
const RECEIVER = { groupName: 'hook', integration: 'webhook', idx: 0 };
const GROUP = '{}:{alertname="G"}';
const CTX = { now: NOW, groupKey: GROUP } as NotifyContext;
const ALERTS = [{ fingerprint: 'a' }] as Alert[];
const QUIET = new StreamLogger('error', 'logfmt', () => undefined);

/** G's entry sent `ago` ms before NOW by `by` (its firing alert), expiring `lives` ms later. */
function sent(by: string, ago: number, lives = 7_200_000): NflogEntry {
  return {
    groupKey: GROUP,
    receiver: RECEIVER,
    timestamp: NOW - ago,
    firingAlerts: [by],
    resolvedAlerts: [],
    expiresAt: NOW - ago + lives,
  };
}

/** G's entry sent `ago` ms before NOW by another replica: `firing` fired, `resolved` resolved. */
function notified(ago: number, firing: string[], resolved: string[]): NflogEntry {
  return { ...sent('', ago), firingAlerts: firing, resolvedAlerts: resolved };
}

/** An alert held here as firing (as in the flush's snapshot), last received `ago` ms before NOW. */
function firingHere(fingerprint: string, ago: number): Alert {
  return { fingerprint, endsAt: GO_ZERO_TIME, updatedAt: NOW - ago } as Alert;
}

/** A record of deliveries holding at most `entry`. */
function holding(entry: NflogEntry | undefined): SharedDeliveries {
  const nothing = async () => undefined;
  return {
    record: nothing,
    attempt: nothing,
    withdraw: nothing,
    latest: async () => entry && { entry, attempt: false },
  };
}

describe('CatchUpStage', () => {
  it.each([
    ['takes a delivery only the cluster knows of', undefined, sent('other', 1000), 'other'],
    ['takes a later delivery of the cluster', sent('local', 2000), sent('other', 1000), 'other'],
    ['keeps a later delivery of its own', sent('local', 1000), sent('other', 2000), 'local'],
    ['keeps its own when the cluster has none', sent('local', 1000), undefined, 'local'],
    ['ignores an expired delivery', undefined, sent('other', 2000, 1000), undefined],
  ])('%s', async (_case, local, shared, kept) => {
    const nflog = await NotificationLog.open({ now: NOW, logger: QUIET });
    if (local) await nflog.merge(local);
    const stage = new CatchUpStage(holding(shared), nflog, RECEIVER, QUIET);
    const result = await stage.exec(CTX, ALERTS);
    expect(result).toEqual({ ctx: CTX, alerts: ALERTS });
    expect(nflog.query(GROUP, RECEIVER)?.firingAlerts[0]).toBe(kept);
  });

  // Alerts G holds here (all firing), the cluster's latest entry, and what dedup then makes of
  // the flush: firing, resolved, and why it notifies (undefined: it stays quiet).
  it.each([
    [
      'leaves out of the firing set an alert resolved since by another replica',
      [firingHere('a', 60_000)],
      notified(1000, [], ['a']),
      [[], ['a'], undefined],
    ],
    [
      'keeps firing an alert received after that resolution (it fired again)',
      [firingHere('a', 500)],
      notified(1000, [], ['a']),
      [['a'], [], 'new alerts added'],
    ],
    [
      'keeps firing an alert the entry does not list as resolved',
      [firingHere('a', 60_000)],
      notified(1000, [], ['b']),
      [['a'], [], 'new alerts added'],
    ],
    [
      'keeps firing every alert when the cluster has no entry',
      [firingHere('a', 60_000), firingHere('b', 60_000)],
      undefined,
      [['a', 'b'], [], 'first notification'],
    ],
    [
      'does not repeat a resolution while the rest of the group still fires',
      [firingHere('a', 60_000), firingHere('b', 60_000)],
      notified(1000, ['b'], ['a']),
      [['b'], ['a'], undefined],
    ],
    [
      'reports the stale alert as resolved when the group notifies anyway',
      [firingHere('a', 60_000), firingHere('c', 500)],
      notified(1000, [], ['a']),
      [['c'], ['a'], 'new alerts added'],
    ],
  ] as const)('%s', async (_case, alerts, shared, [firing, resolved, reason]) => {
    const nflog = await NotificationLog.open({ now: NOW, logger: QUIET });
    const stages = sequence([
      new CatchUpStage(holding(shared), nflog, RECEIVER, QUIET),
      new DedupStage(nflog, RECEIVER, true),
    ]);
    const { ctx } = await stages.exec(CTX, [...alerts]);
    expect([ctx.firing, ctx.resolved, ctx.reason]).toEqual([firing, resolved, reason]);
  });

  it('ends a stale alert at the resolution it missed, never after the flush', async () => {
    const nflog = await NotificationLog.open({ now: NOW, logger: QUIET });
    const alert = firingHere('a', 60_000);
    const ahead = { ...notified(0, [], ['a']), timestamp: NOW + 2000 };
    for (const [entry, endsAt] of [
      [notified(1000, [], ['a']), NOW - 1000],
      [ahead, NOW],
    ] as const) {
      const stage = new CatchUpStage(holding(entry), nflog, RECEIVER, QUIET);
      const { alerts } = await stage.exec(CTX, [alert]);
      expect(alerts).toEqual([{ ...alert, endsAt }]);
    }
    expect(alert.endsAt).toBe(GO_ZERO_TIME);
  });
});
