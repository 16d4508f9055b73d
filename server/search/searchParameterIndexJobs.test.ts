import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { searchParameterIndexJobs } from './searchParameterIndexJobs.test-support';

// The replay on an embedded database (PGlite) of its own, which is one process's: the "other
// process" is a second Repository and indexer on it. searchParameterIndexJobs.native.test.ts
// replays it with separate connection pools on native PostgreSQL.
const database = embeddedTestDatabase('search-parameter-index-jobs');
searchParameterIndexJobs({ database, otherProcess: database });
