import r4Model from 'fhirpath/fhir-context/r4';

/**
 * Plain-JavaScript walkers for the simple FHIRPath expressions that make up nearly every base
 * search parameter (issue 20: fhirpath.js was ~17 % of the server's CPU during an import, for
 * paths like `Observation.code`). Supported forms, alone or joined by `|`:
 *
 * - paths `Type.a.b.c` (and, for composite components, `a.b` from an item), arrays flattened;
 * - choice elements by their FHIRPath name (`Observation.value` → valueQuantity, valueString, …),
 *   resolved with fhirpath.js's own R4 model, so the variant and its type are the ones it finds;
 * - `(path as T)`, `path as T`, `.as(T)` (with fhirpath.js's "singleton on the left" error) and
 *   `.ofType(T)` for FHIR types;
 * - `.where(p = 'text')` and `.where(p.startsWith('text'))` on a plain element `p` (the second is
 *   what `expressionForType` makes of `resolve() is X`).
 *
 * The result must be exactly what fhirpath.js returns (the index rows depend on it; proven by
 * compiledPath.unit.test.ts over the Synthea fixtures). Where the data leaves the common case —
 * a primitive's `_element` (extensions, ids), a null inside an array, a contained resource, a
 * comparison against a non-string — the walker gives up (`undefined`) and the caller evaluates
 * that resource with fhirpath.js, so unusual data costs time, never correctness.
 */
export type CompiledPath = (input: unknown) => unknown[] | undefined;

interface FhirModel {
  choiceTypePaths: Record<string, string[]>;
  pathsDefinedElsewhere: Record<string, string>;
  type2Parent: Record<string, string>;
  path2Type: Record<string, string>;
  path2TypeWithoutElements: Record<string, string>;
  availableTypes: Set<string>;
}

const model = r4Model as unknown as FhirModel;

/** FHIRPath's System types: `ofType` converts FHIR primitives to these, which the walker does not model. */
const systemTypeNames = new Set([
  'Boolean',
  'String',
  'Integer',
  'Long',
  'Decimal',
  'Date',
  'DateTime',
  'Time',
  'Quantity',
]);

/**
 * FHIRPath's keywords and word operators: as element names they parse differently, if at all.
 * (`contains` is not one of them: the grammar reads it as a name after a dot, and
 * ValueSet.expansion.contains is one.)
 */
const operatorNames = new Set(['as', 'is', 'and', 'or', 'xor', 'implies', 'div', 'mod', 'in', 'true', 'false']);

type Step =
  | { kind: 'member'; name: string; atRoot?: boolean }
  | { kind: 'type'; name: string }
  | { kind: 'as'; type: string }
  | { kind: 'ofType'; type: string }
  | { kind: 'where'; property: string; test: (value: string) => boolean };

/** Where a node sits in the model: the path its children are looked up under, and its data type. */
interface Context {
  path: string;
  type: string | undefined;
}

interface Field {
  name: string;
  /** The `_name` sibling that carries a primitive's extensions and id. */
  underscored: string;
  next: Context;
}

/** How to read one element from an object: one field, or the first present variant of a choice. */
type Transition = Field[];

/** The walker gave up on this input: the caller evaluates it with fhirpath.js. */
class GiveUp {}
const giveUp = new GiveUp();

const contexts = new Map<string, Context>();

function contextFor(path: string, type: string | undefined): Context {
  const key = `${path}|${type ?? ''}`;
  let context = contexts.get(key);
  if (!context) {
    context = { path, type };
    contexts.set(key, context);
  }
  return context;
}

/** The context of a child found under `childPath` (as fhirpath.js's makeChildResNodes names it). */
function childContext(childPath: string): Context {
  return contextFor(model.path2TypeWithoutElements[childPath] ?? childPath, model.path2Type[childPath]);
}

