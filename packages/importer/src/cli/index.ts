export type { CatalogueDatabase, OpenDatabase } from './database.js';
export { openPostgresDatabase } from './database.js';
export { type InputFile, openInputFile } from './open-input-file.js';
export { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';
export { type SeedName, seedCatalogue, writeCatalogueData, writeCatalogueStream } from './seed.js';
export { TABLES, type Table, type TableRowOf, writeTable } from './tables.js';
