import type { Expression, Extension, QuestionnaireItem } from '@medplum/fhirtypes';

/** Extension URLs of the SDC implementation guide and FHIR core the renderer understands. */
export const SDC = 'http://hl7.org/fhir/uv/sdc/StructureDefinition/';
export const EXT = {
  itemControl: 'http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl',
  hidden: 'http://hl7.org/fhir/StructureDefinition/questionnaire-hidden',
  referenceResource: 'http://hl7.org/fhir/StructureDefinition/questionnaire-referenceResource',
  unitOption: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption',
  minValue: 'http://hl7.org/fhir/StructureDefinition/minValue',
  maxValue: 'http://hl7.org/fhir/StructureDefinition/maxValue',
  ordinalValue: 'http://hl7.org/fhir/StructureDefinition/ordinalValue',
  variable: 'http://hl7.org/fhir/StructureDefinition/variable',
  calculatedExpression: `${SDC}sdc-questionnaire-calculatedExpression`,
  initialExpression: `${SDC}sdc-questionnaire-initialExpression`,
  enableWhenExpression: `${SDC}sdc-questionnaire-enableWhenExpression`,
  launchContext: `${SDC}sdc-questionnaire-launchContext`,
} as const;

export function extension(item: { extension?: Extension[] } | undefined, url: string): Extension | undefined {
  return item?.extension?.find((e) => e.url === url);
}

/** The FHIRPath text of an expression extension (other languages are not evaluated). */
export function expressionOf(item: { extension?: Extension[] } | undefined, url: string): string | undefined {
  const value: Expression | undefined = extension(item, url)?.valueExpression;
  if (!value?.expression) return undefined;
  return value.language === undefined || value.language === 'text/fhirpath' ? value.expression : undefined;
}

/** The `variable` extensions of an item or the questionnaire, in order (name and FHIRPath). */
export function variablesOf(item: { extension?: Extension[] } | undefined): { name: string; expression: string }[] {
  return (item?.extension ?? [])
    .filter((e) => e.url === EXT.variable && e.valueExpression?.name && e.valueExpression.expression)
    .filter((e) => (e.valueExpression?.language ?? 'text/fhirpath') === 'text/fhirpath')
    .map((e) => ({ name: e.valueExpression?.name as string, expression: e.valueExpression?.expression as string }));
}

/** The itemControl code: page, radio-button, check-box, drop-down, autocomplete, ... */
export function itemControl(item: QuestionnaireItem | undefined): string | undefined {
  return extension(item, EXT.itemControl)?.valueCodeableConcept?.coding?.[0]?.code;
}

export function isHidden(item: QuestionnaireItem): boolean {
  return extension(item, EXT.hidden)?.valueBoolean === true;
}

/** Names of the launch context a questionnaire asks for (`patient`, `user`, `encounter`). */
export function launchContextNames(questionnaire: { extension?: Extension[] }): string[] {
  return (questionnaire.extension ?? [])
    .filter((e) => e.url === EXT.launchContext)
    .map((e) => {
      const name = e.extension?.find((inner) => inner.url === 'name');
      return name?.valueCoding?.code ?? name?.valueId ?? name?.valueString;
    })
    .filter((name): name is string => !!name);
}

export function numberLimit(item: QuestionnaireItem, url: string): number | undefined {
  const ext = extension(item, url);
  return ext?.valueInteger ?? ext?.valueDecimal;
}
