import type { CarePlan, CodeableConcept } from '@medplum/fhirtypes';
import { US_CORE_CAREPLAN_CATEGORY_SYSTEM } from '../../config/clinical/carePlanCategories';
import { formatCodeableConcept } from '../../data-provider/formatting';

/** A category that says what the plan is for, not only that it is a US Core plan. */
function namesThePlan(category: CodeableConcept): boolean {
  const codings = category.coding ?? [];
  return !!category.text?.trim() || codings.some((coding) => coding.system !== US_CORE_CAREPLAN_CATEGORY_SYSTEM);
}

/**
 * What a care plan is called: its title, else the category that says what it is for ("Diabetes
 * self management plan" — imported plans have no title), else its description, else its first
 * planned activity. Empty when none says.
 */
export function carePlanTitle(plan: CarePlan): string {
  const title = plan.title?.trim();
  if (title) return title;
  const category = (plan.category ?? []).filter(namesThePlan).map(formatCodeableConcept).find(Boolean);
  if (category) return category;
  const description = plan.description?.trim();
  if (description) return description;
  return (plan.activity ?? []).map((activity) => formatCodeableConcept(activity.detail?.code)).find(Boolean) ?? '';
}
