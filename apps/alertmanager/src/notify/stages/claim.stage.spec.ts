import { Registry } from 'prom-client';
import type { Alert } from '../../alerts/alert.model';
import type { ClaimOutcome, NotificationClaims } from '../notification-claims';
import type { NotifyContext } from '../notify-context';
import { NotifyMetrics } from '../notify-metrics';
import { ClaimStage } from './claim.stage';

const NOW = Date.UTC(2026, 10, 24, 12);
const CTX = {
  now: NOW,
  deadline: NOW + 60_000,
  groupKey: '{}:{alertname="A"}',
  firing: ['f1'],
  resolved: [],
} as unknown as NotifyContext;
const ALERTS = [{ fingerprint: 'f1' }] as unknown as Alert[];
const RECEIVER = { groupName: 'hook', integration: 'webhook', idx: 0 };

/** Claims that answer as told and remember what was asked. */
function claimsAnswering(outcome: ClaimOutcome) {
  const asked: { key: string; ttlMs: number }[] = [];
  const released: string[] = [];
  const claims: NotificationClaims = {
    claim: async (key, ttlMs) => {
      asked.push({ key, ttlMs });
      return outcome;
    },
    release: async (key) => void released.push(key),
  };
  return { claims, asked, released };
}

describe('ClaimStage', () => {
  it.each([
    ['won', 1],
    ['lost', 0],
    ['unavailable', 1],
  ] as const)('when the claim is %s, sends %d time(s)', async (outcome, sends) => {
    const { claims, asked } = claimsAnswering(outcome);
    let sent = 0;
    const stage = new ClaimStage(
      claims,
      RECEIVER,
      { exec: async (ctx, alerts) => (sent++, { ctx, alerts }) },
      new NotifyMetrics(new Registry()),
    );
    const result = await stage.exec(CTX, ALERTS);
    expect(sent).toBe(sends);
    expect(result.alerts).toHaveLength(sends);
    expect(asked).toEqual([{ key: expect.stringMatching(/^[0-9a-f]{64}$/), ttlMs: 60_000 }]);
  });

  it('gives the claim back when the send fails, so another replica sends next time', async () => {
    const { claims, asked, released } = claimsAnswering('won');
    const stage = new ClaimStage(
      claims,
      RECEIVER,
      { exec: async () => Promise.reject(new Error('503')) },
      new NotifyMetrics(new Registry()),
    );
    await expect(stage.exec(CTX, ALERTS)).rejects.toThrow('503');
    expect(released).toEqual([asked[0].key]);
  });

  it('names the same notification the same way on every replica, and the next one anew', async () => {
    const keys: string[] = [];
    for (const ctx of [CTX, { ...CTX, now: NOW + 5 }, { ...CTX, previousNotification: NOW }]) {
      const { claims, asked } = claimsAnswering('lost');
      const stage = new ClaimStage(
        claims,
        RECEIVER,
        { exec: async (c, a) => ({ ctx: c, alerts: a }) },
        new NotifyMetrics(new Registry()),
      );
      await stage.exec(ctx as NotifyContext, ALERTS);
      keys.push(asked[0].key);
    }
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
