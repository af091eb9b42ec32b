import { Matcher } from '../labels';
import type { Silence } from './silence';
import { SilenceStore } from './silence-store';

const NOW = Date.UTC(2026, 10, 24, 12);

function silence(id: string, updatedAt: number, comment: string): Silence {
  return {
    id,
    matchers: [new Matcher('=', 'alertname', 'Down')],
    startsAt: NOW - 1000,
    endsAt: NOW + 3_600_000,
    updatedAt,
    createdBy: 'test',
    comment,
  };
}

describe('SilenceStore.merge: the later update wins, as upstream merges', () => {
  it.each([
    ['a silence it does not hold', undefined, silence('s1', NOW, 'theirs'), true, 'theirs'],
    [
      'a later update',
      silence('s1', NOW, 'ours'),
      silence('s1', NOW + 1, 'theirs'),
      true,
      'theirs',
    ],
    [
      'an earlier update',
      silence('s1', NOW, 'ours'),
      silence('s1', NOW - 1, 'theirs'),
      false,
      'ours',
    ],
    ['the same update', silence('s1', NOW, 'ours'), silence('s1', NOW, 'theirs'), false, 'ours'],
  ] as const)('takes %s: %s', async (_name, held, incoming, changed, comment) => {
    const store = new SilenceStore();
    if (held) store.restore(held);
    expect(await store.merge(incoming)).toBe(changed);
    expect(store.get('s1')?.comment).toBe(comment);
    expect(store.mutedBy({ alertname: 'Down' }, NOW)).toEqual(['s1']);
  });

  it('tells listeners of its own changes, not of merged ones', async () => {
    const store = new SilenceStore(undefined, undefined, undefined, () => 'mine');
    const told: string[][] = [];
    store.onChange((changed) => told.push(changed.map((s) => s.id)));
    await store.merge(silence('theirs', NOW, 'from another replica'));
    const id = await store.set(
      {
        matchers: [new Matcher('=', 'alertname', 'Up')],
        startsAt: NOW,
        endsAt: NOW + 60_000,
        createdBy: 'me',
        comment: 'mine',
      },
      NOW,
    );
    await store.expire(id, NOW + 1);
    expect(told).toEqual([['mine'], ['mine']]);
  });
});
