import { createHash } from 'node:crypto';
import { pureHasher } from '@catalogue/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeHasher } from './native-hasher.js';

describe('the native hasher the hosts inject into the gate', () => {
  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

  it.each([
    ['one-shot crypto.hash', nativeHasher()],
    ['createHash fallback (runtimes without crypto.hash)', nativeHasher({ createHash })],
  ])("%s gives the same hashes as core's pure-JS default", (_name, hasher) => {
    expect(hasher.sha256Hex('abc')).toBe(ABC);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        expect(hasher.sha256Hex(text)).toBe(pureHasher.sha256Hex(text));
      }),
      { numRuns: 2000 },
    );
  });
});
