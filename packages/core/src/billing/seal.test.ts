/**
 * Sealing (seal.ts) and dashboard tokens (tokens.ts): a sealed value opens only under its
 * secret and its row's context; a token is stored only as its hash.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../gate/hash.js';
import { keyIssuedMail, loginLinkMail } from './mail-templates.js';
import { fromBase64Url, seal, toBase64Url, unseal } from './seal.js';
import { LOGIN_TOKEN_TTL_MS, newToken, REVEAL_TTL_MS, SESSION_TTL_MS, tokenHash } from './tokens.js';

const SECRET = 's'.repeat(64);

describe('seal and unseal', () => {
  it('round-trips text under the same secret and context', async () => {
    const sealed = await seal(SECRET, 'ck_live_plaintext ünïcode', 'reveal:cust_1:key_1');
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await unseal(SECRET, sealed, 'reveal:cust_1:key_1')).toBe('ck_live_plaintext ünïcode');
  });

  it('a fresh IV each time: the same text seals differently, 12 bytes of IV + text + 16-byte tag', async () => {
    const a = await seal(SECRET, 'same', 'ctx');
    const b = await seal(SECRET, 'same', 'ctx');
    expect(a).not.toBe(b);
    expect(fromBase64Url(a)).toHaveLength(12 + 4 + 16);
    expect(Buffer.from(fromBase64Url(a).subarray(0, 12))).not.toEqual(Buffer.from(fromBase64Url(b).subarray(0, 12)));
  });

  it('does not open under another context (another row) or another secret', async () => {
    const sealed = await seal(SECRET, 'secret mail', 'outbox:mail_1');
    await expect(unseal(SECRET, sealed, 'outbox:mail_2')).rejects.toThrow();
    await expect(unseal('t'.repeat(64), sealed, 'outbox:mail_1')).rejects.toThrow();
    const bytes = fromBase64Url(sealed);
    bytes[20] = (bytes[20] as number) ^ 1;
    await expect(unseal(SECRET, toBase64Url(bytes), 'outbox:mail_1')).rejects.toThrow();
  });
});

describe('base64url', () => {
  it('uses the url alphabet without padding, and reads it back', () => {
    expect(toBase64Url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(toBase64Url(Uint8Array.from([0xff]))).toBe('_w');
    expect(toBase64Url(Uint8Array.from([0xfb, 0xef]))).toBe('--8');
    expect(toBase64Url(new Uint8Array(0))).toBe('');
    expect([...fromBase64Url('-_-_')]).toEqual([0xfb, 0xff, 0xbf]);
    expect([...fromBase64Url('_w')]).toEqual([0xff]);
    expect([...fromBase64Url('--8')]).toEqual([0xfb, 0xef]);
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect([...fromBase64Url(toBase64Url(all))]).toEqual([...all]);
  });
});

describe('tokens', () => {
  it('32 random bytes as base64url, and the hash that is stored', () => {
    const { token, hash } = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fromBase64Url(token)).toHaveLength(32);
    expect(hash).toBe(tokenHash(token));
    expect(hash).toBe(sha256Hex(`catalogue:token:${token}`));
    expect(newToken().token).not.toBe(token);
  });

  it('login links live 15 minutes, sessions 7 days, reveals 24 hours', () => {
    expect([LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS, REVEAL_TTL_MS]).toEqual([900_000, 604_800_000, 86_400_000]);
  });
});

describe('mail templates', () => {
  it('the key mail: the key, the plan’s quota and the dashboard link', () => {
    expect(keyIssuedMail('a@b.co', 'ck_live_KEY', 'self_serve_99', 'https://api.example')).toEqual({
      to: 'a@b.co',
      subject: 'Your Music Catalogue API key',
      text: [
        'Thanks for subscribing. Your API key:',
        '',
        '    ck_live_KEY',
        '',
        'Send it in the X-API-Key header. Your plan includes 50,000 calls a month.',
        'Keep it secret: never commit or log it. This e-mail is the only copy we send; if you lose it, rotate the key in the dashboard:',
        'https://api.example/dashboard',
      ].join('\n'),
    });
  });

  it('the sign-in mail: the link, once, 15 minutes', () => {
    expect(loginLinkMail('a@b.co', 'https://api.example/dashboard/login?token=t')).toEqual({
      to: 'a@b.co',
      subject: 'Sign in to your Music Catalogue dashboard',
      text: 'Use this link to sign in. It works once and expires in 15 minutes:\n\nhttps://api.example/dashboard/login?token=t\n\nIf you did not ask for it, ignore this e-mail.',
    });
  });
});
