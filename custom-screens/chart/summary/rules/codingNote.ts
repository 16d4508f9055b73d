import { codeLabel } from './codeSystemName';
import { isChosenText, type ChosenConcept } from './conceptText';

/**
 * What the line under a name field says about its codes: which codes will be saved, or that the
 * name was changed away from them and is saved as text only. Nothing for a name that had no code.
 */
export function codingNote(text: string, chosen: ChosenConcept | undefined): string | undefined {
  const codes = (chosen?.concept.coding ?? []).filter((coding) => coding.code).map(codeLabel);
  if (codes.length === 0) return undefined;
  if (isChosenText(text, chosen)) return `Coded: ${codes.join(', ')}`;
  return `Name changed: saved as text only, without ${codes.join(', ')}`;
}
