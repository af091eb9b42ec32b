import { headerProblem } from './security-headers';

describe('configurable response headers', () => {
  it.each([
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'deny'],
    ['X-Frame-Options', 'sameorigin'],
    ['X-XSS-Protection', '1; mode=block'],
    ['Content-Security-Policy', "default-src 'self'"],
  ])('allows %s: %s', (name, value) => {
    expect(headerProblem(name, value)).toBeUndefined();
  });

  it.each([
    ['Server', 'x', 'HTTP header "Server" can not be configured'],
    ['Content-Type', 'foo', 'HTTP header "Content-Type" can not be configured'],
    // Names are matched exactly, as the toolkit's map lookup does.
    ['x-frame-options', 'deny', 'HTTP header "x-frame-options" can not be configured'],
    ['constructor', 'x', 'HTTP header "constructor" can not be configured'],
    [
      'X-Frame-Options',
      'DENY',
      'invalid value for X-Frame-Options. Expected one of: ["deny" "sameorigin"], but got: "DENY"',
    ],
    [
      'X-Content-Type-Options',
      '',
      'invalid value for X-Content-Type-Options. Expected one of: ["nosniff"], but got: ""',
    ],
  ])('refuses %s: %s', (name, value, problem) => {
    expect(headerProblem(name, value)).toBe(problem);
  });
});
