import { bcryptCost } from './bcrypt-hash';

const DIGEST = 'QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi';

describe('bcrypt hash check at startup', () => {
  it.each([
    [`$2y$10$${DIGEST}`, 10],
    [`$2a$04$${DIGEST}`, 4],
    [`$2b$31$${DIGEST}`, 31],
    [`$2$12$${DIGEST}`, 12],
  ])('reads the cost of %s', (hash, cost) => {
    expect(bcryptCost(hash)).toBe(cost);
  });

  it.each([
    ['doe', 'crypto/bcrypt: hashedSecret too short to be a bcrypted password'],
    [
      `#2y$10$${DIGEST}`,
      "crypto/bcrypt: bcrypt hashes must start with '$', but hashedSecret started with '#'",
    ],
    [
      `$3a$10$${DIGEST}`,
      "crypto/bcrypt: bcrypt algorithm version '3' requested is newer than current version '2'",
    ],
    [`$2y$xx$${DIGEST}`, 'strconv.Atoi: parsing "xx": invalid syntax'],
    [`$2y$32$${DIGEST}`, 'crypto/bcrypt: cost 32 is outside allowed range (4,31)'],
    [`$2y$03$${DIGEST}`, 'crypto/bcrypt: cost 3 is outside allowed range (4,31)'],
  ])('refuses %s with Go’s message', (hash, message) => {
    expect(() => bcryptCost(hash)).toThrow(message);
  });
});
