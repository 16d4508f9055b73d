/**
 * A reference that names its own server: a URI with a scheme (`https://other.example/fhir/Patient/1`,
 * `urn:…`) or a path from a host's root (`//host/…`, `/fhir/R4/…`). FHIR resolves every other
 * reference (`Patient/1`) against this server's base.
 *
 * One of this server's own FHIR base is stored in its relative form before it is indexed
 * (server/fhir/serverAddress.ts), so one still absolute here names another server, or a path of
 * this one that is not its FHIR API: it has no `Type/id` target here, whatever its last segments
 * say. Leading white space is skipped, as the URL parser and serverAddress.ts skip it.
 */
export function isAbsoluteReference(reference: string): boolean {
  return absolutePattern.test(reference);
}

// The scheme's characters are RFC 3986 §3.1's.
const absolutePattern = /^\s*(?:[A-Za-z][A-Za-z0-9+.-]*:|\/)/;
