import type { CatalogueData } from '@catalogue/core';
import { createPostgresCatalogue } from '@catalogue/postgres';
import { generateCatalogue } from '../../packages/importer/src/generate/generate.js';
import { describeCatalogueConformance } from './catalogue-suite.js';
import { createPostgresDatabase, loadCatalogue } from './databases.js';
import { conformanceFixture } from './fixture.js';

async function build(data: CatalogueData) {
  const db = await createPostgresDatabase();
  // A failed load must not leave its database behind (afterAll has nothing to close yet).
  await loadCatalogue(db, data).catch(async (error: unknown) => {
    await db.drop();
    throw error;
  });
  return { catalogue: createPostgresCatalogue(db.sql), close: () => db.drop() };
}

describeCatalogueConformance('PostgreSQL (fixture)', conformanceFixture(), build, { exactFixture: true });
describeCatalogueConformance(
  'PostgreSQL (generated)',
  generateCatalogue({ scale: { artists: 120, labels: 25, festivals: 4, masters: 300, bandcampArtists: 60 } }),
  build,
);