/** The fields `property` of a node in `context` may be stored in (several for a choice element). */
function transitionFor(context: Context, property: string): Transition {
  let childPath = `${context.path}.${property}`;
  childPath = model.pathsDefinedElsewhere[childPath] ?? childPath;
  const variants = model.choiceTypePaths[childPath];
  if (variants) {
    return variants.map((suffix) => ({
      name: property + suffix,
      underscored: `_${property}${suffix}`,
      next: childContext(childPath + suffix),
    }));
  }
  return [
    {
      name: property,
      underscored: `_${property}`,
      next: childContext(property === 'extension' ? 'Extension' : childPath),
    },
  ];
}

function isType(type: string | undefined, wanted: string): boolean {
  if (type === undefined) throw giveUp;
  // Elements the model gives a System type to (ids, urls of extensions) compare by that name.
  if (type.startsWith('System.')) return type.slice('System.'.length) === wanted;
  for (let t: string | undefined = type; t !== undefined; t = model.type2Parent[t]) if (t === wanted) return true;
  return false;
}

/** Does a node of this context also match the name as a type (FHIRPath's root-level type test)? */
function nameIsType(context: Context, name: string): boolean {
  for (let t: string | undefined = context.type; t !== undefined; t = model.type2Parent[t]) if (t === name) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Parsing: only the forms above; anything else is "not compiled" (undefined).

class Unsupported {}

class Parser {
  private position = 0;
  constructor(private readonly text: string) {}

  parse(): Step[][] {
    const branches = [this.branch()];
    while (this.eat('|')) branches.push(this.branch());
    this.skipSpace();
    if (this.position !== this.text.length) throw new Unsupported();
    return branches;
  }

  private branch(): Step[] {
    let steps: Step[];
    if (this.eat('(')) {
      steps = this.typed();
      if (!this.eat(')')) throw new Unsupported();
    } else {
      steps = this.path(true);
      if (this.keyword('as')) steps.push({ kind: 'as', type: this.typeName() });
      return steps;
    }
    while (this.eat('.')) steps.push(this.invocation());
    return steps;
  }

  /** `path` or `path as Type`, inside parentheses. */
  private typed(): Step[] {
    const steps = this.path(true);
    if (this.keyword('as')) steps.push({ kind: 'as', type: this.typeName() });
    return steps;
  }

  private path(atRoot: boolean): Step[] {
    const steps: Step[] = [];
    const head = this.identifier();
    // A capitalised first name is FHIRPath's type test on the input (`Patient.name`, `Resource.id`).
    if (atRoot && /^[A-Z]/.test(head)) steps.push({ kind: 'type', name: head });
    else steps.push({ ...this.member(head), atRoot } as Step);
    while (this.peekDot()) {
      this.eat('.');
      steps.push(this.invocation());
    }
    return steps;
  }

  private invocation(): Step {
    const name = this.identifier();
    if (!this.eat('(')) return this.member(name);
    let step: Step;
    if (name === 'as') step = { kind: 'as', type: this.typeName() };
    else if (name === 'ofType') {
      const type = this.typeName();
      // fhirpath.js's ofType(String) also takes FHIR strings (System conversions, not modelled here);
      // Quantity names the FHIR type too, and ofType(Quantity) takes FHIR Quantities and their
      // profiles (Age, Duration, …) as isType does (collectionCast.ts writes `as Quantity` so).
      if (systemTypeNames.has(type) && type !== 'Quantity') throw new Unsupported();
      step = { kind: 'ofType', type };
    } else if (name === 'where') step = this.where();
    else throw new Unsupported();
    if (!this.eat(')')) throw new Unsupported();
    return step;
  }

  private where(): Step {
    const property = this.identifier();
    if (/^[A-Z]/.test(property) || property in Object.prototype) throw new Unsupported();
    let test: (value: string) => boolean;
    if (this.eat('=')) {
      const literal = this.string();
      test = (value) => value === literal;
    } else if (this.eat('.') && this.identifier() === 'startsWith' && this.eat('(')) {
      const prefix = this.string();
      if (!this.eat(')')) throw new Unsupported();
      // FHIRPath: an empty prefix gives an empty result, which `where` reads as false.
      test = prefix === '' ? () => false : (value) => value.startsWith(prefix);
    } else throw new Unsupported();
    return { kind: 'where', property, test };
  }

  private member(name: string): Step {
    // Keywords FHIRPath would read differently than an element name, and names every JavaScript
    // object has (an element named `constructor` would be found on any object).
    if (/^[A-Z]/.test(name) || operatorNames.has(name) || name in Object.prototype) {
      throw new Unsupported();
    }
    return { kind: 'member', name };
  }

  private typeName(): string {
    const name = this.identifier();
    if (this.peekDot()) throw new Unsupported(); // FHIR.Quantity, System.String: namespaces not modelled
    // fhirpath.js refuses a name that is no type at evaluation time: leave that error to it.
    // (A System name such as DateTime is valid; `as` compares it with the FHIR type's name, so
    // `value.as(DateTime)` takes no FHIR dateTime, exactly as in fhirpath.js.)
    if (!model.availableTypes.has(name) && !systemTypeNames.has(name)) throw new Unsupported();
    return name;
  }

  private identifier(): string {
    this.skipSpace();
    const match = /^[A-Za-z][A-Za-z0-9]*/.exec(this.text.slice(this.position));
    if (!match) throw new Unsupported();
    this.position += match[0].length;
    return match[0];
  }

  private string(): string {
    this.skipSpace();
    const match = /^'([^'\\]*)'/.exec(this.text.slice(this.position));
    if (!match) throw new Unsupported();
    this.position += match[0].length;
    return match[1];
  }

  private keyword(word: string): boolean {
    const match = new RegExp(`^\\s+${word}\\s+`).exec(this.text.slice(this.position));
    if (!match) return false;
    this.position += match[0].length;
    return true;
  }

  private peekDot(): boolean {
    return this.text[this.position] === '.';
  }

  private eat(token: string): boolean {
    const start = this.position;
    this.skipSpace();
    if (this.text.startsWith(token, this.position)) {
      this.position += token.length;
      return true;
    }
    this.position = start;
    return false;
  }

  private skipSpace(): void {
    while (this.position < this.text.length && /\s/.test(this.text[this.position])) this.position++;
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluation: each branch becomes a chain of walkers, depth first (for paths, filters and type
// tests that is the order of FHIRPath's step-by-step collections), cut at each `as`, which needs
// the whole collection before it.

/** Values with their contexts, side by side. */
interface Nodes {
  values: unknown[];
  contexts: Context[];
}

/** Hands one node to the rest of the chain, which adds what it yields to `out`. */
type Walker = (value: unknown, context: Context, out: Nodes) => void;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per context, what a step needs to know about it (contexts are few: usually one per step). */
function perContext<T>(make: (context: Context) => T): (context: Context) => T {
  const cache = new Map<Context, T>();
  let lastContext: Context | undefined;
  let last: T | undefined;
  return (context) => {
    if (context === lastContext) return last as T;
    let found = cache.get(context);
    if (found === undefined && !cache.has(context)) {
      found = make(context);
      cache.set(context, found);
    }
    lastContext = context;
    last = found;
    return found as T;
  };
}

/** One item of an element: fhirpath.js treats nulls, nested arrays and resources inside resources its own way. */
function checkItem(item: unknown): void {
  if (item === null || typeof item !== 'object') return;
  if (Array.isArray(item) || (item as Record<string, unknown>).resourceType !== undefined) throw giveUp;
}

function memberWalker(name: string, atRoot: boolean, next: Walker): Walker {
  const fieldsOf = perContext((context): Transition | null =>
    // At the root, FHIRPath first tests the name as the input's type (`code` from an item of type code).
    atRoot && nameIsType(context, name) ? null : transitionFor(context, name),
  );
  return (value, context, out) => {
    const fields = fieldsOf(context);
    if (!fields) throw giveUp;
    if (!isPlainObject(value)) {
      // A primitive (the walker never yields one with `_element` data) has no children, unless
      // the name is a property of the JavaScript value (a string's length), which fhirpath.js would read.
      const boxed = Object(value) as Record<string, unknown>;
      for (const field of fields) {
        if (boxed[field.name] !== undefined || boxed[field.underscored] !== undefined) throw giveUp;
      }
      return;
    }
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f];
      if (value[field.underscored] !== undefined) throw giveUp;
      const found = value[field.name];
      if (found === undefined) continue;
      if (Array.isArray(found)) {
        for (let i = 0; i < found.length; i++) {
          const item: unknown = found[i];
          // fhirpath.js keeps a null item as an empty node (it counts for `as`).
          if (item === null || item === undefined) throw giveUp;
          checkItem(item);
          next(item, field.next, out);
        }
      } else if (found !== null) {
        checkItem(found);
        next(found, field.next, out);
      }
      // The first variant of a choice that is present is the element, even when null.
      return;
    }
  };
}

