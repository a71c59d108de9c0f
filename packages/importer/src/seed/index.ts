export { loadSampleCatalogue, sampleFiles, writeCatalogue } from './sample-demo.js';
