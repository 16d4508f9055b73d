import type { CodeableConcept, Resource } from '@medplum/fhirtypes';
import { formatCodeableConcept, getDisplayString } from '../../../data-provider/formatting';

type Json = Record<string, unknown>;

/** What a file entry is called when it names nothing at all: a word, never its reference. */
export const UNTITLED_FILE = 'Untitled file';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function attachmentTitle(attachment: unknown): string | undefined {
  return attachment && typeof attachment === 'object' ? text((attachment as Json).title) : undefined;
}

/**
 * A file's name is what the clinician uploaded and will look for; the generic display of a Media
 * or DocumentReference falls back to its "Type/id" reference, which says nothing to a reader.
 */
function fileTitle(resource: Resource): string {
  const json = resource as unknown as Json;
  const title =
    resource.resourceType === 'Media'
      ? attachmentTitle(json.content)
      : attachmentTitle((json.content as { attachment?: unknown }[] | undefined)?.[0]?.attachment);
  return (
    title ??
    (formatCodeableConcept(json.type as CodeableConcept | undefined) || undefined) ??
    text(json.description) ??
    UNTITLED_FILE
  );
}

/** The entry's headline (its link): what was ordered, reported, said or filed, in words. */
export function timelineTitle(resource: Resource): string {
  if (resource.resourceType === 'Media' || resource.resourceType === 'DocumentReference') return fileTitle(resource);
  const json = resource as unknown as Json;
  const code = formatCodeableConcept((json.code ?? json.codeCodeableConcept) as CodeableConcept | undefined);
  if (code) return code;
  if (resource.resourceType === 'Device') {
    const names = json.deviceName as { name?: string }[] | undefined;
    return names?.[0]?.name ?? formatCodeableConcept(json.type as CodeableConcept | undefined);
  }
  if (typeof json.description === 'string') return json.description;
  if (resource.resourceType === 'Communication') {
    const sender = (json.sender as { display?: string; reference?: string } | undefined) ?? {};
    return `From ${sender.display ?? sender.reference ?? 'an unknown sender'}`;
  }
  return getDisplayString(resource);
}
