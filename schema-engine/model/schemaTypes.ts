import type { SearchParameter } from '@medplum/fhirtypes';

/** One allowed type of an element (`ElementDefinition.type`). */
export interface ElementType {
  /** Type code: a primitive (`string`), a datatype (`HumanName`), `BackboneElement`, `Element` or a resource type. */
  code: string;
  /** Profiles the value must conform to (e.g. an Extension definition url). */
  profiles: string[];
  /** For Reference and canonical: allowed target profiles. */
  targetProfiles: string[];
}

/** A fixed or pattern value with the type named by its `fixed[x]` / `pattern[x]` key. */
export interface TypedValue {
  type: string;
  value: unknown;
}

export interface ElementBinding {
  strength: 'required' | 'extensible' | 'preferred' | 'example';
  valueSet?: string;
}

/** A FHIRPath invariant (`ElementDefinition.constraint`). */
export interface ElementConstraint {
  key: string;
  severity: 'error' | 'warning';
  expression: string;
  human: string;
}

export type DiscriminatorType = 'value' | 'pattern' | 'type';

export interface SlicingDiscriminator {
  type: DiscriminatorType;
  /** FHIRPath from the sliced element, `$this` for the element itself. */
  path: string;
}

/** One named slice of a sliced element. */
export interface SliceModel {
  name: string;
  /** The profile's one-line description of the slice (its element's `short`), e.g. 'Systolic Blood Pressure'. */
  short?: string;
  min: number;
  max: number;
  /** Types allowed in this slice (e.g. an Extension profile url in `profiles`). */
  types: ElementType[];
  fixed?: TypedValue;
  pattern?: TypedValue;
  /**
   * The slice's own constrained children, keyed by path relative to the slice (`url`, `value[x]`,
   * `coding`); values to set when a slice entry is created come from their fixed/pattern values.
   */
  elements: Map<string, ElementModel>;
}

export interface SlicingModel {
  discriminators: SlicingDiscriminator[];
  rules: 'closed' | 'open' | 'openAtEnd';
  ordered: boolean;
  slices: SliceModel[];
}

/** One element of a type or profile, as the screens, validator and form model use it. */
export interface ElementModel {
  /** Path relative to the type, e.g. `name`, `contact.name`, `value[x]`. */
  path: string;
  /** Last path segment without `[x]` (the JSON key stem of a choice). */
  name: string;
  min: number;
  /** Infinity for `*` and very large values. */
  max: number;
  /** min > 0. */
  required: boolean;
  /** The JSON holds an array (the base element's max is above 1), even when a profile narrows max to 1. */
  isArray: boolean;
  /** A choice element `[x]`: the JSON key is `name` + the capitalised type code. */
  isChoice: boolean;
  /** Allowed type codes (kept as plain strings for the screens); details in `typeDetails`. */
  types: string[];
  typeDetails: ElementType[];
  /** `contentReference` target path relative to the type (e.g. `item` for Questionnaire.item.item). */
  contentReference?: string;
  /** All target profiles of Reference/canonical types. */
  targetProfiles: string[];
  binding?: ElementBinding;
  short?: string;
  definition?: string;
  isModifier?: boolean;
  isSummary?: boolean;
  /** Raw fixed / pattern values (as in ElementSchema) and their typed forms. */
  fixed?: unknown;
  pattern?: unknown;
  fixedValue?: TypedValue;
  patternValue?: TypedValue;
  /** Set by the server, never edited in a form (see docs/schema-engine.md for the list and why). */
  readOnly: boolean;
  constraints: ElementConstraint[];
  slicing?: SlicingModel;
  /** Backbone / Element children defined inline (empty for datatype-typed elements: load the datatype). */
  children: ElementModel[];
}

/** A type or profile turned into the engine's model. */
export interface TypeSchema {
  /** The type name (`Patient`) — for a profile the base type. */
  type: string;
  name: string;
  title?: string;
  url?: string;
  kind: 'primitive-type' | 'complex-type' | 'resource' | 'logical';
  /** The profile url when the definition is a constraint (`derivation: constraint`). */
  profileUrl?: string;
  /** Root invariants (`Patient` element's constraints). */
  constraints: ElementConstraint[];
  /** Top-level and nested elements keyed by path relative to the type (slices excluded, see `slicing`). */
  elements: Map<string, ElementModel>;
  /** Top-level elements in definition order. */
  topLevel: ElementModel[];
}

/** A search parameter as the list screens use it. */
export interface SearchParameterModel {
  code: string;
  type: SearchParameter['type'];
  expression?: string;
  description?: string;
  target: string[];
  base: string[];
  resource: SearchParameter;
}
