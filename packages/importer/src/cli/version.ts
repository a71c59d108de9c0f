/** `catalogue --version`: the version of @catalogue/importer, read from its package.json so a release needs no second edit. */
import manifest from '../../package.json' with { type: 'json' };

export const VERSION: string = manifest.version;
