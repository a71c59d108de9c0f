/**
 * Discogs' real genre list with a realistic set of styles per genre, the era in which artists
 * of each genre typically start, the share of artists per genre, and the genre's "normal"
 * Bandcamp audience growth (per 30 days) that the breakout baseline compares against.
 */

export interface GenreProfile {
  readonly name: string;
  /** Relative share of artists. */
  readonly weight: number;
  readonly styles: readonly string[];
  /** Career start years are drawn from [from, to]. */
  readonly era: readonly [number, number];
  /** Typical monthly growth of followers on Bandcamp (0.02 = 2 % per 30 days). */
  readonly monthlyGrowth: number;
}

export const GENRES: readonly GenreProfile[] = [
  {
    name: 'Electronic',
    weight: 26,
    styles: [
      'Techno',
      'House',
      'Tech House',
      'Deep House',
      'Ambient',
      'Drum n Bass',
      'Dubstep',
      'Minimal',
      'Trance',
      'Electro',
      'IDM',
      'Downtempo',
      'Breakbeat',
      'Experimental',
      'Synth-pop',
      'Disco',
      'Progressive House',
    ],
    era: [1982, 2025],
    monthlyGrowth: 0.025,
  },
  {
    name: 'Rock',
    weight: 24,
    styles: [
      'Indie Rock',
      'Punk',
      'Post-Punk',
      'Shoegaze',
      'Alternative Rock',
      'Hard Rock',
      'Psychedelic Rock',
      'Garage Rock',
      'Pop Rock',
      'Prog Rock',
      'Heavy Metal',
      'New Wave',
      'Classic Rock',
      'Folk Rock',
      'Hardcore',
      'Noise',
    ],
    era: [1962, 2025],
    monthlyGrowth: 0.018,
  },
  {
    name: 'Pop',
    weight: 10,
    styles: ['Synth-pop', 'Europop', 'Ballad', 'Vocal', 'Indie Pop', 'Dream Pop', 'Chanson', 'Schlager', 'Soft Rock'],
    era: [1960, 2025],
    monthlyGrowth: 0.02,
  },
  {
    name: 'Hip Hop',
    weight: 8,
    styles: ['Boom Bap', 'Trap', 'Conscious', 'Instrumental', 'Cloud Rap', 'Gangsta', 'Jazzy Hip-Hop', 'Grime', 'Pop Rap'],
    era: [1984, 2025],
    monthlyGrowth: 0.03,
  },
  {
    name: 'Jazz',
    weight: 6,
    styles: ['Hard Bop', 'Modal', 'Free Jazz', 'Cool Jazz', 'Fusion', 'Contemporary Jazz', 'Soul-Jazz', 'Big Band', 'Bossa Nova'],
    era: [1945, 2024],
    monthlyGrowth: 0.012,
  },
  {
    name: 'Funk / Soul',
    weight: 6,
    styles: ['Soul', 'Funk', 'Disco', 'Rhythm & Blues', 'Neo Soul', 'Gospel', 'Boogie', 'RnB/Swing'],
    era: [1958, 2024],
    monthlyGrowth: 0.014,
  },
  {
    name: 'Folk, World, & Country',
    weight: 5,
    styles: ['Folk', 'Country', 'Bluegrass', 'African', 'Celtic', 'Americana', 'Acoustic', 'Flamenco'],
    era: [1950, 2025],
    monthlyGrowth: 0.015,
  },
  {
    name: 'Classical',
    weight: 3,
    styles: ['Baroque', 'Romantic', 'Contemporary', 'Modern', 'Opera', 'Neo-Classical', 'Choral'],
    era: [1950, 2022],
    monthlyGrowth: 0.008,
  },
  { name: 'Reggae', weight: 2.5, styles: ['Roots Reggae', 'Dub', 'Dancehall', 'Ska', 'Rocksteady', 'Lovers Rock'], era: [1962, 2024], monthlyGrowth: 0.012 },
  { name: 'Latin', weight: 2.5, styles: ['Salsa', 'Cumbia', 'Bolero', 'Samba', 'Reggaeton', 'Son', 'Tango'], era: [1955, 2025], monthlyGrowth: 0.016 },
  {
    name: 'Blues',
    weight: 2,
    styles: ['Chicago Blues', 'Delta Blues', 'Electric Blues', 'Blues Rock', 'Country Blues', 'Rhythm & Blues'],
    era: [1945, 2022],
    monthlyGrowth: 0.01,
  },
  { name: 'Stage & Screen', weight: 1.5, styles: ['Soundtrack', 'Score', 'Musical', 'Theme'], era: [1955, 2024], monthlyGrowth: 0.01 },
  { name: 'Non-Music', weight: 1, styles: ['Field Recording', 'Spoken Word', 'Comedy', 'Poetry', 'Interview'], era: [1960, 2024], monthlyGrowth: 0.008 },
  { name: "Children's", weight: 0.8, styles: ['Nursery Rhymes', 'Educational', 'Story'], era: [1955, 2024], monthlyGrowth: 0.006 },
  { name: 'Brass & Military', weight: 0.5, styles: ['Marches', 'Brass Band', 'Military', 'Pipe & Drum'], era: [1950, 2020], monthlyGrowth: 0.006 },
];

