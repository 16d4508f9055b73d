import { createContext, useContext } from 'react';

/** What every input of one resource form shares: issues by path, policy fields, the form's state. */
export interface ResourceFormContextValue {
  /** Issue texts keyed by element path without array indexes (`Patient.name.given`). */
  errors: Map<string, string>;
  /** Top-level elements the access policy makes read-only / hides. */
  readonlyFields: readonly string[];
  hiddenFields: readonly string[];
  disabled: boolean;
}

export const ResourceFormContext = createContext<ResourceFormContextValue>({
  errors: new Map(),
  readonlyFields: [],
  hiddenFields: [],
  disabled: false,
});

export function useResourceFormContext(): ResourceFormContextValue {
  return useContext(ResourceFormContext);
}
