import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { searchParameterReplay } from './searchParameterReplay.test-support';

// The replay on the embedded database (PGlite); searchParameterReplay.native.test.ts on PostgreSQL.
searchParameterReplay(embeddedTestDatabase('search-parameter-replay'));
