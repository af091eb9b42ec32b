import { v2CorsHeaders, v2Preflight } from './cors';

const PAGE = 'https://grafana.example.com';
const VARY = ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'];

// Alertmanager 0.25's answers to the same requests (`curl` against Debian's prometheus-alertmanager).
describe('API v2 CORS', () => {
  it.each<[string, string | undefined, Record<string, string>]>([
    ['GET', PAGE, { Vary: 'Origin', 'Access-Control-Allow-Origin': '*' }],
    ['POST', PAGE, { Vary: 'Origin', 'Access-Control-Allow-Origin': '*' }],
    ['HEAD', PAGE, { Vary: 'Origin', 'Access-Control-Allow-Origin': '*' }],
    ['OPTIONS', PAGE, { Vary: 'Origin', 'Access-Control-Allow-Origin': '*' }],
    ['DELETE', PAGE, { Vary: 'Origin' }],
    ['GET', undefined, { Vary: 'Origin' }],
    ['GET', '', { Vary: 'Origin' }],
  ])('%s from %s', (method, origin, expected) => {
    expect(v2CorsHeaders(method, origin)).toEqual(expected);
  });

  it.each<[string, string | undefined, string, string | undefined, Record<string, unknown>]>([
    [
      'an allowed method',
      PAGE,
      'GET',
      undefined,
      { Vary: VARY, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET' },
    ],
    [
      'a method in lower case',
      PAGE,
      'get',
      undefined,
      { Vary: VARY, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET' },
    ],
    ['a method pages may not use', PAGE, 'PUT', undefined, { Vary: VARY }],
    ['DELETE (a silence)', PAGE, 'DELETE', undefined, { Vary: VARY }],
    [
      'allowed headers, named back in canonical form',
      PAGE,
      'POST',
      'x-requested-with, content-type',
      {
        Vary: VARY,
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'X-Requested-With, Content-Type',
      },
    ],
    [
      'headers listed without spaces',
      PAGE,
      'POST',
      'accept,origin',
      {
        Vary: VARY,
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Accept, Origin',
      },
    ],
    ['a header pages may not send', PAGE, 'POST', 'authorization', { Vary: VARY }],
    ['one header of several not allowed', PAGE, 'POST', 'Content-Type,X-Custom', { Vary: VARY }],
    ['no origin', undefined, 'POST', undefined, { Vary: VARY }],
  ])('a preflight asking %s', (_, origin, method, headers, expected) => {
    expect(v2Preflight(origin, method, headers)).toEqual(expected);
  });
});
