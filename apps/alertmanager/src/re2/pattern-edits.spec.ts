import { applyEdits, sourceQuote, type PatternEdit } from './pattern-edits';

// `(?P<n>a)(?P<n>b)[[:x` with its second name dropped and the class's `[:` escaped.
const SOURCE = '(?P<n>a)(?P<n>b)[[:x';
const EDITS: PatternEdit[] = [
  { start: 8, end: 14, text: '(' },
  { start: 17, end: 18, text: '\\[' },
];
const EDITED = '(?P<n>a)(b)[\\[:x';

describe('pattern edits', () => {
  it('applies edits in order', () => {
    expect(applyEdits(SOURCE, EDITS)).toBe(EDITED);
    expect(applyEdits(SOURCE, [])).toBe(SOURCE);
  });

  it.each([
    // what re2js quotes from the edited pattern, what Go quotes from the source
    [EDITED, SOURCE],
    ['[\\[:x', '[[:x'],
    ['(b)[\\[:x', '(?P<n>b)[[:x'],
    [':x', ':x'],
    ['', ''],
    ['(?P<n>a)', '(?P<n>a)'],
  ])('%j is %j in the source', (quoted, expected) => {
    expect(sourceQuote(quoted, SOURCE, EDITED, EDITS)).toBe(expected);
  });
});