export const GENRE_WEIGHTS: readonly number[] = GENRES.map((g) => g.weight);

/**
 * Genres a planted breakout or one-to-watch is drawn from: large genres on Bandcamp, so a
 * handful of breakouts cannot move the genre's median growth, which the formula compares to.
 */
export const SIGNAL_GENRES: readonly GenreProfile[] = GENRES.filter((g) => ['Electronic', 'Rock', 'Pop', 'Hip Hop'].includes(g.name));
export const SIGNAL_GENRE_WEIGHTS: readonly number[] = SIGNAL_GENRES.map((g) => g.weight);

export function genreProfile(name: string): GenreProfile | undefined {
  return GENRES.find((g) => g.name === name);
}

/** Physical and digital formats as the dumps write them, with their usual descriptions. */
export interface FormatTemplate {
  readonly name: string;
  readonly descriptions: readonly string[];
  readonly weight: number;
  /** Years in which the format plausibly appears. */
  readonly years: readonly [number, number];
}

export const FORMATS: readonly FormatTemplate[] = [
  { name: 'Vinyl', descriptions: ['LP', 'Album'], weight: 20, years: [1950, 2026] },
  { name: 'Vinyl', descriptions: ['12"', '33 ⅓ RPM'], weight: 10, years: [1978, 2026] },
  { name: 'Vinyl', descriptions: ['12"', '33 ⅓ RPM', 'EP'], weight: 8, years: [1980, 2026] },
  { name: 'Vinyl', descriptions: ['7"', '45 RPM', 'Single'], weight: 8, years: [1955, 2026] },
  { name: 'Vinyl', descriptions: ['LP', 'Album', 'Reissue'], weight: 3, years: [1970, 2026] },
  { name: 'CD', descriptions: ['Album'], weight: 20, years: [1984, 2026] },
  { name: 'CD', descriptions: ['Compilation'], weight: 3, years: [1986, 2026] },
  { name: 'CD', descriptions: ['Maxi-Single'], weight: 3, years: [1988, 2012] },
  { name: 'CD', descriptions: ['EP'], weight: 2, years: [1988, 2026] },
  { name: 'Cassette', descriptions: ['Album'], weight: 6, years: [1968, 2026] },
  { name: 'File', descriptions: ['MP3', 'Album'], weight: 6, years: [2002, 2026] },
  { name: 'File', descriptions: ['FLAC', 'EP'], weight: 4, years: [2008, 2026] },
  { name: 'File', descriptions: ['WAV', 'Single'], weight: 3, years: [2008, 2026] },
];

/** Countries with weights close to the dump's release shares. */
export const COUNTRIES: readonly string[] = [
  'US',
  'UK',
  'Germany',
  'Japan',
  'France',
  'Netherlands',
  'Italy',
  'Canada',
  'Spain',
  'Sweden',
  'Australia',
  'Belgium',
  'Russia',
  'Poland',
  'Europe',
  'Brazil',
  'Norway',
  'Denmark',
  'Switzerland',
  'Finland',
  'Mexico',
  'Greece',
  'Ireland',
  'Portugal',
  'Austria',
  'Jamaica',
  'Argentina',
  'UK & Europe',
];
export const COUNTRY_WEIGHTS: readonly number[] = [25, 10, 9, 6, 4, 4, 4, 4, 3, 2.5, 2.5, 2, 2, 2, 2.5, 1.5, 1.2, 1.2, 1, 1, 1, 1, 0.8, 0.6, 0.6, 0.6, 0.6, 1];

/** Cities per festival country, for festivals. */
export const FESTIVAL_PLACES: readonly (readonly [country: string, city: string])[] = [
  ['Netherlands', 'Amsterdam'],
  ['Netherlands', 'Biddinghuizen'],
  ['Belgium', 'Boom'],
  ['Belgium', 'Ghent'],
  ['Germany', 'Berlin'],
  ['Germany', 'Cologne'],
  ['UK', 'London'],
  ['UK', 'Glastonbury'],
  ['UK', 'Manchester'],
  ['Spain', 'Barcelona'],
  ['Spain', 'Benicàssim'],
  ['France', 'Paris'],
  ['France', 'Rennes'],
  ['Denmark', 'Roskilde'],
  ['Sweden', 'Gothenburg'],
  ['Norway', 'Oslo'],
  ['US', 'Austin'],
  ['US', 'Chicago'],
  ['US', 'Detroit'],
  ['US', 'Indio'],
  ['Canada', 'Montreal'],
  ['Japan', 'Naeba'],
  ['Australia', 'Byron Bay'],
  ['Portugal', 'Porto'],
  ['Poland', 'Katowice'],
  ['Hungary', 'Budapest'],
  ['Serbia', 'Novi Sad'],
  ['Croatia', 'Tisno'],
  ['Ireland', 'Stradbally'],
];

export const DATA_QUALITIES: readonly string[] = ['Needs Vote', 'Correct', 'Complete and Correct', 'Needs Minor Changes'];
export const DATA_QUALITY_WEIGHTS: readonly number[] = [70, 22, 4, 4];
