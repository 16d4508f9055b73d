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

/** What a message entry is called when nothing names its sender: a word, never the bare reference. */
export const UNNAMED_SENDER = 'an unknown sender';

/**
 * The entry's headline (its link): what was ordered, reported, said or filed, in words. A message
 * is "From" its sender as the chat names them (`senderName`: chat/chatMessages.knownSenderName).
 */
export function timelineTitle(resource: Resource, senderName?: string): string {
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
    const display = (json.sender as { display?: string } | undefined)?.display?.trim();
    return `From ${senderName || display || UNNAMED_SENDER}`;
  }
  return getDisplayString(resource);
}
