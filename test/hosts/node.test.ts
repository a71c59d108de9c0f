import { runFixtureAgainst } from './run-process-host.js';

runFixtureAgainst('node');
