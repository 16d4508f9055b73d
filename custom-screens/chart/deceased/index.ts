// A deceased patient's chart: when they died and what is still open for them (docs/chart.md, "A patient who has died").
export { DeceasedNotice } from './DeceasedNotice';
export { deceasedNoticeShown } from './deceasedNoticeShown';
export { DeceasedTasksLine } from './DeceasedTasksLine';
