import { hasAllowedSan, subjectAltNames } from './client-sans';

describe('client certificate SANs', () => {
  it('reads the names Go compares, IPv6 in its short form', () => {
    expect(
      subjectAltNames(
        'IP Address:0:0:0:0:0:0:0:1, IP Address:127.0.0.1, DNS:a.test, email:x@y.test, URI:spiffe://td/x, DirName:CN=ignored, DNS:"odd, name"',
      ),
    ).toEqual(['::1', '127.0.0.1', 'a.test', 'x@y.test', 'spiffe://td/x', 'odd, name']);
  });

  it.each([
    ['DNS:client.test', ['client.test'], true],
    ['DNS:client.test, email:ops@example.test', ['ops@example.test'], true],
    ['IP Address:0:0:0:0:0:0:0:1', ['::1'], true],
    ['DNS:client.test', ['other.test'], false],
    [undefined, ['client.test'], false],
  ])('%s against %j: %s', (altNames, allowed, ok) => {
    expect(hasAllowedSan(altNames, allowed)).toBe(ok);
  });
});
