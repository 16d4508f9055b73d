// The rule lives with the problem list's constants, so that the server's demo seed shares it.
export { isCurrentCondition, isProblemListEntry } from '../../../../config/clinical/problemList';
