import { describe, expect, it } from 'vitest';
import type { MasterData } from '../../schemas/records.js';
import { creditLinksInText, refLinks, withCreditLinks } from './links.js';

const record: MasterData = {
  master_id: 113,
  title: 'Moments {In} "Time"',
  year: 2002,
  main_release_id: 1,
  artists: [
    { cluster_id: 12901 * 4 + 1, slug: 'vince-watson', name: 'Vince } Watson', anv: 'V\\W "x" {', join: ',' },
    { cluster_id: 7 * 4 + 1, slug: 'b', name: 'B', anv: null, join: null },
  ],
  genres: ['Electronic'],
  styles: [],
  formats: ['Vinyl'],
  country: 'UK',
  labels: [{ cluster_id: 5 * 4 + 2, slug: 'bio-rhythm', name: 'Bio Rhythm', catno: 'BIO 001}' }],
  released: null,
  data_quality: null,
};

describe('credit links', () => {
  it('link each credited artist and label to its dossier in the version called', () => {
    expect(refLinks('https://x.example', '/api/v1', 12901 * 4 + 1)).toEqual({ dossier: `https://x.example/api/v1/artist/${12901 * 4 + 1}` });
    expect(refLinks('https://x.example', '/api/v2', 22)).toEqual({ dossier: 'https://x.example/api/v2/label/22' });
    const linked = withCreditLinks(record, 'https://x.example', '/api/v2');
    expect(linked.artists.map((a) => a._links)).toEqual([
      { dossier: `https://x.example/api/v2/artist/${12901 * 4 + 1}` },
      { dossier: `https://x.example/api/v2/artist/${7 * 4 + 1}` },
    ]);
    expect(linked.labels[0]?._links).toEqual({ dossier: 'https://x.example/api/v2/label/22' });
  });

  it('a serialized record gets the same bytes as serializing the linked record, whatever its names hold', () => {
    for (const base of ['/api/v1', '/api/v2']) {
      expect(creditLinksInText(JSON.stringify(record), 'http://localhost:8080', base)).toBe(
        JSON.stringify(withCreditLinks(record, 'http://localhost:8080', base)),
      );
    }
    const release = { release_id: 1, master_id: 113, title: 'x', country: null, released: null, formats: [], labels: record.labels, is_main_release: true };
    expect(creditLinksInText(JSON.stringify(release), 'http://h', '/api/v1')).toBe(JSON.stringify(withCreditLinks(release, 'http://h', '/api/v1')));
  });
});
