// Go's golang.org/x/crypto/bcrypt limits and the length of an encoded hash ($2a$10$ + 53).
const MIN_COST = 4;
const MAX_COST = 31;
const MIN_HASH_LENGTH = 59;

/**
 * The cost of a bcrypt hash, checked as Go's `bcrypt.Cost` checks it when the toolkit validates
 * `basic_auth_users` at startup; throws an Error with Go's message for a malformed hash. The
 * messages quote at most the hash's prefix (version and cost), never the digest.
 */
export function bcryptCost(hash: string): number {
  if (hash.length < MIN_HASH_LENGTH) {
    throw new Error('crypto/bcrypt: hashedSecret too short to be a bcrypted password');
  }
  if (hash[0] !== '$') {
    throw new Error(
      `crypto/bcrypt: bcrypt hashes must start with '$', but hashedSecret started with '${hash[0]}'`,
    );
  }
  if (hash[1] > '2') {
    throw new Error(
      `crypto/bcrypt: bcrypt algorithm version '${hash[1]}' requested is newer than current version '2'`,
    );
  }
  // `$2$` has no minor version letter; `$2a$`, `$2b$` and `$2y$` have one.
  const start = hash[2] === '$' ? 3 : 4;
  const digits = hash.slice(start, start + 2);
  if (!/^[+-]?\d+$/.test(digits)) {
    throw new Error(`strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  }
  const cost = Number(digits);
  if (cost < MIN_COST || cost > MAX_COST) {
    throw new Error(
      `crypto/bcrypt: cost ${cost} is outside allowed range (${MIN_COST},${MAX_COST})`,
    );
  }
  return cost;
}
