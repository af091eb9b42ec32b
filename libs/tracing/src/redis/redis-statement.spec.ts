import { serializeArgs, serializeResult, truncate } from './redis-arguments.serializer';
import { buildStatement, commandInfo } from './redis-statement';

describe('buildStatement', () => {
  it.each([
    ['get', ['user:1'], 'GET user:1', 'user:1'],
    ['SET', ['user:1', 'secret', 'EX', 10], 'SET user:1 ? ? ?', 'user:1'],
    ['mset', ['a', '1', 'b', '2'], 'MSET a ? b ?', undefined],
    ['del', ['a', 'b'], 'DEL a b', undefined],
    ['hset', [Buffer.from('h'), 'f', 'v'], 'HSET h ? ?', 'h'],
    ['eval', ['return 1', 2, 'k1', 'k2', 'arg'], 'EVAL ? ? k1 k2 ?', undefined],
    ['auth', ['user', 'password'], 'AUTH ? ?', undefined],
    ['hello', [3, 'AUTH', 'user', 'password'], 'HELLO ? ? ? ?', undefined],
    ['publish', ['news', 'payload'], 'PUBLISH news ?', undefined],
    ['subscribe', ['a', 'b'], 'SUBSCRIBE a b', undefined],
    ['config', ['SET', 'requirepass', 'pw'], 'CONFIG SET ? ?', undefined],
    ['client', ['SETNAME', 'web'], 'CLIENT SETNAME ?', undefined],
    ['ping', [], 'PING', undefined],
    ['json.set', ['doc', '$', '{}'], 'JSON.SET ? ? ?', undefined],
  ])('%s %j -> %s', (command, args, statement, key) => {
    expect(buildStatement(commandInfo(command), args)).toEqual({ statement, key });
  });

  it('names spans redis.<COMMAND> whatever the case given', () => {
    expect(commandInfo('hGetAll').spanName).toBe('redis.HGETALL');
  });
});

describe('serializeArgs', () => {
  it.each([
    ['get', ['k'], 100, '["k"]'],
    ['set', ['k', 'v'.repeat(50)], 20, '["k","vvvvvvvvvvv...'],
    ['auth', ['user', 'pw'], 100, '["?","?"]'],
    [
      'hello',
      ['3', 'AUTH', 'user', 'pw', 'SETNAME', 'web'],
      100,
      '["3","AUTH","?","?","SETNAME","web"]',
    ],
    [
      'migrate',
      ['h', 6379, 'k', 0, 5000, 'AUTH', 'pw'],
      100,
      '["h","6379","k","0","5000","AUTH","?"]',
    ],
    [
      'migrate',
      ['h', 6379, 'k', 0, 5000, 'AUTH2', 'u', 'pw'],
      100,
      '["h","6379","k","0","5000","AUTH2","?","?"]',
    ],
  ])('%s %j (max %d) -> %s', (command, args, max, expected) => {
    const text = serializeArgs(commandInfo(command), args, max);
    expect(text).toBe(expected);
    expect(text.length).toBeLessThanOrEqual(max);
  });
});

describe('serializeResult and truncate', () => {
  it.each([
    ['OK', 'OK'],
    [Buffer.from('bytes'), 'bytes'],
    [42, '42'],
    [null, 'null'],
    [['a', Buffer.from('b')], '["a","b"]'],
  ])('%j -> %s', (value, expected) => {
    expect(serializeResult(value, 100)).toBe(expected);
  });

  it('keeps short text and cuts long text to exactly max characters', () => {
    expect(truncate('abcd', 4)).toBe('abcd');
    expect(truncate('abcdef', 5)).toBe('ab...');
  });
});
