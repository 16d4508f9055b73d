/**
 * US Core's care plan category: every US Core care plan carries "assess-plan" (Assessment and Plan
 * of Treatment) beside the category that says what the plan is for, so it names no plan.
 */
export const US_CORE_CAREPLAN_CATEGORY_SYSTEM = 'http://hl7.org/fhir/us/core/CodeSystem/careplan-category';
