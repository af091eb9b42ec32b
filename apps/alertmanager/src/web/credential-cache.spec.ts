import { CREDENTIAL_CACHE_SIZE, CredentialCache } from './credential-cache';

describe('credential cache', () => {
  it('keeps outcomes, true and false', () => {
    const cache = new CredentialCache();
    cache.set('a', true);
    cache.set('b', false);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([true, false, undefined]);
  });

  it('drops a tenth of the entries, chosen at random, when full', () => {
    const picks = [0, 0.5, 0.99];
    let i = 0;
    const cache = new CredentialCache(CREDENTIAL_CACHE_SIZE, () => picks[i++ % picks.length]);
    for (let n = 0; n < CREDENTIAL_CACHE_SIZE; n++) cache.set(`k${n}`, true);
    cache.set('new', true);
    expect(cache.size).toBe(CREDENTIAL_CACHE_SIZE - 10 + 1);
    expect(cache.get('new')).toBe(true);
    // The first pick (0) dropped the oldest entry; the others fell further in.
    expect(cache.get('k0')).toBeUndefined();
  });

  it('holds at least one entry', () => {
    const cache = new CredentialCache(1);
    cache.set('a', true);
    cache.set('b', false);
    expect([cache.size, cache.get('a'), cache.get('b')]).toEqual([1, undefined, false]);
  });
});