function whereWalker(step: Extract<Step, { kind: 'where' }>, next: Walker): Walker {
  const fieldOf = perContext((context): Field | null => {
    const transition = transitionFor(context, step.property);
    // A choice element, or a name that is also the node's type, reads differently in FHIRPath.
    if (transition.length !== 1 || nameIsType(context, step.property)) return null;
    // Dates and times compare as FHIRPath dates, not as text.
    if (['date', 'dateTime', 'instant', 'time'].includes(transition[0].next.type ?? '')) return null;
    return transition[0];
  });
  return (value, context, out) => {
    if (!isPlainObject(value)) throw giveUp;
    const field = fieldOf(context);
    if (!field || value[field.underscored] !== undefined) throw giveUp;
    const found = value[field.name];
    if (found === undefined || found === null) return;
    // FHIRPath compares collections and other types by its own rules: leave them to it.
    if (typeof found !== 'string') throw giveUp;
    if (step.test(found)) next(value, context, out);
  };
}

function typeFilterWalker(type: string, next: Walker): Walker {
  const matches = perContext((context) => isType(context.type, type));
  return (value, context, out) => {
    if (matches(context)) next(value, context, out);
  };
}

function typeTestWalker(name: string, next: Walker): Walker {
  const matches = perContext((context) => nameIsType(context, name));
  return (value, context, out) => {
    if (!isPlainObject(value)) return;
    if (value.resourceType === name || matches(context)) next(value, context, out);
    else if (value[name] !== undefined) throw giveUp; // an element named like a type: FHIRPath would read it as one
  };
}

