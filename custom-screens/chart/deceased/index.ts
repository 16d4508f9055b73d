// A deceased patient's chart: when they died and what is still open for them (app-spec §2.2).
export { DeceasedNotice } from './DeceasedNotice';
