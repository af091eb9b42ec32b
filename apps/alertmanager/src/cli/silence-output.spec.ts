import { matcherArgs } from './silence-args';
import { formatSilences, matcherText, type ListedSilence } from './silence-output';

const silence: ListedSilence = {
  id: '92cba14f-2414-41ee-a1d2-8cd90e371ea3',
  status: { state: 'active' },
  updatedAt: '2026-11-21T03:52:28.000Z',
  comment: 'x',
  createdBy: 'root',
  startsAt: '2026-11-21T03:52:28.000Z',
  endsAt: '2026-11-21T04:52:28.000Z',
  matchers: [
    { isEqual: true, isRegex: false, name: 'alertname', value: 'Test' },
    { isEqual: false, isRegex: true, name: 'job', value: 'a.*' },
  ],
};

describe('silence output', () => {
  it.each<[string, string[]]>([
    [
      'simple',
      [
        'ID                                    Matchers                     Ends At                  Created By  Comment  ',
        '92cba14f-2414-41ee-a1d2-8cd90e371ea3  alertname="Test" job!~"a.*"  2026-11-21 04:52:28 UTC  root        x        ',
      ],
    ],
    [
      'extended',
      [
        'ID                                    Matchers                       Starts At                Ends At                  Updated At               Created By  Comment  ',
        '92cba14f-2414-41ee-a1d2-8cd90e371ea3  {alertname="Test",job!~"a.*"}  2026-11-21 03:52:28 UTC  2026-11-21 04:52:28 UTC  2026-11-21 03:52:28 UTC  root        x        ',
      ],
    ],
    ['json', [JSON.stringify([silence])]],
  ])('prints %s as amtool does', (output, lines) => {
    expect(formatSilences([silence], output, '2006-01-02 15:04:05 MST')).toEqual(lines);
  });

  it('prints only ids when quiet', () => {
    expect(formatSilences([silence], 'json', '', true)).toEqual([silence.id]);
  });

  it.each<[boolean, boolean, string]>([
    [false, true, 'a="v\\"q"'],
    [false, false, 'a!="v\\"q"'],
    [true, true, 'a=~"v\\"q"'],
    [true, false, 'a!~"v\\"q"'],
  ])('matcher isRegex=%p isEqual=%p prints %s', (isRegex, isEqual, text) => {
    expect(matcherText({ name: 'a', value: 'v"q', isRegex, isEqual })).toBe(text);
  });
});

describe('matcher arguments', () => {
  it.each<[string[], string[]]>([
    [['Test'], ['alertname="Test"']],
    [
      ['Test', 'job=x'],
      ['alertname="Test"', 'job="x"'],
    ],
    [
      ['job=~"a|b"', 'x!=1'],
      ['job=~"a|b"', 'x!="1"'],
    ],
  ])('%j parse as %j', (args, matchers) => {
    expect(matcherArgs(args).map(String)).toEqual(matchers);
  });

  it.each([[['job=x', 'Test']], [['a=~"("']]])('%j is an error', (args) => {
    expect(() => matcherArgs(args)).toThrow();
  });
});