// Frozen: a push into it (a bug) throws instead of leaking contexts between evaluations.
const noContexts = Object.freeze([]) as unknown as Context[];

const collectValue: Walker = (value, _context, out) => {
  out.values.push(value);
};

const collectNode: Walker = (value, context, out) => {
  out.values.push(value);
  out.contexts.push(context);
};

function chain(steps: Step[], last: Walker): Walker {
  let next = last;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (step.kind === 'member') next = memberWalker(step.name, step.atRoot === true, next);
    else if (step.kind === 'where') next = whereWalker(step, next);
    else if (step.kind === 'ofType') next = typeFilterWalker(step.type, next);
    else if (step.kind === 'type') next = typeTestWalker(step.name, next);
    else throw new Error('as is compiled by segments');
  }
  return next;
}

/** A branch as its steps up to the first `as`, then one segment per `as` (its type and the steps after it). */
type Branch = (input: unknown, context: Context, out: Nodes) => void;

function compileBranch(steps: Step[]): Branch {
  const cuts = steps.flatMap((step, index) => (step.kind === 'as' ? [index] : []));
  if (cuts.length === 0) {
    const walk = chain(steps, collectValue);
    return (input, context, out) => walk(input, context, out);
  }
  const segments: { asType?: string; walk: Walker }[] = [];
  let start = 0;
  for (const [n, cut] of [...cuts, steps.length].entries()) {
    const first = steps[start];
    const asType = start > 0 && first.kind === 'as' ? first.type : undefined;
    const body = steps.slice(asType === undefined ? start : start + 1, cut);
    segments.push({ asType, walk: chain(body, n === cuts.length ? collectValue : collectNode) });
    start = cut;
  }
  return (input, context, out) => {
    let nodes: Nodes = { values: [input], contexts: [context] };
    for (let s = 0; s < segments.length; s++) {
      const { asType, walk } = segments[s];
      if (asType !== undefined) {
        if (nodes.values.length > 1) {
          // fhirpath.js's own error; extractIndexRows then indexes nothing for the parameter.
          throw new Error(`Expected singleton on left side of 'as', got ${nodes.values.length} items`);
        }
        if (nodes.values.length === 1 && !isType(nodes.contexts[0].type, asType)) return;
      }
      const target: Nodes = s === segments.length - 1 ? out : { values: [], contexts: [] };
      for (let i = 0; i < nodes.values.length; i++) walk(nodes.values[i], nodes.contexts[i], target);
      nodes = target;
    }
  };
}

