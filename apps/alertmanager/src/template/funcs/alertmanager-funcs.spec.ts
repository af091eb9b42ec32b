import { catastrophicCases } from '../../re2/testdata/cases';
import { TemplateSet } from '../template-set';
import { caseData } from '../testing/case-data';
import { RegexpCache } from './regexp-cache';

const render = (text: string, data: unknown): string =>
  TemplateSet.empty().render(text, caseData(data), { now: 0 });

describe('match and reReplaceAll with hostile regexes', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const started = performance.now();
    // Template functions search unanchored (Go's MatchString): anchor to compare with matchers.
    const data = { P: `^(?:${c.pattern})$`, V: c.value };
    const out = render('{{ match .P .V }}|{{ reReplaceAll .P "[$0]" .V }}', data);
    expect(out).toBe(c.matches ? `true|[${c.value}]` : `false|${c.value}`);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('RegexpCache', () => {
  it('compiles a pattern once and keeps the most recently used', () => {
    const cache = new RegexpCache();
    const first = cache.compile('a+');
    expect(cache.compile('a+')).toBe(first);
    for (let i = 0; i < 64; i++) cache.compile(`b${i}`);
    expect(cache.size).toBe(64);
    expect(cache.compile('a+')).not.toBe(first);
  });

  it('does not keep long patterns', () => {
    const cache = new RegexpCache();
    cache.compile(`x{2}${'a'.repeat(300)}`);
    expect(cache.size).toBe(0);
  });

  it("throws Go's message for a pattern Go refuses", () => {
    expect(() => new RegexpCache().compile('(')).toThrow(
      'error parsing regexp: missing closing ): `(`',
    );
  });
});
