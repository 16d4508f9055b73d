/** A definition the engine cannot load or use; the message is shown to the user as is (app-spec §8). */
export class SchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaError';
  }
}

export const STRUCTURE_DEFINITION_NOT_FOUND = 'StructureDefinition not found';
export const STRUCTURE_DEFINITION_TYPE_MISSING = 'StructureDefinition type missing';

/** '{type} not implemented' for a type the server has no definition of. */
export function notImplemented(type: string): string {
  return `${type} not implemented`;
}
