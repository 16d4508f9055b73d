import type { StructureDefinition } from '@medplum/fhirtypes';
import type { SqlExecutor } from '../storage/database';
import { readState, writeState } from '../storage/serverState';
import {
  computeElementFlags,
  elementFlagFiles,
  useElementFlags,
  type ElementFlagIndex,
} from '../search/resourceProjection';
import { computeRequiredChildren, requiredElementFiles, useRequiredChildren } from '../validation/requiredElements';
import { definitionsVersion, readDefinitionBundle } from './definitionFiles';

interface DefinitionIndex {
  version: string;
  required: Record<string, string[]>;
  elementFlags: ElementFlagIndex;
}

const stateKey = 'definition-index';

/**
 * What the server derives from the 38 MB of base StructureDefinitions (required elements for
 * validation, summary elements for `_summary`), computed once per definitions version and kept in
 * the database: a restart reads ~100 KB instead of parsing the files again (issue 20: that parse
 * took seconds and left the process hundreds of MB larger).
 */
export async function loadDefinitionIndex(db: SqlExecutor): Promise<'cached' | 'computed'> {
  const cached = await readState<DefinitionIndex>(db, stateKey);
  let index = cached?.version === definitionsVersion ? cached : undefined;
  const found = index !== undefined;
  if (!index) {
    const files = [...new Set([...requiredElementFiles, ...elementFlagFiles])];
    const definitions = new Map(
      files.map((file) => [file, readDefinitionBundle(file) as StructureDefinition[]] as const),
    );
    const of = (names: readonly string[]) => names.flatMap((name) => definitions.get(name) ?? []);
    index = {
      version: definitionsVersion,
      required: computeRequiredChildren(of(requiredElementFiles)),
      elementFlags: computeElementFlags(of(elementFlagFiles)),
    };
    await writeState(db, stateKey, index);
  }
  useRequiredChildren(index.required);
  useElementFlags(index.elementFlags);
  return found ? 'cached' : 'computed';
}
