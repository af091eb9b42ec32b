import { parseMediaType } from './media-type';

describe('parseMediaType', () => {
  // Verdicts and messages of Go's mime.ParseMediaType.
  it.each([
    ['application/json', { mediaType: 'application/json' }],
    [' Application/JSON ; charset=utf-8', { mediaType: 'application/json' }],
    ['application/json; charset="utf-8"; q=1', { mediaType: 'application/json' }],
    ['application/json;', { mediaType: 'application/json' }],
    ['text', { mediaType: 'text' }],
    ['', { error: 'mime: no media type' }],
    ['/json', { error: 'mime: no media type' }],
    ['text json', { error: 'mime: expected slash after first token' }],
    ['text/', { error: 'mime: expected token after slash' }],
    ['a/b/c', { error: 'mime: unexpected content after media subtype' }],
    ['application/json;;', { error: 'mime: invalid media parameter' }],
    ['application/json; charset', { error: 'mime: invalid media parameter' }],
    ['application/json; charset="utf-8', { error: 'mime: invalid media parameter' }],
    ['application/json; a=1; A=2', { error: 'mime: duplicate parameter name' }],
  ])('%j', (value, expected) => {
    expect(parseMediaType(value)).toEqual(expected);
  });
});
