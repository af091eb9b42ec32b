import { escapeForContext } from './html-escape';

describe('escapeForContext', () => {
  it.each<[string, string, string]>([
    // what was written before, the action's text, what is written
    ['<p>', '<b>', '&lt;b&gt;'],
    ['<a href="', 'javascript:x', '#ZgotmplZ'],
    ['<a href="', 'http://x/?a=b c', 'http://x/?a=b%20c'],
    ['<a title="x" href="http://h/?q=', 'a b', 'a%20b'],
    ["<a title='", '"', '&#34;'],
  ])('after %j writes %j as %j', (written, text, expected) => {
    expect(escapeForContext(written, text, text)).toBe(expected);
  });

  it('reads the context of a tag holding a long value in linear time', () => {
    const value = 'a'.repeat(200_000);
    const started = performance.now();
    expect(escapeForContext(`<a title="${value}" href="`, 'javascript:x', '')).toBe('#ZgotmplZ');
    expect(escapeForContext(`<a title="${value}" `, '<', '')).toBe('&lt;');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
