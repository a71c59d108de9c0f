import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EmailSchema } from './email.js';

const accepts = (address: string) => v.safeParse(EmailSchema, address).success;

describe('EmailSchema: what RFC 5321 accepts in practice', () => {
  it('accepts apostrophes, plus tags, dots, digits and hyphens, subdomains and .localhost', () => {
    for (const address of [
      "o'brien@example.com",
      'first.last+tag@example.com',
      'a_b-c@mail.example.co.uk',
      'demo@catalogue.localhost',
      'ops@label.example',
      '  padded@example.com  ',
      `${'l'.repeat(64)}@example.com`,
    ])
      expect(accepts(address), address).toBe(true);
  });

  it('refuses what is no address, or not one an SMTP server takes as a dot-string', () => {
    for (const address of [
      '',
      'no-at.example.com',
      'a@b@example.com',
      '.dot@example.com',
      'dot.@example.com',
      'two..dots@example.com',
      'space @example.com',
      '"quoted"@example.com',
      'a@[192.0.2.1]',
      'a@-example.com',
      `${'l'.repeat(65)}@example.com`,
      `a@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(63)}.com`,
      'line\nbreak@example.com',
    ])
      expect(accepts(address), JSON.stringify(address)).toBe(false);
  });
});