/** The context of the input: a resource's own type, or the base path of a composite's item. */
type RootContext = (input: Record<string, unknown>) => Context | undefined;

function resourceContext(): (resourceType: string) => Context {
  let lastType: string | undefined;
  let last: Context | undefined;
  return (resourceType) => {
    if (resourceType !== lastType) {
      last = contextFor(resourceType, resourceType);
      lastType = resourceType;
    }
    return last as Context;
  };
}

function rootContextFor(base: string | undefined): RootContext | undefined {
  const ofResource = resourceContext();
  if (base === undefined) {
    return (input) => (typeof input.resourceType === 'string' ? ofResource(input.resourceType) : undefined);
  }
  // As fhirpath.js's compile() reads {base, expression}.
  let path = base.replace(/\[\d*]/g, '');
  if (Object.keys(model.pathsDefinedElsewhere).some((prefix) => path.startsWith(prefix))) return undefined;
  const type = model.availableTypes.has(path) ? path : model.path2Type[path];
  path = type === 'BackboneElement' || type === 'Element' ? path : (type ?? path);
  const baseContext = contextFor(path, type);
  return (input) => (typeof input.resourceType === 'string' ? ofResource(input.resourceType) : baseContext);
}

/**
 * Compiles `expression` (or a composite component's `{ base, expression }`) into a walker, or
 * returns undefined when it is not one of the supported forms (the caller uses fhirpath.js).
 * The walker returns undefined for an input it leaves to fhirpath.js.
 */
export function compilePath(expression: string | { base: string; expression: string }): CompiledPath | undefined {
  const text = typeof expression === 'string' ? expression : expression.expression;
  let branches: Branch[];
  try {
    branches = new Parser(text).parse().map(compileBranch);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const rootContext = rootContextFor(typeof expression === 'string' ? undefined : expression.base);
  if (!rootContext) return undefined;
  return (input) => {
    if (!isPlainObject(input)) return undefined;
    const context = rootContext(input);
    if (!context) return undefined;
    // `|` removes repeats in FHIRPath; these results keep them: the index rows are deduplicated
    // anyway, and dropping a repeat later in the list leaves the rows in the same order.
    // The last walker of every branch collects values only: no contexts array to allocate.
    const out: Nodes = { values: [], contexts: noContexts };
    try {
      for (let b = 0; b < branches.length; b++) branches[b](input, context, out);
    } catch (error) {
      if (error instanceof GiveUp) return undefined;
      throw error;
    }
    return out.values;
  };
}
