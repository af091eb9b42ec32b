import { buildMatchers, type MatcherInput } from './silence-validation';
import { SilenceStore } from './silence-store';
import { HOUR, silenceInput, T0 } from './testing/silence-input';

const m = (name: string, value: string, isRegex = false, isEqual = true): MatcherInput => ({
  name,
  value,
  isRegex,
  isEqual,
});

describe('silence validation', () => {
  it.each<[string, MatcherInput[], string]>([
    ['no matchers', [], 'silence invalid: at least one matcher required'],
    [
      'a bad label name',
      [m('a', 'b'), m('a-b', 'c')],
      'silence invalid: invalid label matcher 1: invalid label name "a-b"',
    ],
    [
      'a bad regex, quoted as sent',
      [m('a', '(', true)],
      'silence invalid: invalid label matcher 0: invalid regular expression "(": error parsing regexp: missing closing ): `(`',
    ],
  ])('refuses %s', (_, matchers, message) => {
    expect(() => buildMatchers(matchers)).toThrow(message);
  });

  it('builds the operators from isRegex and isEqual', () => {
    const built = buildMatchers([
      m('a', '1'),
      m('b', '2', false, false),
      m('c', '3', true),
      m('d', '4', true, false),
    ]);
    expect(built.map(String)).toEqual(['a="1"', 'b!="2"', 'c=~"3"', 'd!~"4"']);
  });

  it.each<[string, Parameters<typeof silenceInput>, string]>([
    [
      'start equal to end',
      ['a="b"', { endsAt: T0 }],
      'Failed to create silence: start time must be before end time',
    ],
    [
      'start after end',
      ['a="b"', { startsAt: T0 + 2 * HOUR }],
      'Failed to create silence: start time must be before end time',
    ],
    [
      'an end in the past',
      ['a="b"', { startsAt: T0 - 2 * HOUR, endsAt: T0 - 1 }],
      "Failed to create silence: end time can't be in the past",
    ],
    [
      'only an empty equality',
      ['a=""'],
      'silence invalid: at least one matcher must not match the empty string',
    ],
    [
      'only regexes matching ""',
      ['a=~".*", b=~"x|"'],
      'silence invalid: at least one matcher must not match the empty string',
    ],
    [
      'an empty author',
      ['a="b"', { createdBy: ' ' }],
      'silence invalid: createdBy must not be empty',
    ],
    ['an empty comment', ['a="b"', { comment: '' }], 'silence invalid: comment must not be empty'],
  ])('refuses %s', async (_, args, message) => {
    await expect(new SilenceStore().set(silenceInput(...args), T0)).rejects.toThrow(message);
  });

  it.each([['a!=""'], ['a!~".*"'], ['a=~".+"'], ['a="", b="x"']])(
    'accepts %s (negative matchers do not count as matching "")',
    async (matchers) => {
      await expect(new SilenceStore().set(silenceInput(matchers), T0)).resolves.toMatch(
        /^[0-9a-f-]{36}$/,
      );
    },
  );

  it('limits the number of silences that are not expired', async () => {
    const store = new SilenceStore(undefined, { maxSilences: 2, maxSilenceSizeBytes: 0 });
    const first = await store.set(silenceInput('a="1"'), T0);
    await store.set(silenceInput('a="2"'), T0);
    await expect(store.set(silenceInput('a="3"'), T0)).rejects.toThrow(
      'exceeded maximum number of silences: 2 (limit: 2)',
    );
    await store.expire(first, T0);
    await expect(store.set(silenceInput('a="3"'), T0 + 1)).resolves.toBeDefined();
  });

  it('limits the size of a silence', async () => {
    const store = new SilenceStore(
      undefined,
      { maxSilences: 0, maxSilenceSizeBytes: 10 },
      (s) => s.comment.length,
    );
    await expect(store.set(silenceInput('a="1"', { comment: 'x'.repeat(11) }), T0)).rejects.toThrow(
      'silence exceeded maximum size: 11 bytes (limit: 10 bytes)',
    );
    await expect(
      store.set(silenceInput('a="1"', { comment: 'x'.repeat(10) }), T0),
    ).resolves.toBeDefined();
  });

  it('answers 404 for an update of an unknown id', async () => {
    const error = await new SilenceStore()
      .set(silenceInput('a="1"', { id: 'nope' }), T0)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, message: 'silence not found' });
  });
});
