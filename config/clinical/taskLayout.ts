/** Task page sizes and limits (app-spec §9). */
export const TASK_CONTENT_MAX_WIDTH = 600;
export const TASK_ACTIONS_WIDTH = 250;
/** Details show this many answers of the focus response before "Show more". */
export const TASK_DETAIL_ANSWERS = 3;
/** A note's citation shows this many characters of its date (YYYY-MM-DD). */
export const TASK_NOTE_DATE_LENGTH = 10;
/** Tasks of a resource (app-spec §7). */
export const TASKS_OF_RESOURCE_COUNT = 100;
