import { describe, expect, it } from 'vitest';
import { assignSlugs, MAX_SLUG_BASE_LENGTH, slugify } from './slugs.js';

describe('slugify', () => {
  it('strips accents, lowercases and joins runs of other characters with one hyphen', () => {
    expect(slugify('Björk Nováková')).toBe('bjork-novakova');
    expect(slugify('  Sigur Rós!! (Live) ')).toBe('sigur-ros-live');
    expect(slugify('ＡＢＣ')).toBe('abc');
    expect(slugify('!!!')).toBe('');
  });

  it('transliterates every script into a readable slug (issue 12: not artist-<id>)', () => {
    // Cyrillic: ICAO Doc 9303 (iuliia)
    expect(slugify('Евгений Щемилин')).toBe('evgenii-shchemilin');
    expect(slugify('Сергей Курёхин')).toBe('sergei-kurekhin');
    expect(slugify('ДДТ')).toBe('ddt');
    // Greek, Japanese kana, Han (one syllable per character), Latin letters NFKD cannot strip
    expect(slugify('Σωκράτης Μάλαμας')).toBe('sokratis-malamas');
    expect(slugify('きゃりーぱみゅぱみゅ')).toBe('kiyaripamiyupamiyu');
    expect(slugify('坂本龍一')).toBe('ban-ben-long-yi');
    expect(slugify('Straße Ørsted Æon')).toBe('strasse-orsted-aeon');
    expect(slugify('Björk Guðmundsdóttir')).toBe('bjork-gudmundsdottir');
    // a name in two scripts
    expect(slugify('Кино & 東京')).toBe('kino-dong-jing');
    // decomposed input reads as the composed name
    expect(slugify('Bjo\u0308rk')).toBe('bjork');
  });

  it('keeps the -<id> suffix rule when two scripts transliterate alike', () => {
    const slugs = assignSlugs('artist', [
      { sourceId: 7347381, name: 'Евгений Щемилин' },
      { sourceId: 12, name: 'Evgenii Shchemilin' },
    ]);
    expect(slugs.get(12)).toBe('evgenii-shchemilin');
    expect(slugs.get(7347381)).toBe('evgenii-shchemilin-7347381');
  });

  it('caps very long names so the slug stays a valid path key', () => {
    const slug = slugify('a '.repeat(300));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_BASE_LENGTH);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('assignSlugs', () => {
  it('gives the lowest source id the base and suffixes the others with their id', () => {
    const slugs = assignSlugs('artist', [
      { sourceId: 15, name: 'Same Name' },
      { sourceId: 14, name: 'same  name' },
      { sourceId: 20, name: 'Sáme Name' },
      { sourceId: 3, name: 'Other' },
    ]);
    expect(slugs.get(14)).toBe('same-name');
    expect(slugs.get(15)).toBe('same-name-15');
    expect(slugs.get(20)).toBe('same-name-20');
    expect(slugs.get(3)).toBe('other');
  });

  it('prefixes the kind when a name has no letter', () => {
    const slugs = assignSlugs('label', [
      { sourceId: 7, name: '123' },
      { sourceId: 8, name: '!!!' },
      { sourceId: 9, name: '123' },
    ]);
    expect(slugs.get(7)).toBe('label-123');
    expect(slugs.get(8)).toBe('label-8');
    expect(slugs.get(9)).toBe('label-123-9');
    for (const slug of slugs.values()) expect(slug).toMatch(/^(?=[a-z0-9-]*[a-z])[a-z0-9-]+$/);
  });
});
