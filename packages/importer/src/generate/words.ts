/** Word lists the names are built from. Kept disjoint enough that templates rarely collide. */

const split = (text: string): readonly string[] => text.trim().split(/\s+/);

export const FIRST_NAMES = split(`
Marla Jonas Elise Tomas Nadia Rafael Ingrid Oskar Leona Mateo Freya Casper Ilse Bruno Noor Felix Sade Anton
Greta Dario Mira Luca Saskia Emil Yara Hugo Petra Viktor Alma Milo Lotte Ezra Kira Otis Maren Jules Talia Arlo
Esme Nico Wren Silas Ada Levi Juno Idris Cleo Ronan Maya Stellan Ines Theo Zora Kai Beatrix Marcus Liv Joaquin
Hana Soren Odile Tariq Vera Anders Rosa Dmitri Colette Amir Signe Lorenzo Elin Malik Frida Matteo Agnes Kofi
June Benedikt Selma Ravi Edith Milan Astrid Julien Nell Farid Irene Caleb Ottilie Desmond Lina Jasper Iris Omar
Maude Ruben Thea Cyrus Hazel Bastian Nina Moses Clara Elias Audra Lionel Suki Gideon Flora Ansel Dolores Piet
Marisol Corin Annika Reuben Eliza Tobias Lucia Wendell Sabine Lazlo Greer Ottavio Nova Hollis Rhea Dorian Gwen
`);

export const LAST_NAMES = split(`
Vance Ortiz Holloway Brandt Okafor Lindqvist Moreau Castillo Kowalski Achterberg Reyes Novak Sato Fischer Delacroix
Mbeki Halvorsen Quinn Varga Pereira Albrecht Mendez Nakamura Sorensen Costa Bianchi Keller Dubois Haas Romero Jansen
Weller Okoro Marchetti Falk Osei Lange Rivera Strand Hartmann Ivanova Salo Tanaka Brennan Adeyemi Voss Kaplan Morales
Whitaker Lund Bauer Farrow Ostrowski Pryce Esposito Nilsen Greer Castellano Hale Yilmaz Darko Ferreira Calloway Rios
Lachance Szabo Mercer Ekberg Oyelaran Baptiste Winter Solis Kessler Ward Abara Loren Fontaine Dalby Ambrose Sterling
Carrow Menon Pike Valdez Roth Sinclair Aalto Horvat Beaumont Kincaid Fairweather Santos Ibarra Thorne Wolff Galloway
`);

/** Syllables that combine into plausible surnames and stage names ("Hol" + "ley" → "Holley"). */
export const ONSETS = split(`Van Hol Mar Ash Bren Cal Dor Fen Gal Har Kel Lor Mor Nor Pem Quin Ros Sel Tal Wes Ald Bel Cor Dal Eld Gar Hux Lin Mer Sta`);
export const CODAS = split(`ce ley ton ford wick mont by ridge well ham ster ard ing son er dale more stead worth field`);

export const ADJECTIVES = split(`
Hollow Velvet Silver Quiet Golden Electric Paper Crystal Broken Amber Scarlet Lunar Distant Neon Wild Gentle Static
Crimson Pale Northern Frozen Hidden Burning Lonely Secret Rusty Cosmic Midnight Tender Restless Faded Sleeping Wandering
Copper Iron Savage Sunken Hazy Bright Dusky Ashen Feral Ivory Cobalt Tidal Solar Glass Marble Indigo Sacred Rolling
Magnetic Weightless Luminous Blue Black Violet Emerald Honey Salt Stone Western Eastern Drifting Falling Hungry Nervous
`);

export const PLURAL_NOUNS = split(`
Pines Wolves Rivers Lanterns Echoes Sparrows Ghosts Harbors Mirrors Horses Comets Shadows Tides Foxes Ravens Engines
Satellites Orchards Bells Embers Machines Hearts Islands Owls Coyotes Saints Strangers Kings Daughters Sons Animals Signals
Waves Valleys Cathedrals Fireflies Rockets Prophets Tigers Dunes Gardens Hounds Pilots Swans Thieves Waters Winds Stars
`);

export const NOUNS = split(`
Kestrel Harbor Meridian Lantern Orchid Falcon Ember Tundra Monsoon Quarry Atlas Cinder Heron Prism Delta Nomad Cipher
Vessel Aurora Basalt Canyon Drift Gale Hollow Juniper Lattice Mantra Nimbus Oracle Pylon Quartz Raven Signal Thicket Umbra
Vortex Willow Zephyr Beacon Cascade Dynamo Fathom Glacier Horizon Inlet Kelp Lagoon Magnet Oasis Plume Relic Spire Tarn
`);

export const GROUP_SUFFIXES = split(`Collective Ensemble Orchestra Trio Quartet Club Society Band Project Experience Sound System Unit`);

export const LABEL_WORDS = split(`
Northgate Halcyon Blackwater Redwood Greenhouse Lowland Highline Kingsway Riverside Westbound Eastside Southpaw Oakhurst
Ironbridge Seabright Moorland Fieldwork Longform Brightside Stillwater Clearwater Hillcrest Stonegate Marsh Harbourside
Saltmarsh Woodland Canalside Drumcliff Quayside Larkspur Wildflower Foxglove Thistle Heather Bramble Ashgrove Elmstead
`);

export const LABEL_PLACES = split(
  `Brick_Lane Canal_Street Dock_Road Mill_Lane Grove_Park Abbey_Road Church_Street Station_Road Market_Square Harbour_Walk Bridge_End Kings_Cross Hope_Street Union_Yard Factory_Row`,
).map((w) => w.replace('_', ' '));

export const LABEL_SUFFIXES = split(`Records Recordings Audio Music Tapes Sounds Editions Label Disques Schallplatten Imprint Phonograph Works Cuts`);

export const FESTIVAL_FIRST = split(`
Lowlands Kestrel Harbour Meadow Northern Summer Moonlight Riverside Sunrise Coastal Valley Highland Forest Desert
Island Lakeside Aurora Solstice Equinox Tidal Pine Ember Wildwood Open Field Dune Starlight Copper Glacier Hinterland
`);
export const FESTIVAL_SECOND = split(`Drift Fields Sound Waves Gathering Weekender Pulse Days Nights Echoes Shores Parade Sessions Rising Bloom`);
export const FESTIVAL_SUFFIXES = ['Festival', 'Open Air', 'Festival', '', '', 'Fest'];

export const TITLE_WORDS = split(`
Night Light Stockholm Echo Dream River Fire Glass Heart Signal Ocean Dust Gold Season Silence Motion Distance Shelter
Static Paradise Memory Winter Summer Horizon Machine Garden Nerve Ritual Mirror Parallel Orbit Tender Fever Velvet Ghost
Frequency Harbour Neon Drift Bloom Salt Wire Tide Hollow Season Radio Thunder Blossom Voltage Satellite Sanctuary Wild
`);
export const TITLE_PATTERNS = [
  '{A} {N}',
  'The {N} {M}',
  '{N} of {M}',
  '{N}',
  '{A} {N} EP',
  '{N} & {M}',
  'Songs for {N}',
  '{N} {M}',
  'In {N}',
  '{A} {M}',
  'Live at {P}',
  '{N} (Remixes)',
  'After the {N}',
  '{N} Vol. {K}',
  'Return to {N}',
  'Between {N} and {M}',
];
