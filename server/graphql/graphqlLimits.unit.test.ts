import type { SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import { Kind, parse, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { buildFhirGraphqlSchema, buildFhirGraphqlTypes } from './fhirGraphqlSchema';
import { budgeted, checkQueryShape, GraphqlBudget, graphqlLimits, selectionWidth } from './graphqlLimits';

/** `fragment F{n}` spreads F{n-1} twice under two aliases: 2^n selections in n lines. */
function fragmentBomb(levels: number): string {
  let text = 'fragment F0 on P { id }\n';
  for (let i = 1; i <= levels; i++) text += `fragment F${i} on P { a: p { ...F${i - 1} } b: p { ...F${i - 1} } }\n`;
  return text;
}

describe('checkQueryShape', () => {
  it('counts a fragment bomb in as many steps as it has fragments, and refuses it', () => {
    // 2^60 selections: counted exactly, this would never finish.
    const bomb = parse(`{ p { ...F60 } }\n${fragmentBomb(60)}`);
    expect(checkQueryShape(bomb, { ...graphqlLimits, maxDepth: 100 })).toBe(
      'The query selects more than 20000 fields (fragments expanded)',
    );
    expect(checkQueryShape(parse(`{ p { ...F10 } }\n${fragmentBomb(10)}`), { ...graphqlLimits, maxDepth: 100 })).toBe(
      undefined,
    );
  });

  it('measures depth through fragments, and refuses nesting past what it walks', () => {
    // A fragment of a field of the next: p, then the fragments' own p, then id.
    const nested = (levels: number) => {
      let text = `{ p { ...D${levels} } }\nfragment D0 on P { id }\n`;
      for (let i = 1; i <= levels; i++) text += `fragment D${i} on P { p { ...D${i - 1} } }\n`;
      return parse(text);
    };
    expect(checkQueryShape(nested(18))).toBeUndefined();
    expect(checkQueryShape(nested(19))).toBe('The query nests fields more than 20 deep');
    // A chain of 1,000 fragments, each spreading the next: refused before it is walked further.
    let chain = '{ p { ...C0 } }\n';
    for (let i = 0; i < 1000; i++) chain += `fragment C${i} on P { ...C${i + 1} }\n`;
    chain += 'fragment C1000 on P { id }';
    expect(checkQueryShape(parse(chain))).toBe('The query nests more than 200 levels');
  });

  it('refuses aliases in a query that reads the schema, also through a fragment', () => {
    expect(checkQueryShape(parse('{ __schema { types { a: name b: name } } }'))).toBe(
      'A query that reads the schema (__schema, __type) cannot use aliases',
    );
    expect(
      checkQueryShape(
        parse('{ ...Q }\nfragment Q on Query { __schema { types { ...T } } }\nfragment T on __Type { a: name }'),
      ),
    ).toBe('A query that reads the schema (__schema, __type) cannot use aliases');
    expect(checkQueryShape(parse('{ __schema { types { name fields { name } } } }'))).toBeUndefined();
    expect(checkQueryShape(parse('{ a: p { id } b: p { id } }'))).toBeUndefined();
  });
});

describe('budgeted resolvers', () => {
  const operation = parse('{ p { a: p { id } b: p { id } } }').definitions[0];
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  const field = operation.selectionSet.selections[0] as FieldNode;
  // Only what budgeted() reads of the resolve info.
  const info = { fieldNodes: [field], fragments: {} } as unknown as GraphQLResolveInfo;

  it('pays for each value before its fields are resolved, and resolves nothing once stopped', () => {
    const budget = new GraphqlBudget({ ...graphqlLimits, maxFieldValues: 10 });
    const items = Array.from({ length: 3 }, () => ({ id: 'x', p: [] }));
    const resolve = budgeted<unknown, { budget: GraphqlBudget }>(() => items);
    // Three items, two fields selected on each: 6 of 10.
    expect(selectionWidth(field.selectionSet as SelectionSetNode, {})).toBe(2);
    expect(resolve({}, {}, { budget }, info)).toBe(items);
    // Six more would make 12: refused, and the query is stopped for every later field too.
    expect(resolve({}, {}, { budget }, info)).toBeNull();
    expect(budget.exceeded).toBe("The query's answer would hold more than 10 field values");
    let called = false;
    const later = budgeted<unknown, { budget: GraphqlBudget }>(() => {
      called = true;
      return 'x';
    });
    expect(later({}, {}, { budget }, info)).toBeNull();
    expect(called).toBe(false);
  });

  it('counts reads and searches', () => {
    const budget = new GraphqlBudget({ ...graphqlLimits, maxDatabaseCalls: 2 });
    expect([budget.admitDatabaseCall(), budget.admitDatabaseCall(), budget.admitDatabaseCall()]).toEqual([
      true,
      true,
      false,
    ]);
    expect(budget.exceeded).toBe('The query needs more than 2 reads and searches');
  });
});

describe('the FHIR schema of each registry', () => {
  it('shares the object types, built once: a project schema costs its Query type only', () => {
    const definitions = ['profiles-types.json', 'profiles-resources.json'].flatMap((file) =>
      readDefinitionBundle(file),
    ) as StructureDefinition[];
    const base = new SearchParameterRegistry(readDefinitionBundle('search-parameters.json') as SearchParameter[]);
    base.putProjectParameter('p1', {
      resourceType: 'SearchParameter',
      id: 'sp1',
      url: 'https://clinic.example/SearchParameter/patient-nickname',
      name: 'nickname',
      code: 'nickname',
      base: ['Patient'],
      type: 'string',
      expression: 'Patient.name.given',
      status: 'active',
    } as SearchParameter);
    const types = buildFhirGraphqlTypes(definitions, base);
    const shared = buildFhirGraphqlSchema(types, base);
    const project = buildFhirGraphqlSchema(types, base.forProject('p1'));
    expect(project.getType('Patient')).toBe(shared.getType('Patient'));
    expect(project.getType('PatientConnection')).toBe(shared.getType('PatientConnection'));
    const argumentsOf = (schema: typeof shared) =>
      schema
        .getQueryType()
        ?.getFields()
        .PatientList.args.map((arg) => arg.name);
    expect(argumentsOf(project)).toContain('nickname');
    expect(argumentsOf(shared)).not.toContain('nickname');
  });
});
