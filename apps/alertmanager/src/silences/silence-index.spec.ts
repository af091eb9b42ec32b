import { Matcher, matchesLabels, type LabelSet } from '../labels';
import { catastrophicCases } from '../re2/testdata/cases';
import { silenceState } from './silence';
import { SilenceStore } from './silence-store';
import { HOUR, silenceInput, T0 } from './testing/silence-input';

describe('silence matching', () => {
  it.each<[string, LabelSet, boolean]>([
    ['alertname="A"', { alertname: 'A' }, true],
    ['alertname="A"', { alertname: 'AB' }, false],
    ['alertname=~"A"', { alertname: 'AB' }, false],
    ['alertname=~"A.*"', { alertname: 'AB' }, true],
    ['alertname=~"B"', { alertname: 'AB' }, false],
    ['alertname=~"a|b"', { alertname: 'a|b' }, false],
    ['alertname=~"a|b"', { alertname: 'b' }, true],
    ['alertname="A", job="x"', { alertname: 'A' }, false],
    ['alertname="A", job="x"', { alertname: 'A', job: 'x' }, true],
    ['alertname="A", job=""', { alertname: 'A' }, true],
    ['alertname="A", job=~"x|"', { alertname: 'A' }, true],
    ['alertname="A", job!="x"', { alertname: 'A' }, true],
    ['alertname="A", job!="x"', { alertname: 'A', job: 'x' }, false],
    ['alertname="A", job!~"x.*"', { alertname: 'A', job: 'xy' }, false],
    ['alertname="A", job!~"x.*"', { alertname: 'A', job: 'yx' }, true],
    ['job!="x"', { alertname: 'Any' }, true],
    ['job!="x"', { job: 'x' }, false],
    ['severity=~"crit.*|page"', { severity: 'page' }, true],
  ])('%s on %j mutes: %p', async (matchers, labels, muted) => {
    const store = new SilenceStore();
    const id = await store.set(silenceInput(matchers), T0);
    expect(store.mutedBy(labels, T0)).toEqual(muted ? [id] : []);
  });

  it.each<[string, number, boolean]>([
    ['pending', T0 - 1, false],
    ['active', T0 + 1, true],
    ['expired', T0 + HOUR + 1, false],
  ])('a %s silence mutes: %p', async (_, now, muted) => {
    const store = new SilenceStore();
    const id = await store.set(silenceInput('a="1"'), T0);
    expect(store.mutedBy({ a: '1' }, now)).toEqual(muted ? [id] : []);
  });

  it('stops muting once expired, and lists every muting silence sorted', async () => {
    const store = new SilenceStore();
    const ids = [
      await store.set(silenceInput('a="1"'), T0),
      await store.set(silenceInput('a=~"1|2"'), T0),
      await store.set(silenceInput('b!="x"'), T0),
    ];
    expect(store.mutedBy({ a: '1' }, T0)).toEqual([...ids].sort());
    await store.expire(ids[0], T0);
    expect(store.mutedBy({ a: '1' }, T0 + 1)).toEqual([ids[1], ids[2]].sort());
  });

  it('the index finds exactly what checking every silence finds', async () => {
    const store = new SilenceStore();
    const shapes = [
      'a="{i}"',
      'a="{i}", b=~"x.*"',
      'b=~"{i}|z"',
      'a!="{i}", c="{i}"',
      'c=~".+", a=""',
    ];
    for (let i = 0; i < 50; i++) {
      const matchers = shapes[i % shapes.length].replace(/\{i\}/g, String(i % 7));
      await store.set(
        silenceInput(matchers, { startsAt: T0 + (i % 3) * HOUR, endsAt: T0 + 4 * HOUR }),
        T0,
      );
    }
    for (let i = 0; i < 200; i++) {
      const labels: Record<string, string> = { a: String(i % 9), b: i % 2 ? 'xy' : String(i % 7) };
      if (i % 3 === 0) labels['c'] = String(i % 7);
      const now = T0 + (i % 4) * HOUR;
      const expected = [...store.list()]
        .filter((s) => silenceState(s, now) === 'active' && matchesLabels(s.matchers, labels))
        .map((s) => s.id)
        .sort();
      expect(store.mutedBy(labels, now)).toEqual(expected);
    }
  });
});

describe('hostile regexes', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))(
    '%s mutes at once',
    async (_name, c) => {
      const started = performance.now();
      const store = new SilenceStore();
      // A pattern may match the empty string: the silence also needs a matcher that does not.
      const base = silenceInput('alertname="R"');
      const input = { ...base, matchers: [...base.matchers, new Matcher('=~', 'v', c.pattern)] };
      const id = await store.set(input, T0);
      expect(store.mutedBy({ alertname: 'R', v: c.value }, T0)).toEqual(c.matches ? [id] : []);
      expect(performance.now() - started).toBeLessThan(2000);
    },
  );
});
