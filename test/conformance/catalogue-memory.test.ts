import { createMemoryCatalogue } from '@catalogue/core/memory';
import { describeCatalogueConformance } from './catalogue-suite.js';
import { conformanceFixture } from './fixture.js';

describeCatalogueConformance('memory', conformanceFixture(), async (data) => ({ catalogue: createMemoryCatalogue(data), close: async () => undefined }), {
  exactFixture: true,
});
