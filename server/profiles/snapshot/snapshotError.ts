/** Why a snapshot cannot be generated: the message names the element or definition at fault. */
export class SnapshotError extends Error {
  constructor(
    message: string,
    /** FHIRPath of the offending part of the StructureDefinition, for the OperationOutcome. */
    readonly expression: string,
  ) {
    super(message);
  }
}
