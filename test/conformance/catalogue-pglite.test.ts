import { createPostgresCatalogue } from '@catalogue/postgres';
import { describeCatalogueConformance } from './catalogue-suite.js';
import { createPgliteDatabase, loadCatalogue } from './databases.js';
import { conformanceFixture } from './fixture.js';

describeCatalogueConformance(
  'PGlite',
  conformanceFixture(),
  async (data) => {
    const db = await createPgliteDatabase();
    await loadCatalogue(db, data);
    return { catalogue: createPostgresCatalogue(db.sql), close: () => db.drop() };
  },
  { exactFixture: true },
);
