import type { FastifyInstance } from 'fastify';
import { FhirError, outcomeOf } from './fhirError';

/** `_format` values and media types that mean FHIR JSON (FHIR R4 http.html §3.1.0.1.10). */
const jsonFormats = new Set([
  'json',
  'application/json',
  'application/fhir+json',
  'application/json+fhir',
  'text/json',
]);
const xmlFormats = new Set(['xml', 'text/xml', 'application/xml', 'application/fhir+xml', 'application/xml+fhir']);

/** A media type as compared: lower case, without parameters; a `+` a query string decoded to a space put back. */
function normalised(mediaType: string): string {
  return mediaType.split(';')[0].trim().toLowerCase().replace(/ /g, '+');
}

/** Does an Accept media range admit JSON: a JSON type, a `+json` type, `application/*` or `*\/*`? */
function admitsJson(range: string): boolean {
  return range === '*/*' || range === 'application/*' || jsonFormats.has(range) || range.endsWith('+json');
}

/** The q of a media range (RFC 9110 §12.4.2), 1 when absent. */
function qualityOf(range: string): number {
  const q = /;\s*q\s*=\s*([0-9.]+)/i.exec(range);
  return q ? Number(q[1]) : 1;
}

/**
 * Why a request cannot be answered as this server answers (FHIR JSON only), or undefined when it
 * can. `_format` wins over Accept (http.html §3.1.0.1.10). An Accept that admits no JSON is refused
 * only when it names XML: other lists (e.g. text/html alone) keep getting JSON as before.
 */
export function unsupportedFormatReason(format: string | undefined, accept: string | undefined): string | undefined {
  if (format !== undefined) {
    const wanted = normalised(format);
    if (jsonFormats.has(wanted)) return undefined;
    if (xmlFormats.has(wanted)) return 'XML is not supported: this server answers FHIR JSON only (_format=json)';
    return `_format "${format}" is not supported: this server answers FHIR JSON only (_format=json)`;
  }
  if (accept === undefined || !/xml/i.test(accept)) return undefined;
  const ranges = accept.split(',').filter((range) => qualityOf(range) > 0);
  if (ranges.some((range) => admitsJson(normalised(range)))) return undefined;
  return 'XML is not supported: this server answers FHIR JSON only (Accept: application/fhir+json)';
}

/** 406 Not Acceptable with an OperationOutcome naming what is supported. */
export function notAcceptable(reason: string): FhirError {
  return new FhirError(406, outcomeOf([{ severity: 'error', code: 'not-supported', details: { text: reason } }]));
}

/** The last value of a query parameter as Fastify parsed it. */
function lastValue(value: unknown): string | undefined {
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
}

/**
 * Answers 406 for the routes of the calling plugin (hooks are encapsulated) when the request asks
 * for a format other than JSON. The checks are string tests that most requests fail at once: the
 * query is looked at only when the URL has one, and Accept only when it mentions XML.
 */
export function refuseUnsupportedFormats(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const format = request.url.includes('?')
      ? lastValue((request.query as Record<string, unknown>)._format)
      : undefined;
    const reason = unsupportedFormatReason(format, request.headers.accept);
    done(reason ? notAcceptable(reason) : undefined);
  });
}
