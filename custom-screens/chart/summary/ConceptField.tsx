import { createContext, useContext, useState } from 'react';
import { Autocomplete, Box, Paper, TextField, Typography, type PaperProps } from '@mui/material';
import type { RecordedConceptSource } from '../../../config/clinical/recordedConcepts';
import { codeSystemName } from './rules/codeSystemName';
import { codingNote } from './rules/codingNote';
import { chosenSuggestion, suggestionKey, type ConceptSuggestion } from './rules/conceptSuggestions';
import type { ChosenConcept } from './rules/conceptText';
import { useConceptSuggestions } from './useConceptSuggestions';

export const SUGGESTIONS_UNAVAILABLE = 'Suggestions unavailable';

export interface ConceptFieldProps {
  label: string;
  required?: boolean;
  autoFocus?: boolean;
  /** Where suggestions come from: this clinic's recorded problems, allergies or medications. */
  source: RecordedConceptSource;
  text: string;
  chosen: ChosenConcept | undefined;
  /** Typing changes the name only; the chosen codes hold while the name is still theirs. */
  onTextChange(text: string): void;
  onChoose(chosen: ChosenConcept): void;
  error?: string;
}

// The suggestion list is drawn in a popper outside the field: its heading reaches it by context.
const SuggestionsHeading = createContext('');

/** The suggestion list's paper with a line above the options saying where they come from. */
function SuggestionsPaper(props: PaperProps) {
  const heading = useContext(SuggestionsHeading);
  const { children, ...paper } = props;
  return (
    <Paper {...paper}>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 2, pt: 1 }}>
        {heading}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * A problem, allergen or medication name: free text, or a code this clinic has already recorded,
 * offered as the clinician types. The line under the field says which codes will be saved, or that
 * a changed name drops them.
 */
export function ConceptField(props: ConceptFieldProps) {
  // Whether the clinician is typing here: suggestions are searched only then, not when an edit opens.
  const [typing, setTyping] = useState(false);
  const suggestions = useConceptSuggestions(props.source, props.text, typing);
  const notes = [codingNote(props.text, props.chosen), suggestions.unavailable ? SUGGESTIONS_UNAVAILABLE : undefined];
  const helperText = props.error ?? (notes.filter(Boolean).join(' · ') || undefined);
  return (
    <SuggestionsHeading.Provider value={`Suggestions from ${props.source.recordedAs} recorded in this clinic`}>
      <Autocomplete<ConceptSuggestion, false, false, true>
        freeSolo
        // Open only with options to show: an empty open list would take Escape away from the dialog.
        open={typing && suggestions.options.length > 0}
        onOpen={() => setTyping(true)}
        onClose={() => setTyping(false)}
        options={suggestions.options}
        // The server matched already; the options are narrowed to the current text by the rules.
        filterOptions={(options) => options}
        value={null}
        inputValue={props.text}
        onInputChange={(_event, value, reason) => {
          if (reason === 'input' || reason === 'clear') props.onTextChange(value);
        }}
        onChange={(_event, value) => {
          if (value && typeof value !== 'string') props.onChoose(chosenSuggestion(value));
        }}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.label)}
        getOptionKey={(option) => (typeof option === 'string' ? option : suggestionKey(option.coding))}
        isOptionEqualToValue={(a, b) => suggestionKey(a.coding) === suggestionKey(b.coding)}
        renderOption={({ key, ...optionProps }, option) => (
          <Box component="li" key={key} {...optionProps}>
            <Box>
              <Typography variant="body2">{option.label}</Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                {`${codeSystemName(option.coding.system)} · ${option.coding.code}`}
              </Typography>
            </Box>
          </Box>
        )}
        slots={{ paper: SuggestionsPaper }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={props.label}
            required={props.required}
            autoFocus={props.autoFocus}
            error={!!props.error}
            helperText={helperText}
          />
        )}
      />
    </SuggestionsHeading.Provider>
  );
}
